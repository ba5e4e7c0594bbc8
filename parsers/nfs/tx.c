/* tx.c — NFS transactions as Suricata makes them: one per call/reply pair (made at the call,
 * completed by its reply), and one per file transfer (a file handle's WRITE calls, or the
 * replies to its READ calls: the file's bytes go to the file layer, core/files.h). Also the
 * calls awaiting their reply (a ring of NFS_XID_MAX by xid) and the names learnt for file
 * handles (LOOKUP / CREATE / READDIRPLUS / OPEN results, a ring of NFS_NAMES_MAX). Every
 * table is bounded: what is shed is counted. */
#include <stdlib.h>
#include <string.h>

#include "nfs_int.h"

bool nfs_bytes_set(struct nfs_bytes *b, const uint8_t *d, uint32_t n, uint32_t max)
{
    nfs_bytes_free(b);
    if (n > max)
        n = max;
    if (!n)
        return true;
    if (!(b->p = malloc(n)))
        return false;
    memcpy(b->p, d, n);
    b->len = n;
    return true;
}

void nfs_bytes_free(struct nfs_bytes *b)
{
    free(b->p);
    b->p = NULL;
    b->len = 0;
}

void nfs_tx_free(struct nfs_tx *tx)
{
    if (!tx)
        return;
    nfs_bytes_free(&tx->machine);
    nfs_bytes_free(&tx->handle);
    nfs_bytes_free(&tx->name);
    nfs_bytes_free(&tx->rename_to);
    free(tx);
}

/* Take tx out of the open list (it stays allocated). */
static void unlink_tx(struct nfs_state *st, struct nfs_tx *tx)
{
    for (uint32_t i = 0; i < st->ntx; i++)
        if (st->tx[i] == tx) {
            memmove(&st->tx[i], &st->tx[i + 1], (st->ntx - i - 1) * sizeof st->tx[0]);
            st->ntx--;
            return;
        }
}

struct nfs_tx *nfs_tx_new(struct pflow *pf, const struct rpc_msg *m)
{
    struct nfs_state *st = pf->state;
    if (st->ntx == NFS_TX_MAX) { /* the oldest goes unreported */
        struct nfs_tx *old = st->tx[0];
        unlink_tx(st, old);
        if (st->cur == old)
            st->cur = NULL;
        if (old->file)
            pfile_close(pf, old->file, true);
        nfs_tx_free(old);
        pflow_count(pf, NFS_C_TX_SHED, 1);
        pflow_anomaly(pf, st->f, 0, NFS_AE_TOO_MANY_TX);
    }
    struct nfs_tx *tx = calloc(1, sizeof *tx);
    if (!tx)
        return NULL;
    tx->id = ++st->next_id;
    tx->xid = m->xid;
    tx->version = m->vers;
    tx->procedure = m->proc;
    tx->auth_type = m->cred_flavor;
    if (m->cred_flavor == RPC_AUTH_UNIX && m->unix_ok) {
        nfs_bytes_set(&tx->machine, m->machine, m->machine_len, RPC_MACHINE_MAX);
        tx->uid = m->uid;
        tx->gid = m->gid;
    }
    st->tx[st->ntx++] = tx;
    pflow_count(pf, NFS_C_TX, 1);
    return tx;
}

struct nfs_tx *nfs_tx_by_xid(struct nfs_state *st, uint32_t xid)
{
    for (uint32_t i = 0; i < st->ntx; i++)
        if (!st->tx[i]->file_tx && st->tx[i]->xid == xid)
            return st->tx[i];
    return NULL;
}

struct nfs_tx *nfs_file_tx(struct nfs_state *st, const struct nfs_bytes *h, int dir)
{
    for (uint32_t i = 0; i < st->ntx; i++) {
        struct nfs_tx *t = st->tx[i];
        if (t->file_tx && t->file_dir == dir && t->handle.len == h->len &&
            (!h->len || !memcmp(t->handle.p, h->p, h->len)))
            return t;
    }
    return NULL;
}

/* Suricata leaves NFSv2/v3 GETATTR out of its records (they are many and say little) */
static bool logged(const struct nfs_tx *tx)
{
    return !(tx->version <= 3 && !tx->file_tx && tx->procedure == NFS3_GETATTR);
}

void nfs_tx_finish(struct pflow *pf, struct nfs_tx *tx)
{
    struct nfs_state *st = pf->state;
    unlink_tx(st, tx);
    struct nfs_tx *was = st->cur;
    st->cur = tx;
    if (tx->file) /* (a file tx ending without its last chunk is cut short) */
        pfile_close(pf, tx->file, !tx->last);
    if (logged(tx))
        pflow_tx_done(pf, st->f);
    else
        pfile_release_tx(pf, (uint32_t)(tx->id - 1));
    st->cur = was == tx ? NULL : was;
    nfs_tx_free(tx);
}

void nfs_call_clear(struct nfs_call *c)
{
    nfs_bytes_free(&c->handle);
    nfs_bytes_free(&c->name);
    memset(c, 0, sizeof *c);
}

struct nfs_call *nfs_call_add(struct pflow *pf, const struct rpc_msg *m)
{
    struct nfs_state *st = pf->state;
    struct nfs_call *c = &st->calls[st->call_next];
    st->call_next = (st->call_next + 1) % NFS_XID_MAX;
    if (c->used) /* a call never answered, NFS_XID_MAX calls ago */
        pflow_count(pf, NFS_C_XID_SHED, 1);
    nfs_call_clear(c);
    c->used = true;
    c->xid = m->xid;
    c->version = m->vers;
    c->procedure = m->proc;
    return c;
}

struct nfs_call *nfs_call_take(struct nfs_state *st, uint32_t xid)
{
    for (uint32_t k = 0; k < NFS_XID_MAX; k++) { /* newest first */
        struct nfs_call *c = &st->calls[(st->call_next + NFS_XID_MAX - 1 - k) % NFS_XID_MAX];
        if (c->used && c->xid == xid)
            return c;
    }
    return NULL;
}

static struct nfs_name *name_find(const struct nfs_state *st, const uint8_t *h, uint32_t hl)
{
    for (uint32_t i = 0; i < st->nnames; i++) {
        const struct nfs_name *e = &st->names[i];
        if (e->handle.len == hl && hl && !memcmp(e->handle.p, h, hl))
            return (struct nfs_name *)e;
    }
    return NULL;
}

void nfs_name_put(struct pflow *pf, const uint8_t *h, uint32_t hl, const uint8_t *n,
                  uint32_t nl)
{
    struct nfs_state *st = pf->state;
    if (!hl)
        return;
    struct nfs_name *e = name_find(st, h, hl);
    if (!e) {
        e = &st->names[st->name_next];
        st->name_next = (st->name_next + 1) % NFS_NAMES_MAX;
        if (st->nnames < NFS_NAMES_MAX)
            st->nnames++;
        else
            pflow_count(pf, NFS_C_NAME_SHED, 1);
        if (!nfs_bytes_set(&e->handle, h, hl, NFS_HANDLE_MAX))
            return;
    }
    nfs_bytes_set(&e->name, n, nl, NFS_NAME_MAX);
}

const struct nfs_bytes *nfs_name_of(const struct nfs_state *st, const uint8_t *h, uint32_t hl)
{
    const struct nfs_name *e = name_find(st, h, hl);
    return e ? &e->name : NULL;
}

/* The handle's file transfer in direction dir: found, or made (its first call: the request
 * event runs with it current). NULL: out of memory. */
struct nfs_tx *nfs_file_begin(struct pflow *pf, const struct rpc_msg *m, int dir,
                              uint32_t version, uint32_t procedure, const uint8_t *h,
                              uint32_t hl, bool creds)
{
    struct nfs_state *st = pf->state;
    struct nfs_bytes key = {(uint8_t *)h, hl < NFS_HANDLE_MAX ? hl : NFS_HANDLE_MAX};
    struct nfs_tx *tx = nfs_file_tx(st, &key, dir);
    if (tx)
        return tx;
    struct rpc_msg mm = *m;
    mm.vers = version;
    mm.proc = procedure;
    if (!creds) /* Suricata gives a transfer the caller's credentials only when a v3 READ
                   call begins it */
        mm.cred_flavor = RPC_AUTH_NULL;
    if (!(tx = nfs_tx_new(pf, &mm)))
        return NULL;
    tx->file_tx = true;
    tx->file_dir = (uint8_t)dir;
    tx->first = true;
    nfs_bytes_set(&tx->handle, h, hl, NFS_HANDLE_MAX);
    const struct nfs_bytes *nm = nfs_name_of(st, h, hl);
    if (nm)
        nfs_bytes_set(&tx->name, nm->p, nm->len, NFS_NAME_MAX);
    tx->file = pfile_open(pf, dir, (uint32_t)(tx->id - 1), tx->name.p, tx->name.len);
    st->cur = tx;
    pflow_raise(pf, st->f, 0, NFS_EV_REQUEST);
    return tx;
}

/* A chunk of a file transfer (a WRITE call's data, a READ reply's, at offset off): its bytes
 * to the file layer; the last chunk (FILE_SYNC WRITE, a READ reply at EOF) completes the
 * transfer. A chunk not at the offset the previous one ended, or a first one past 0 (a chunk
 * lost: a gap on TCP, a datagram on UDP) leaves the file cut short at its end. */
void nfs_file_chunk(struct pflow *pf, const struct rpc_msg *m, int dir, uint32_t version,
                    uint32_t procedure, const uint8_t *h, uint32_t hl, uint64_t off,
                    const uint8_t *data, uint32_t len, bool last)
{
    struct nfs_state *st = pf->state;
    struct nfs_tx *tx = nfs_file_begin(pf, m, dir, version, procedure, h, hl, false);
    if (!tx)
        return;
    if (off != tx->next_off) /* (a transfer's file starts at 0: next_off's first value) */
        tx->hole = true;
    tx->next_off = off + len;
    tx->chunks++;
    pfile_data(pf, tx->file, data, len);
    if (last) {
        tx->last = true;
        tx->last_xid = m->xid;
        pfile_close(pf, tx->file, tx->hole); /* its hashes final for the rules */
        st->cur = tx;
        pflow_raise(pf, st->f, dir, dir == 0 ? NFS_EV_FILE_TS : NFS_EV_FILE_TC);
        nfs_tx_finish(pf, tx);
    }
}

/* COMMIT / CLOSE of a handle being written: its WRITE transfer is complete */
void nfs_file_close(struct pflow *pf, const uint8_t *h, uint32_t hl, uint32_t xid)
{
    struct nfs_state *st = pf->state;
    struct nfs_bytes key = {(uint8_t *)h, hl < NFS_HANDLE_MAX ? hl : NFS_HANDLE_MAX};
    struct nfs_tx *tx = nfs_file_tx(st, &key, 0);
    if (!tx)
        return;
    tx->chunks++;
    tx->last = true;
    tx->last_xid = xid;
    pfile_close(pf, tx->file, tx->hole);
    st->cur = tx;
    pflow_raise(pf, st->f, 0, NFS_EV_FILE_TS);
    nfs_tx_finish(pf, tx);
}
