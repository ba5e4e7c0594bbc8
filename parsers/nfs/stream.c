/* stream.c — NFS over UDP (one RPC message per datagram) and TCP (record marking, rpc.h):
 * each message is a call (to the server) or a reply (to the client) of NFS version 2, 3 or 4,
 * handed to nfs3.c / nfs4.c with the call it answers (matched by xid). Transactions still
 * open when the flow ends are reported then. A gap on TCP: resync on the next record. */
#include <stdlib.h>

#include "nfs_int.h"

struct nfs_state *nfs_state_of(struct pflow *pf, int dir)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct nfs_state))))
        pf->dead[dir] = true;
    return pf->state;
}

void nfs_malformed(struct pflow *pf, int dir)
{
    struct nfs_state *st = pf->state;
    pflow_count(pf, NFS_C_MALFORMED, 1);
    pflow_anomaly(pf, st->f, dir, NFS_AE_MALFORMED);
}

static void message(struct pflow *pf, int dir, const uint8_t *d, size_t n)
{
    struct nfs_state *st = pf->state;
    struct rpc_msg m;
    if (!rpc_decode(&m, d, n)) {
        nfs_malformed(pf, dir);
        return;
    }
    if (m.type == RPC_CALL) {
        if (m.prog != NFS_PROG)
            return; /* another program on the same port (NLM, ACL …) */
        if (m.vers < 2 || m.vers > 4) {
            pflow_anomaly(pf, st->f, dir, NFS_AE_NON_EXISTING_VERSION);
            return;
        }
        if (!st->version)
            st->version = m.vers;
        if (m.vers == 4)
            nfs4_call(pf, &m);
        else
            nfs3_call(pf, &m);
        return;
    }
    struct nfs_call *c = nfs_call_take(st, m.xid);
    if (!c) /* a reply to a call not seen (or shed) */
        return;
    if (c->version == 4)
        nfs4_reply(pf, &m, c);
    else
        nfs3_reply(pf, &m, c);
    nfs_call_clear(c);
}

void nfs_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                     size_t n)
{
    struct nfs_state *st = nfs_state_of(pf, dir);
    if (!st)
        return;
    st->f = f;
    message(pf, dir, d, n);
}

struct rec_arg {
    struct pflow *pf;
    int dir;
};

static void on_record(void *arg, const uint8_t *d, size_t n)
{
    struct rec_arg *a = arg;
    message(a->pf, a->dir, d, n);
}

void nfs_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct nfs_state *st = nfs_state_of(pf, dir);
    if (!st)
        return;
    st->f = f;
    struct rec_arg a = {pf, dir};
    uint64_t skipped = 0;
    rpc_rec_feed(&st->rec[dir], d, n, NFS_RECORD_MAX, on_record, &a, &skipped);
    if (skipped)
        pflow_count(pf, NFS_C_SKIPPED, skipped);
}

/* Bytes lost on TCP: the record being read goes, parsing resumes at the next record that
 * starts like a call to NFS (to the server) or a reply (to the client), as Suricata's parser
 * catches up after a gap. A transfer whose chunk was lost goes on with the next one. */
void nfs_gap(struct pflow *pf, struct mon_flow *f, int dir)
{
    (void)f;
    struct nfs_state *st = pf->state;
    if (!st)
        return;
    rpc_rec_gap(&st->rec[dir], dir == 0, NFS_PROG);
    pflow_count(pf, NFS_C_GAPS, 1);
}

void nfs_end(struct pflow *pf, struct mon_flow *f)
{
    struct nfs_state *st = pf->state;
    if (!st)
        return;
    st->f = f;
    while (st->ntx) /* what never completed is reported as it is */
        nfs_tx_finish(pf, st->tx[0]);
}

void nfs_free(void *state)
{
    struct nfs_state *st = state;
    if (!st)
        return;
    rpc_rec_free(&st->rec[0]);
    rpc_rec_free(&st->rec[1]);
    for (uint32_t i = 0; i < st->ntx; i++)
        nfs_tx_free(st->tx[i]);
    for (uint32_t i = 0; i < NFS_XID_MAX; i++)
        nfs_call_clear(&st->calls[i]);
    for (uint32_t i = 0; i < NFS_NAMES_MAX; i++) {
        nfs_bytes_free(&st->names[i].handle);
        nfs_bytes_free(&st->names[i].name);
    }
    free(st);
}

uint32_t nfs_tx_id(const struct pflow *pf)
{
    const struct nfs_state *st = pf->state;
    return st && st->cur ? (uint32_t)(st->cur->id - 1) : 0;
}
