/* stream.c — Kerberos 5 over UDP (one message per datagram) and TCP (RFC 4120 §7.2.2: each
 * message behind a 4-byte big-endian length, any segment boundary). Every message of a type
 * Suricata logs (AS-REQ/REP, TGS-REQ/REP, KRB-ERROR) is one transaction: it runs its side's
 * event (krb5_request from the client, krb5_response from the server) with its buffers
 * current, then its record is written. It stays the flow's current message until the next.
 *
 * Limits: a TCP record longer than KRB5_RECORD_MAX is skipped (counted); the high bit of the
 * length (reserved for extensions) or a message that does not decode is malformed: the
 * anomaly krb5.malformed_data, and on TCP that side is given up. */
#include <stdlib.h>
#include <string.h>

#include "krb5_int.h"

static struct krb5_state *state_of(struct pflow *pf, int dir)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct krb5_state))))
        pf->dead[dir] = true;
    return pf->state;
}

static void malformed(struct pflow *pf, struct mon_flow *f, int dir)
{
    pflow_count(pf, KRB5_C_MALFORMED, 1);
    pflow_anomaly(pf, f, dir, KRB5_AE_MALFORMED);
}

/* One whole message d[0..n). false: it did not decode. */
static bool message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                    uint32_t n)
{
    struct krb5_state *st = pf->state;
    struct krb5_msg m;
    if (!krb5_decode(&m, d, n)) {
        krb5_msg_free(&m);
        malformed(pf, f, dir);
        return false;
    }
    uint8_t t = m.type;
    if (t == KRB5_AS_REQ || t == KRB5_TGS_REQ || t == KRB5_AP_REQ)
        st->req_type = t;
    bool tx = t == KRB5_AS_REQ || t == KRB5_AS_REP || t == KRB5_TGS_REQ ||
              t == KRB5_TGS_REP || t == KRB5_ERROR;
    if (t == KRB5_AS_REP || t == KRB5_TGS_REP || t == KRB5_AP_REP || t == KRB5_ERROR) {
        m.failed = t == KRB5_ERROR ? st->req_type : 0;
        st->req_type = 0;
    }
    if (!tx) {
        krb5_msg_free(&m);
        return true;
    }
    if (m.shed)
        pflow_count(pf, KRB5_C_SHED, m.shed);
    krb5_msg_free(&st->cur);
    st->cur = m;
    st->cur.dir = (uint8_t)dir;
    st->cur.id = st->next_id++;
    st->has_cur = true;
    pflow_count(pf, KRB5_C_TX, 1);
    if (m.has_etype && krb5_weak(m.etype))
        pflow_anomaly(pf, f, dir, KRB5_AE_WEAK);
    pflow_raise(pf, f, dir, dir == 0 ? KRB5_EV_REQUEST : KRB5_EV_RESPONSE);
    pflow_tx_done(pf, f);
    return true;
}

void krb5_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                      size_t n)
{
    if (!state_of(pf, dir) || n > KRB5_RECORD_MAX)
        return;
    message(pf, f, dir, d, (uint32_t)n);
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* a record mark: false when its reserved high bit is set */
static bool mark_ok(struct pflow *pf, struct mon_flow *f, int dir, uint32_t len)
{
    if (!(len & 0x80000000u))
        return true;
    malformed(pf, f, dir);
    pf->dead[dir] = true;
    return false;
}

void krb5_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct krb5_state *st = state_of(pf, dir);
    if (!st)
        return;
    struct krb5_dir *sd = &st->dir[dir];
    while (n && !pf->dead[dir]) {
        if (sd->skip) {
            size_t k = sd->skip < n ? (size_t)sd->skip : n;
            sd->skip -= k, d += k, n -= k;
            continue;
        }
        if (sd->buf.len) { /* a record begun in an earlier segment */
            if (sd->buf.len < 4) {
                size_t k = 4 - sd->buf.len < n ? 4 - sd->buf.len : n;
                pbuf_add(&sd->buf, d, k, 4);
                d += k, n -= k;
                if (sd->buf.len < 4)
                    return;
            }
            uint32_t rec = be32(sd->buf.p);
            if (!mark_ok(pf, f, dir, rec))
                return;
            if (rec > KRB5_RECORD_MAX) {
                pbuf_reset(&sd->buf);
                sd->skip = rec;
                pflow_count(pf, KRB5_C_SKIPPED, 1);
                continue;
            }
            size_t want = 4 + (size_t)rec - sd->buf.len;
            size_t k = want < n ? want : n;
            if (pbuf_add(&sd->buf, d, k, 4 + rec) != k) {
                pf->dead[dir] = true;
                return;
            }
            d += k, n -= k;
            if (sd->buf.len < 4 + rec)
                return;
            bool ok = message(pf, f, dir, sd->buf.p + 4, rec);
            pbuf_reset(&sd->buf);
            if (!ok)
                pf->dead[dir] = true;
            continue;
        }
        if (n < 4) {
            pbuf_add(&sd->buf, d, n, 4);
            return;
        }
        uint32_t rec = be32(d);
        if (!mark_ok(pf, f, dir, rec))
            return;
        if (rec > KRB5_RECORD_MAX) {
            d += 4, n -= 4;
            sd->skip = rec;
            pflow_count(pf, KRB5_C_SKIPPED, 1);
            continue;
        }
        if (n < 4 + (size_t)rec) { /* keep it for the next segment (bounded) */
            if (pbuf_add(&sd->buf, d, n, 4 + rec) != n)
                pf->dead[dir] = true;
            return;
        }
        if (!message(pf, f, dir, d + 4, rec)) {
            pf->dead[dir] = true;
            return;
        }
        d += 4 + rec, n -= 4 + rec;
    }
}

/* The connection closed: a message cut at the close will never complete. */
void krb5_trim(void *state)
{
    struct krb5_state *st = state;
    pbuf_free(&st->dir[0].buf);
    pbuf_free(&st->dir[1].buf);
    st->dir[0].skip = st->dir[1].skip = 0;
}

void krb5_free(void *state)
{
    struct krb5_state *st = state;
    if (!st)
        return;
    krb5_msg_free(&st->cur);
    pbuf_free(&st->dir[0].buf);
    pbuf_free(&st->dir[1].buf);
    free(st);
}

uint32_t krb5_tx_id(const struct pflow *pf)
{
    const struct krb5_state *st = pf->state;
    return st && st->has_cur ? (uint32_t)st->cur.id : 0;
}
