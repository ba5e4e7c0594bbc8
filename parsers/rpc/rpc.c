/* rpc.c — the ONC-RPC reader NFS and sunrpc share (rpc.h): XDR primitives, a message's
 * header (RFC 5531 §9: CALL body with its credentials and verifier, REPLY accepted or denied)
 * and TCP record marking (§11), found again after a gap by scanning for a record's start.
 * Nothing here allocates but the record buffer, bounded by the caller's maximum. */
#include <string.h>

#include "rpc.h"

bool xdr_u32(struct xdr *x, uint32_t *v)
{
    if (x->bad || x->n - x->at < 4) {
        x->bad = true;
        return false;
    }
    *v = rd_be32(x->p + x->at);
    x->at += 4;
    return true;
}

bool xdr_u64(struct xdr *x, uint64_t *v)
{
    uint32_t hi, lo;
    if (!xdr_u32(x, &hi) || !xdr_u32(x, &lo))
        return false;
    *v = (uint64_t)hi << 32 | lo;
    return true;
}

bool xdr_skip(struct xdr *x, size_t n)
{
    size_t padded = (n + 3) & ~(size_t)3;
    if (x->bad || padded < n || x->n - x->at < padded) {
        x->bad = true;
        return false;
    }
    x->at += padded;
    return true;
}

bool xdr_opaque(struct xdr *x, const uint8_t **d, uint32_t *len, uint32_t max)
{
    uint32_t l;
    if (!xdr_u32(x, &l))
        return false;
    if (l > max) {
        x->bad = true;
        return false;
    }
    const uint8_t *at = x->p + x->at;
    if (!xdr_skip(x, l))
        return false;
    *d = at;
    *len = l;
    return true;
}

/* AUTH_UNIX (RFC 5531 appendix A): stamp, machinename<255>, uid, gid, gids<16>. uid and gid
 * are read right after the name's bytes, without its XDR padding: Suricata 8 reads them so,
 * and its records (nfs3-01's rpc.creds) are the specification here — a name whose length is
 * not a multiple of 4 shifts them (rpc.h). */
static void auth_unix(struct rpc_msg *m, const uint8_t *b, uint32_t n)
{
    struct xdr x;
    uint32_t stamp, len;
    xdr_init(&x, b, n);
    m->unix_ok = xdr_u32(&x, &stamp) && xdr_u32(&x, &len) && len <= RPC_MACHINE_MAX &&
                 xdr_left(&x) >= len;
    if (m->unix_ok) {
        m->machine = xdr_here(&x);
        m->machine_len = len;
        x.at += len;
        m->unix_ok = xdr_u32(&x, &m->uid) && xdr_u32(&x, &m->gid);
    }
    if (!m->unix_ok)
        m->machine = NULL, m->machine_len = 0, m->uid = m->gid = 0;
}

bool rpc_decode(struct rpc_msg *m, const uint8_t *d, size_t n)
{
    memset(m, 0, sizeof *m);
    struct xdr x;
    xdr_init(&x, d, n);
    if (!xdr_u32(&x, &m->xid) || !xdr_u32(&x, &m->type))
        return false;
    const uint8_t *b;
    uint32_t bl, vf;
    if (m->type == RPC_CALL) {
        if (!xdr_u32(&x, &m->rpcvers) || m->rpcvers != 2 || !xdr_u32(&x, &m->prog) ||
            !xdr_u32(&x, &m->vers) || !xdr_u32(&x, &m->proc) ||
            !xdr_u32(&x, &m->cred_flavor) || !xdr_opaque(&x, &b, &bl, RPC_AUTH_BODY_MAX))
            return false;
        if (m->cred_flavor == RPC_AUTH_UNIX)
            auth_unix(m, b, bl);
        if (!xdr_u32(&x, &vf) || !xdr_opaque(&x, &b, &bl, RPC_AUTH_BODY_MAX))
            return false;
    } else if (m->type == RPC_REPLY) {
        if (!xdr_u32(&x, &m->reply_stat) || m->reply_stat > 1)
            return false;
        if (m->reply_stat == 0) { /* accepted: verifier, accept_stat, results */
            if (!xdr_u32(&x, &vf) || !xdr_opaque(&x, &b, &bl, RPC_AUTH_BODY_MAX) ||
                !xdr_u32(&x, &m->accept_stat))
                return false;
        }
    } else {
        return false;
    }
    m->body = xdr_here(&x);
    m->body_len = xdr_left(&x);
    return true;
}

enum probe_verdict rpc_probe_call(const uint8_t *d, size_t n, uint32_t prog)
{
    if (n >= 8 && rd_be32(d + 4) != RPC_CALL)
        return DET_NO;
    if (n >= 12 && rd_be32(d + 8) != 2)
        return DET_NO;
    if (n >= 16 && prog && rd_be32(d + 12) != prog)
        return DET_NO;
    if (n < 24)
        return DET_NEED_MORE;
    return DET_YES;
}

enum probe_verdict rpc_probe_reply(const uint8_t *d, size_t n)
{
    if (n >= 8 && rd_be32(d + 4) != RPC_REPLY)
        return DET_NO;
    if (n >= 12 && rd_be32(d + 8) > 1)
        return DET_NO;
    return n < 12 ? DET_NEED_MORE : DET_YES;
}

void rpc_rec_gap(struct rpc_rec *r, bool call, uint32_t prog)
{
    pbuf_reset(&r->rec);
    r->nmark = 0;
    r->frag_left = 0;
    r->last = r->skipping = false;
    r->resync = true;
    r->resync_call = call;
    r->resync_prog = prog;
    r->nwin = 0;
}

/* Does the window start like a record (its mark, then the message's header)? */
static bool rec_start(const struct rpc_rec *r)
{
    uint32_t len = rd_be32(r->win) & 0x7fffffffu;
    if (r->resync_call)
        return len >= 24 && rpc_probe_call(r->win + 4, 24, r->resync_prog) == DET_YES;
    return len >= 12 && rpc_probe_reply(r->win + 4, 12) == DET_YES;
}

/* Scan d[0..n) after a gap; the bytes used. r->resync goes false once the window holds a
 * record's start (its bytes then to be read as the stream's next ones). */
static size_t rec_resync(struct rpc_rec *r, const uint8_t *d, size_t n)
{
    size_t want = r->resync_call ? RPC_RESYNC_WIN : 16, used = 0;
    while (used < n) {
        r->win[r->nwin++] = d[used++];
        if (r->nwin < want)
            continue;
        if (rec_start(r)) {
            r->resync = false;
            break;
        }
        memmove(r->win, r->win + 1, --r->nwin); /* slide by one byte */
    }
    return used;
}

void rpc_rec_feed(struct rpc_rec *r, const uint8_t *d, size_t n, uint32_t max,
                  rpc_record_fn fn, void *arg, uint64_t *skipped)
{
    if (r->resync) {
        size_t used = rec_resync(r, d, n);
        d += used, n -= used;
        if (r->resync)
            return;
        uint8_t w[RPC_RESYNC_WIN];
        size_t wn = r->nwin;
        memcpy(w, r->win, wn);
        r->nwin = 0;
        rpc_rec_feed(r, w, wn, max, fn, arg, skipped); /* the record's first bytes */
    }
    while (n) {
        if (r->nmark < 4) {
            r->mark[r->nmark++] = *d++, n--;
            if (r->nmark < 4)
                continue;
            uint32_t m = rd_be32(r->mark);
            r->last = m & 0x80000000u;
            r->frag_left = m & 0x7fffffffu;
            if (!r->skipping && (uint64_t)r->rec.len + r->frag_left > max) {
                r->skipping = true; /* too long to keep: skipped to its end */
                pbuf_reset(&r->rec);
                (*skipped)++;
            }
        } else {
            size_t k = r->frag_left < n ? r->frag_left : n;
            if (!r->skipping && pbuf_add(&r->rec, d, k, max) != k) {
                r->skipping = true; /* out of memory: as too long */
                pbuf_reset(&r->rec);
                (*skipped)++;
            }
            r->frag_left -= (uint32_t)k, d += k, n -= k;
        }
        if (r->nmark == 4 && r->frag_left == 0) { /* the fragment is complete */
            r->nmark = 0;
            if (r->last) {
                if (!r->skipping)
                    fn(arg, r->rec.p ? r->rec.p : (const uint8_t *)"", r->rec.len);
                r->skipping = false;
                pbuf_reset(&r->rec);
            }
        }
    }
}

void rpc_rec_free(struct rpc_rec *r)
{
    pbuf_free(&r->rec);
    memset(r, 0, sizeof *r);
}

const char *rpc_auth_name(uint32_t flavor)
{
    static const char *const N[] = {"NULL", "UNIX", "SHORT", "DH", "KERB", "RSA", "GSS"};
    return flavor < sizeof N / sizeof N[0] ? N[flavor] : NULL;
}

const char *rpc_status_name(uint32_t reply_stat)
{
    return reply_stat == 0 ? "ACCEPTED" : reply_stat == 1 ? "DENIED" : NULL;
}
