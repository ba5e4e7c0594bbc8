/* tx.c — SMB transactions as Suricata counts them: a request (SMB1 MID / SMB2 MessageId)
 * and its final response (an SMB2 STATUS_PENDING interim answer is not one). A request waits
 * in a bounded table (SMB_PENDING_MAX, more counted in smb_pending_shed) with what its
 * response needs (the file a read names, a tree connect's path, a create's name). Each request
 * runs smb_request (dir 0), each final response smb_response (dir 1) and reports the
 * transaction (the EVE smb record). Also the trees connected (id → share, pipe or not). */
#include <stdlib.h>
#include <string.h>

#include "smb_int.h"

struct smb_req *smb_req_add(struct pflow *pf, struct smb_state *st, uint8_t ver, uint64_t id,
                            uint16_t cmd)
{
    if (!st->pend && !(st->pend = calloc(SMB_PENDING_MAX, sizeof *st->pend))) {
        pflow_count(pf, SMB_C_PENDING_SHED, 1); /* (out of memory) */
        return NULL;
    }
    struct smb_req *q = smb_req_find(st, ver, id, cmd);
    if (!q)
        for (uint32_t i = 0; i < SMB_PENDING_MAX && !q; i++)
            if (!st->pend[i].ver)
                q = &st->pend[i];
    if (!q) {
        pflow_count(pf, SMB_C_PENDING_SHED, 1);
        return NULL;
    }
    struct pbuf name = q->name, dialects = q->dialects; /* (their memory is reused) */
    memset(q, 0, sizeof *q);
    q->name = name;
    q->dialects = dialects;
    pbuf_reset(&q->name);
    pbuf_reset(&q->dialects);
    q->ver = ver;
    q->id = id;
    q->cmd = cmd;
    return q;
}

struct smb_req *smb_req_find(struct smb_state *st, uint8_t ver, uint64_t id, uint16_t cmd)
{
    for (uint32_t i = 0; st->pend && i < SMB_PENDING_MAX; i++)
        if (st->pend[i].ver == ver && st->pend[i].id == id && st->pend[i].cmd == cmd)
            return &st->pend[i];
    return NULL;
}

void smb_req_drop(struct smb_req *q)
{
    if (q)
        q->ver = 0;
}

static void tx_name(struct smb_tx *tx, const uint8_t *p, uint32_t n)
{
    if (n > SMB_PATH_MAX)
        n = SMB_PATH_MAX;
    if (n) /* (an empty name may have no bytes at all) */
        memcpy(tx->name, p, n);
    tx->name_len = n;
}

/* What a request's record says of its file or tree. */
static void tx_fill(struct smb_state *st, struct smb_tx *tx, const struct smb_req *q)
{
    if (!q)
        return;
    tx->tree_id = q->tree;
    if (q->cmd == (q->ver == 1 ? SMB1_TREE_CONNECT : SMB2_TREE_CONNECT)) {
        tx->is_tree = true;
        tx->is_pipe = q->pipe;
        tx_name(tx, q->name.p, q->name.len);
        return;
    }
    if (q->ver == 1 ? q->cmd == SMB1_NT_CREATE : q->cmd == SMB2_CREATE) {
        tx->is_file = true;
        tx->has_disposition = true;
        tx->disposition = q->disposition;
        tx_name(tx, q->name.p, q->name.len);
        return;
    }
    if (q->fid_len) {
        const struct smb_file *fl = smb_file_find(st, q->fid, q->fid_len);
        tx->has_fid = true;
        memcpy(tx->fid, q->fid, q->fid_len);
        tx->fid_len = q->fid_len;
        if (fl) {
            tx->is_file = true;
            tx_name(tx, fl->name.p, fl->name.len);
        }
    }
}

void smb_tx_begin(struct pflow *pf, struct mon_flow *f, struct smb_state *st, uint8_t ver,
                  uint16_t cmd, uint64_t msg_id, struct smb_req *q)
{
    struct smb_tx *tx = &st->tx;
    if (tx->has_req && !tx->has_resp && !tx->pending) {
        /* the one in force will get no answer we could match (the table was full): its
         * record now */
        pflow_count(pf, SMB_C_TXS, 1);
        pflow_tx_done(pf, f);
    }
    memset(tx, 0, sizeof *tx);
    tx->id = ++st->ntx;
    tx->msg_id = msg_id;
    tx->pending = q != NULL;
    if (q)
        q->tx_id = tx->id;
    tx->ver = ver;
    tx->cmd = cmd;
    tx->has_req = true;
    tx->events = st->ev_pending;
    tx->dcerpc = st->dce_pending;
    st->ev_pending = 0;
    st->dce_pending = false;
    tx_fill(st, tx, q);
}

void smb_tx_anomaly(struct pflow *pf, struct mon_flow *f, struct smb_state *st, int dir,
                    unsigned e)
{
    pflow_anomaly(pf, f, dir, e);
    if (dir == 0)
        st->ev_pending |= 1u << e;
}

struct smb_tx *smb_tx_answer(struct smb_state *st, uint8_t ver, uint16_t cmd, uint32_t status,
                             const struct smb_req *q)
{
    struct smb_tx *tx = &st->tx;
    /* the response of the transaction in force keeps its request's details; another's
     * (pipelined requests, answers out of order) is rebuilt from its waiting request */
    bool same = tx->has_req && !tx->has_resp && q && tx->ver == q->ver && tx->cmd == q->cmd &&
                tx->msg_id == q->id;
    if (!same) {
        memset(tx, 0, sizeof *tx);
        tx->id = q && q->tx_id ? q->tx_id : ++st->ntx;
        tx->msg_id = q ? q->id : 0;
        tx->session_id = q ? q->session : 0;
        tx->ver = q ? q->ver : ver;
        tx->cmd = q ? q->cmd : cmd;
        tx->has_req = q != NULL;
        tx_fill(st, tx, q);
    }
    if (q && q->fid_len && !tx->has_fid) { /* (a create's file id comes with its response) */
        tx->has_fid = true;
        memcpy(tx->fid, q->fid, q->fid_len);
        tx->fid_len = q->fid_len;
    }
    if (tx->is_tree && q) /* (the answer says whether it is a pipe) */
        tx->is_pipe = q->pipe;
    tx->has_resp = true;
    tx->status = status;
    tx->dcerpc |= st->dce_pending;
    st->dce_pending = false;
    return tx;
}

/* A read or write of a file (not a pipe) whose direction's record is already out: Suricata
 * keeps one transaction per file and direction, so its chunks make no records of their own. */
static bool file_chunk_seen(struct smb_state *st, const struct smb_tx *tx)
{
    bool wr = tx->ver == 1 ? tx->cmd == SMB1_WRITE_ANDX : tx->cmd == SMB2_WRITE;
    bool rd = tx->ver == 1 ? tx->cmd == SMB1_READ_ANDX : tx->cmd == SMB2_READ;
    struct smb_file *fl = (wr || rd) && tx->has_fid ? smb_file_find(st, tx->fid, tx->fid_len)
                                                    : NULL;
    if (!fl || fl->pipe)
        return false;
    bool seen = fl->reported[rd];
    fl->reported[rd] = true;
    return seen;
}

void smb_tx_finish(struct pflow *pf, struct mon_flow *f, struct smb_state *st)
{
    for (unsigned e = 0; e < 32; e++)
        if (st->tx.events & 1u << e)
            pflow_anomaly(pf, f, 1, e);
    pflow_raise(pf, f, 1, SMB_EV_RESPONSE);
    st->tx.pending = false;
    if (file_chunk_seen(st, &st->tx))
        return;
    pflow_count(pf, SMB_C_TXS, 1);
    pflow_tx_done(pf, f);
}

bool smb_tx_flush(struct pflow *pf, struct mon_flow *f, struct smb_state *st)
{
    struct smb_tx *tx = &st->tx;
    bool any = false;
    if (tx->has_req && !tx->has_resp && !tx->pending) { /* (not in the table: its record) */
        pflow_count(pf, SMB_C_TXS, 1);
        pflow_tx_done(pf, f);
        any = true;
    }
    for (uint32_t i = 0; st->pend && i < SMB_PENDING_MAX; i++) {
        struct smb_req *q = &st->pend[i];
        if (!q->ver)
            continue;
        memset(tx, 0, sizeof *tx);
        tx->id = q->tx_id ? q->tx_id : ++st->ntx;
        tx->msg_id = q->id;
        tx->session_id = q->session;
        tx->ver = q->ver;
        tx->cmd = q->cmd;
        tx->has_req = true;
        tx_fill(st, tx, q);
        smb_req_drop(q);
        if (file_chunk_seen(st, tx))
            continue;
        pflow_count(pf, SMB_C_TXS, 1);
        pflow_tx_done(pf, f);
        any = true;
    }
    return any;
}

void smb_tx_file_end(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                     const struct smb_file *fl, int dir)
{
    struct smb_tx *tx = &st->tx;
    uint8_t ver = fl->fid_len == 2 ? 1 : 2; /* (SMB1 FIDs are 2 bytes, SMB2 GUIDs 16) */
    memset(tx, 0, sizeof *tx);
    tx->id = ++st->ntx;
    tx->ver = ver;
    tx->cmd = ver == 1 ? (dir ? SMB1_READ_ANDX : SMB1_WRITE_ANDX)
                       : (dir ? SMB2_READ : SMB2_WRITE);
    tx->has_req = true;
    tx->is_file = true;
    tx_name(tx, fl->name.p, fl->name.len);
    tx->has_fid = true;
    memcpy(tx->fid, fl->fid, fl->fid_len);
    tx->fid_len = fl->fid_len;
    pflow_count(pf, SMB_C_TXS, 1);
    pflow_tx_done(pf, f);
}

void smb_tree_set(struct smb_state *st, uint32_t id, bool pipe)
{
    struct smb_tree *t = (struct smb_tree *)smb_tree_find(st, id);
    for (uint32_t i = 0; i < SMB_TREES_MAX && !t; i++)
        if (!st->tree[i].used)
            t = &st->tree[i];
    if (!t) /* all taken: the oldest slot again */
        t = &st->tree[st->tree_next++ % SMB_TREES_MAX];
    t->used = true;
    t->id = id;
    t->pipe = pipe;
}

const struct smb_tree *smb_tree_find(const struct smb_state *st, uint32_t id)
{
    for (uint32_t i = 0; i < SMB_TREES_MAX; i++)
        if (st->tree[i].used && st->tree[i].id == id)
            return &st->tree[i];
    return NULL;
}

void smb_tree_connected(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                        uint8_t ver, const struct smb_req *q, bool pipe)
{
    uint32_t n = q->name.len < SMB_PATH_MAX ? q->name.len : SMB_PATH_MAX;
    if (n)
        memcpy(st->share, q->name.p, n);
    st->share_len = n;
    st->is_pipe = pipe;
    st->has_tree = true;
    pflow_count(pf, SMB_C_TREES, 1);
    /* SMB1's tree connect is Suricata's transaction from its request on: its share is
     * inspected both ways; SMB2's is made when the response comes (to the client only) */
    if (ver == 1)
        pflow_raise(pf, f, 0, SMB_EV_TREE_TS);
    pflow_raise(pf, f, 1, SMB_EV_TREE);
}
