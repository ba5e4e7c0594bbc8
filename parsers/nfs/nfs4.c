/* nfs4.c — NFSv4 (RFC 7530, and 4.1's SEQUENCE, RFC 8881): a COMPOUND call's operations read
 * in order, as far as their arguments are known (an operation this reader cannot skip ends
 * the walk): PUTFH sets the current handle, WRITE is a file transfer of it (tx.c), COMMIT /
 * CLOSE complete that transfer, READ's reply carries a file's bytes, OPEN / LOOKUP name the
 * object, CREATE / REMOVE make a transaction of their own (Suricata's choice: the other
 * compounds make none). The reply's OPEN + GETFH teach the handle's name. */
#include <string.h>

#include "nfs_int.h"

#define STATEID_LEN 16u

static bool comp(struct xdr *x, const uint8_t **n, uint32_t *nl)
{
    return xdr_opaque(x, n, nl, 0xffffu);
}

static bool bitmap(struct xdr *x)
{
    uint32_t n, w;
    if (!xdr_u32(x, &n) || n > 64)
        return false;
    while (n--)
        if (!xdr_u32(x, &w))
            return false;
    return true;
}

static bool fattr(struct xdr *x)
{
    const uint8_t *v;
    uint32_t l;
    return bitmap(x) && xdr_opaque(x, &v, &l, 0xffffffu);
}

static bool skip_op(struct xdr *x, uint32_t op) /* arguments of an op read past */
{
    uint64_t u;
    uint32_t w, t;
    const uint8_t *p;
    switch (op) {
    case 3: return xdr_u32(x, &w);                                    /* ACCESS */
    case 8: return xdr_skip(x, STATEID_LEN);                          /* DELEGRETURN */
    case 9: return bitmap(x);                                         /* GETATTR */
    case 10: case 16: case 23: case 27: case 31: case 32: return true; /* no arguments */
    case 20: return xdr_skip(x, STATEID_LEN) && xdr_u32(x, &w);       /* OPEN_CONFIRM */
    case 26: return xdr_u64(x, &u) && xdr_skip(x, 8) && xdr_u32(x, &w) && xdr_u32(x, &w) &&
                    bitmap(x);                                        /* READDIR */
    case 29: return comp(x, &p, &w) && comp(x, &p, &w);               /* RENAME */
    case 30: return xdr_u64(x, &u);                                   /* RENEW */
    case 33: return comp(x, &p, &w);                                  /* SECINFO */
    case 34: return xdr_skip(x, STATEID_LEN) && fattr(x);             /* SETATTR */
    case 36: return xdr_u64(x, &u) && xdr_skip(x, 8);                 /* SETCLIENTID_CONFIRM */
    case 53: return xdr_skip(x, 16) && xdr_u32(x, &w) && xdr_u32(x, &w) && xdr_u32(x, &w) &&
                    xdr_u32(x, &t);                                   /* SEQUENCE */
    case 58: return xdr_u32(x, &w);                                   /* RECLAIM_COMPLETE */
    default: return false;
    }
}

/* OPEN4args: its file name (CLAIM_NULL, CLAIM_DELEGATE_CUR / _PREV) */
static bool open_args(struct xdr *x, const uint8_t **n, uint32_t *nl)
{
    uint32_t w, how, mode, claim;
    uint64_t u;
    const uint8_t *p;
    if (!xdr_u32(x, &w) || !xdr_u32(x, &w) || !xdr_u32(x, &w) || !xdr_u64(x, &u) ||
        !xdr_opaque(x, &p, &w, 1024) || !xdr_u32(x, &how))
        return false;
    if (how == 1) { /* OPEN4_CREATE: createhow4 */
        if (!xdr_u32(x, &mode))
            return false;
        if ((mode <= 1 && !fattr(x)) || (mode == 2 && !xdr_skip(x, 8)) ||
            (mode == 3 && !(xdr_skip(x, 8) && fattr(x))) || mode > 3)
            return false;
    }
    if (!xdr_u32(x, &claim))
        return false;
    switch (claim) {
    case 0: case 3: return comp(x, n, nl);
    case 1: return xdr_u32(x, &w);
    case 2: return xdr_skip(x, STATEID_LEN) && comp(x, n, nl);
    case 4: case 6: return true;
    case 5: return xdr_skip(x, STATEID_LEN);
    default: return false;
    }
}

static bool create_args(struct xdr *x, const uint8_t **n, uint32_t *nl)
{
    uint32_t type, w;
    const uint8_t *p;
    if (!xdr_u32(x, &type))
        return false;
    if ((type == 5 && !xdr_opaque(x, &p, &w, 0xffffu)) ||
        ((type == 3 || type == 4) && !(xdr_u32(x, &w) && xdr_u32(x, &w))))
        return false;
    return comp(x, n, nl) && fattr(x);
}

void nfs4_call(struct pflow *pf, const struct rpc_msg *m)
{
    struct nfs_state *st = pf->state;
    struct nfs_call *c = nfs_call_add(pf, m);
    if (m->proc != NFS4_COMPOUND)
        return; /* NULL */
    struct xdr x;
    xdr_init(&x, m->body, m->body_len);
    const uint8_t *tag, *fh = NULL, *n = NULL, *data;
    uint32_t tl, fhl = 0, nl = 0, minor, count, main = 0, w, stable, len;
    uint64_t off;
    if (!xdr_opaque(&x, &tag, &tl, 0xffffu) || !xdr_u32(&x, &minor) || !xdr_u32(&x, &count)) {
        nfs_malformed(pf, 0);
        return;
    }
    for (uint32_t i = 0; i < count && xdr_left(&x); i++) {
        uint32_t op;
        bool ok = xdr_u32(&x, &op);
        switch (ok ? op : 0) {
        case NFS4_PUTFH: ok = xdr_opaque(&x, &fh, &fhl, NFS_HANDLE_MAX); break;
        case NFS4_PUTROOTFH: fh = NULL, fhl = 0; break;
        case NFS4_READ:
            ok = xdr_skip(&x, STATEID_LEN) && xdr_u64(&x, &off) && xdr_u32(&x, &w);
            if (ok && fhl) {
                nfs_bytes_set(&c->handle, fh, fhl, NFS_HANDLE_MAX);
                c->offset = off;
                const struct nfs_bytes *known = nfs_name_of(st, fh, fhl);
                if (known)
                    nfs_bytes_set(&c->name, known->p, known->len, NFS_NAME_MAX);
            }
            break;
        case NFS4_WRITE:
            ok = xdr_skip(&x, STATEID_LEN) && xdr_u64(&x, &off) && xdr_u32(&x, &stable) &&
                 xdr_opaque(&x, &data, &len, NFS_RECORD_MAX);
            /* Suricata ignores empty writes and ones past 16 MiB */
            if (ok && fhl && len)
                nfs_file_chunk(pf, m, 0, 4, NFS4_WRITE, fh, fhl, off, data, len,
                               stable == 2);
            break;
        case NFS4_COMMIT: case NFS4_CLOSE:
            ok = op == NFS4_COMMIT ? xdr_u64(&x, &off) && xdr_u32(&x, &w)
                                   : xdr_u32(&x, &w) && xdr_skip(&x, STATEID_LEN);
            if (ok && fhl)
                nfs_file_close(pf, fh, fhl, m->xid);
            break;
        case NFS4_OPEN: case NFS4_LOOKUP:
            ok = op == NFS4_OPEN ? open_args(&x, &n, &nl) : comp(&x, &n, &nl);
            if (ok && n)
                nfs_bytes_set(&c->name, n, nl, NFS_NAME_MAX);
            break;
        case NFS4_CREATE:
            ok = create_args(&x, &n, &nl);
            if (ok) {
                if (fhl)
                    nfs_bytes_set(&c->handle, fh, fhl, NFS_HANDLE_MAX);
                nfs_bytes_set(&c->name, n, nl, NFS_NAME_MAX);
                main = NFS4_CREATE;
            }
            break;
        case NFS4_REMOVE:
            ok = comp(&x, &n, &nl);
            if (ok) {
                nfs_bytes_set(&c->name, n, nl, NFS_NAME_MAX);
                main = NFS4_REMOVE;
            }
            break;
        default:
            if (!ok || !skip_op(&x, op))
                i = count; /* an operation not known: the rest is not read */
            continue;
        }
        if (!ok) {
            nfs_malformed(pf, 0);
            break;
        }
    }
    if (!main)
        return;
    struct rpc_msg mm = *m;
    mm.proc = main;
    struct nfs_tx *tx = nfs_tx_new(pf, &mm);
    if (!tx)
        return;
    nfs_bytes_set(&tx->handle, c->handle.p, c->handle.len, NFS_HANDLE_MAX);
    nfs_bytes_set(&tx->name, c->name.p, c->name.len, NFS_NAME_MAX);
    st->cur = tx;
    pflow_raise(pf, st->f, 0, NFS_EV_REQUEST);
}

/* the result of op after its status s (OK), read past; false: not known */
static bool skip_res(struct xdr *x, uint32_t op)
{
    uint32_t w;
    uint64_t u;
    switch (op) {
    case 3: return xdr_u32(x, &w) && xdr_u32(x, &w);                  /* ACCESS */
    case 9: return fattr(x);                                          /* GETATTR */
    case 5: return xdr_skip(x, 8);                                    /* COMMIT */
    case 4: case 20: return xdr_skip(x, STATEID_LEN);                 /* CLOSE, OPEN_CONFIRM */
    case 6: return xdr_u32(x, &w) && xdr_u64(x, &u) && xdr_u64(x, &u) && bitmap(x); /* CREATE */
    case 28: return xdr_u32(x, &w) && xdr_u64(x, &u) && xdr_u64(x, &u); /* REMOVE */
    case 29: return xdr_skip(x, 40);                                  /* RENAME */
    case 8: case 15: case 16: case 22: case 23: case 24: case 30: case 31: case 32: case 36:
    case 58: return true;
    case 34: return bitmap(x);                                        /* SETATTR */
    case 38: return xdr_u32(x, &w) && xdr_u32(x, &w) && xdr_skip(x, 8); /* WRITE */
    case 53: return xdr_skip(x, 16) && xdr_skip(x, 20);               /* SEQUENCE */
    default: return false;
    }
}

/* OPEN4resok: stateid, change_info, rflags, attrset, delegation (none / read / write) */
static bool open_res(struct xdr *x)
{
    uint32_t w, type;
    uint64_t u;
    const uint8_t *p;
    if (!xdr_skip(x, STATEID_LEN) || !xdr_u32(x, &w) || !xdr_u64(x, &u) || !xdr_u64(x, &u) ||
        !xdr_u32(x, &w) || !bitmap(x) || !xdr_u32(x, &type))
        return false;
    if (type == 0)
        return true;
    if (type != 1 && type != 2)
        return false;
    if (!xdr_skip(x, STATEID_LEN) || !xdr_u32(x, &w))
        return false;
    if (type == 2 && !(xdr_u32(x, &w) && xdr_u64(x, &u))) /* space_limit */
        return false;
    return xdr_u32(x, &w) && xdr_u32(x, &w) && xdr_u32(x, &w) && xdr_opaque(x, &p, &w, 1024);
}

void nfs4_reply(struct pflow *pf, const struct rpc_msg *m, struct nfs_call *c)
{
    struct nfs_state *st = pf->state;
    if (c->procedure != NFS4_COMPOUND || m->reply_stat != 0 || m->accept_stat != 0)
        return;
    struct xdr x;
    xdr_init(&x, m->body, m->body_len);
    const uint8_t *tag;
    uint32_t tl, status, count, main_status = 0;
    bool opened = false, main_set = false;
    if (!xdr_u32(&x, &status) || !xdr_opaque(&x, &tag, &tl, 0xffffu) || !xdr_u32(&x, &count))
        return;
    for (uint32_t i = 0; i < count && xdr_left(&x); i++) {
        uint32_t op, s;
        if (!xdr_u32(&x, &op) || !xdr_u32(&x, &s))
            break;
        if (op == NFS4_REMOVE || op == NFS4_CREATE)
            main_status = s, main_set = true;
        if (op == NFS4_PUTROOTFH && s == 0 && !c->name.len)
            nfs_bytes_set(&c->name, (const uint8_t *)"<mount_root>", 12, NFS_NAME_MAX);
        if (s != 0 && op != 34) /* an error: no result (SETATTR's attrsset aside) */
            break;
        bool ok;
        if (op == NFS4_OPEN) {
            ok = opened = open_res(&x);
        } else if (op == NFS4_GETFH) {
            const uint8_t *h;
            uint32_t hl;
            ok = xdr_opaque(&x, &h, &hl, NFS_HANDLE_MAX);
            if (ok && opened)
                nfs_name_put(pf, h, hl, c->name.p, c->name.len);
        } else if (op == NFS4_READ) {
            const uint8_t *data;
            uint32_t eof, len;
            ok = xdr_u32(&x, &eof) && xdr_opaque(&x, &data, &len, NFS_RECORD_MAX);
            if (ok && c->handle.len)
                nfs_file_chunk(pf, m, 1, 4, NFS4_READ, c->handle.p, c->handle.len, c->offset,
                               data, len, eof != 0);
        } else {
            ok = skip_res(&x, op);
        }
        if (!ok)
            break;
    }
    if (!main_set)
        return;
    struct nfs_tx *tx = nfs_tx_by_xid(st, m->xid);
    if (!tx)
        return;
    tx->rpc_status = m->reply_stat;
    tx->nfs_status = main_status;
    st->cur = tx;
    pflow_raise(pf, st->f, 1, NFS_EV_RESPONSE);
    nfs_tx_finish(pf, tx);
}
