/* nfs3.c — NFS versions 2 (RFC 1094) and 3 (RFC 1813): a call's file handle and name (the
 * procedures Suricata reads them for), a reply's status and the handles it names (LOOKUP,
 * CREATE, READDIRPLUS); READ and WRITE are file transfers (tx.c). Every other call is one
 * transaction, completed by its reply. A call whose arguments do not decode raises
 * nfs.malformed_data and is still a transaction (as in Suricata). */
#include <string.h>

#include "nfs_int.h"

#define FATTR3_LEN 84u  /* fattr3: 5 words, 8 hypers */
#define FATTR2_LEN 68u  /* fattr: 17 words */
#define FH2_LEN 32u     /* an NFSv2 fhandle is fixed */

/* A file handle: v3's opaque<64> (v4's <128>), v2's fixed 32 bytes. */
static bool fh(struct xdr *x, uint32_t vers, const uint8_t **h, uint32_t *hl)
{
    if (vers == 2) {
        *h = xdr_here(x);
        *hl = FH2_LEN;
        return xdr_skip(x, FH2_LEN);
    }
    return xdr_opaque(x, h, hl, NFS_HANDLE_MAX);
}

static bool name(struct xdr *x, const uint8_t **n, uint32_t *nl)
{
    return xdr_opaque(x, n, nl, 0xffffu);
}

static bool post_op_attr(struct xdr *x)
{
    uint32_t follows;
    return xdr_u32(x, &follows) && (!follows || xdr_skip(x, FATTR3_LEN));
}

/* Procedure p of version v mapped to v3's numbering for what is read (v2's LOOKUP is 4 …).
 * v2's WRITE is read as a plain call, not a file transfer: Suricata 8 does so (it reads v2
 * by v3's numbers, where 8 is CREATE), and its files are what filestore counts on. */
static uint32_t as_v3(uint32_t v, uint32_t p)
{
    if (v != 2)
        return p;
    switch (p) {
    case 1: return NFS3_GETATTR;
    case NFS2_LOOKUP: return NFS3_LOOKUP;
    case NFS2_READ: return NFS3_READ;
    case NFS2_CREATE: return NFS3_CREATE;
    case NFS2_REMOVE: return NFS3_REMOVE;
    case NFS2_RENAME: return NFS3_RENAME;
    case NFS2_MKDIR: return NFS3_MKDIR;
    case NFS2_RMDIR: return NFS3_RMDIR;
    default: return 0; /* nothing read */
    }
}

static void write_call(struct pflow *pf, const struct rpc_msg *m, struct xdr *x)
{
    const uint8_t *h, *data;
    uint32_t hl, len, stable = 0, u;
    uint64_t off;
    bool ok = fh(x, m->vers, &h, &hl);
    /* offset, count, stable, data */
    ok = ok && xdr_u64(x, &off) && xdr_u32(x, &u) && xdr_u32(x, &stable);
    if (!ok || !xdr_opaque(x, &data, &len, NFS_RECORD_MAX)) {
        nfs_malformed(pf, 0);
        return;
    }
    /* FILE_SYNC (2) is taken as a single-chunk file, as Suricata does */
    nfs_file_chunk(pf, m, 0, m->vers, m->proc, h, hl, off, data, len, stable == 2);
}

void nfs3_call(struct pflow *pf, const struct rpc_msg *m)
{
    struct nfs_state *st = pf->state;
    struct nfs_call *c = nfs_call_add(pf, m);
    struct xdr x;
    xdr_init(&x, m->body, m->body_len);
    const uint8_t *h = NULL, *n = NULL, *n2 = NULL;
    uint32_t hl = 0, nl = 0, n2l = 0;
    bool ok = true, has_name = false, rename = false;
    uint32_t p = as_v3(m->vers, m->proc);
    switch (p) {
    case NFS3_LOOKUP: /* the name only: the handle comes with the reply */
        ok = fh(&x, m->vers, &h, &hl) && name(&x, &n, &nl);
        hl = 0, has_name = ok;
        break;
    case NFS3_ACCESS: case NFS3_GETATTR: case NFS3_READDIRPLUS: case NFS3_READ:
        ok = fh(&x, m->vers, &h, &hl);
        if (ok && p == NFS3_READ) { /* the offset: v2's a word, v3's a hyper */
            uint32_t o32;
            ok = m->vers == 2 ? xdr_u32(&x, &o32) && (c->offset = o32, true)
                              : xdr_u64(&x, &c->offset);
        }
        break;
    case NFS3_CREATE: case NFS3_REMOVE: case NFS3_MKDIR: case NFS3_RMDIR:
        ok = fh(&x, m->vers, &h, &hl) && name(&x, &n, &nl);
        has_name = ok;
        break;
    case NFS3_RENAME:
        ok = fh(&x, m->vers, &h, &hl) && name(&x, &n, &nl) && fh(&x, m->vers, &n2, &n2l) &&
             name(&x, &n2, &n2l);
        has_name = rename = ok;
        break;
    case NFS3_WRITE:
        c->procedure = m->proc;
        write_call(pf, m, &x);
        return;
    case NFS3_COMMIT:
        if (m->vers == 3 && fh(&x, m->vers, &h, &hl))
            nfs_file_close(pf, h, hl, m->xid);
        else
            nfs_malformed(pf, 0);
        return;
    default:
        break;
    }
    if (!ok) {
        nfs_malformed(pf, 0);
        h = n = NULL, hl = nl = 0, has_name = rename = false;
    }
    if (hl)
        nfs_bytes_set(&c->handle, h, hl, NFS_HANDLE_MAX);
    if (has_name)
        nfs_bytes_set(&c->name, n, nl, NFS_NAME_MAX);
    else if (hl) { /* a handle whose name a LOOKUP / CREATE / listing taught us */
        const struct nfs_bytes *known = nfs_name_of(st, h, hl);
        if (known)
            nfs_bytes_set(&c->name, known->p, known->len, NFS_NAME_MAX);
    }
    if (p == NFS3_READ) { /* a file transfer: its data comes in the replies */
        nfs_file_begin(pf, m, 1, m->vers, m->proc, c->handle.p, c->handle.len, m->vers == 3);
        return;
    }
    struct nfs_tx *tx = nfs_tx_new(pf, m);
    if (!tx)
        return;
    nfs_bytes_set(&tx->handle, c->handle.p, c->handle.len, NFS_HANDLE_MAX);
    nfs_bytes_set(&tx->name, c->name.p, c->name.len, NFS_NAME_MAX);
    if (rename) {
        tx->has_rename = true;
        nfs_bytes_set(&tx->rename_to, n2, n2l, NFS_NAME_MAX);
    }
    st->cur = tx;
    pflow_raise(pf, st->f, 0, NFS_EV_REQUEST);
}

/* READDIRPLUS3resok after the status: the entries' names and handles */
static void readdirplus(struct pflow *pf, struct xdr *x)
{
    uint32_t follows;
    uint64_t u64;
    if (!post_op_attr(x) || !xdr_u64(x, &u64)) /* dir_attributes, cookieverf */
        return;
    while (xdr_u32(x, &follows) && follows) {
        const uint8_t *n, *h = NULL;
        uint32_t nl, hl = 0, has_fh;
        if (!xdr_u64(x, &u64) || !name(x, &n, &nl) || !xdr_u64(x, &u64) || !post_op_attr(x) ||
            !xdr_u32(x, &has_fh) || (has_fh && !xdr_opaque(x, &h, &hl, NFS_HANDLE_MAX))) {
            nfs_malformed(pf, 1);
            return;
        }
        if (has_fh)
            nfs_name_put(pf, h, hl, n, nl);
    }
}

/* a READ reply's data: v3 (status, post_op_attr, count, eof, data) or v2 (status, fattr,
 * data; the last chunk when the file's size is reached) */
static void read_reply(struct pflow *pf, const struct rpc_msg *m, struct nfs_call *c,
                       struct xdr *x, uint32_t status)
{
    const uint8_t *data;
    uint32_t len, count, eof = 0;
    bool last;
    if (status != 0)
        return;
    if (c->version == 2) {
        const uint8_t *attr = xdr_here(x);
        if (!xdr_skip(x, FATTR2_LEN) || !xdr_opaque(x, &data, &len, NFS_RECORD_MAX)) {
            nfs_malformed(pf, 1);
            return;
        }
        /* v2 has no eof: the chunk that reaches the file's size (fattr's 6th word) ends it */
        last = rd_be32(attr + 20) == c->offset + len;
    } else {
        if (!post_op_attr(x) || !xdr_u32(x, &count) || !xdr_u32(x, &eof) ||
            !xdr_opaque(x, &data, &len, NFS_RECORD_MAX)) {
            nfs_malformed(pf, 1);
            return;
        }
        last = eof != 0;
    }
    struct rpc_msg mm = *m;
    nfs_file_chunk(pf, &mm, 1, c->version, c->procedure, c->handle.p, c->handle.len, c->offset,
                   data, len, last);
}

void nfs3_reply(struct pflow *pf, const struct rpc_msg *m, struct nfs_call *c)
{
    struct nfs_state *st = pf->state;
    struct xdr x;
    xdr_init(&x, m->body, m->body_len);
    uint32_t status = 0;
    const uint8_t *h = NULL;
    uint32_t hl = 0;
    bool accepted = m->reply_stat == 0 && m->accept_stat == 0;
    if (accepted)
        xdr_u32(&x, &status);
    uint32_t p = as_v3(c->version, c->procedure);
    if (accepted && status == 0) {
        uint32_t follows;
        if (p == NFS3_LOOKUP && fh(&x, c->version, &h, &hl))
            nfs_name_put(pf, h, hl, c->name.p, c->name.len);
        else if (p == NFS3_CREATE && c->version == 2 && fh(&x, 2, &h, &hl))
            nfs_name_put(pf, h, hl, c->name.p, c->name.len);
        else if (p == NFS3_CREATE && c->version == 3 && xdr_u32(&x, &follows) && follows &&
                 fh(&x, 3, &h, &hl))
            nfs_name_put(pf, h, hl, c->name.p, c->name.len);
        else if (p == NFS3_READDIRPLUS && c->version == 3)
            readdirplus(pf, &x);
        else if (p == NFS3_READ)
            read_reply(pf, m, c, &x, status);
    }
    if (p == NFS3_READ || p == NFS3_WRITE || (p == NFS3_COMMIT && c->version == 3))
        return; /* file transfers: no transaction of their own */
    struct nfs_tx *tx = nfs_tx_by_xid(st, m->xid);
    if (!tx)
        return;
    tx->rpc_status = m->reply_stat;
    tx->nfs_status = status;
    if (!tx->handle.len && hl)
        nfs_bytes_set(&tx->handle, h, hl, NFS_HANDLE_MAX);
    st->cur = tx;
    pflow_raise(pf, st->f, 1, NFS_EV_RESPONSE);
    nfs_tx_finish(pf, tx);
}
