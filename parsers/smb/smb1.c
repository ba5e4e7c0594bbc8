/* smb1.c — an SMB1 message (MS-CIFS): the 32-byte header, then a command's words and bytes;
 * AndX commands chain the next command at their AndXOffset (from the header's start, only
 * forward, at most 16 deep), a close may end a chain. Read here: negotiate (the dialect
 * strings, the index the server chose), session setup (NTLMSSP in the security blob), tree
 * connect, NT create (the file's name, its FID from the response), read / write (the data at
 * its DataOffset, so padding is skipped), close, and transactions on a named pipe
 * (TransactNmPipe: DCERPC). Each command is a request or response of its transaction
 * (tx.c). */
#include <string.h>

#include "smb_int.h"

#define HDR 32

struct smb1_cmd {
    const uint8_t *m;       /* the message (from its header) */
    uint32_t n;
    uint8_t cmd, wc;
    uint32_t w;             /* offset of the words */
    uint32_t b, bc;         /* offset and count of the bytes (bc cut to the message) */
    bool reply, unicode;
    uint16_t mid, tid;
    uint32_t status;
};

/* The dialect entries of a negotiate's bytes d[0..n) as Suricata cuts them (at each NUL:
 * 0x02 then the name); *bad when one is empty or has no name. */
static uint32_t dialect_entries(const uint8_t *d, uint32_t n, bool *bad)
{
    uint32_t k = 0, s = 0;
    *bad = false;
    for (uint32_t i = 0; i < n; i++)
        if (!d[i]) {
            *bad |= i - s < 2;
            k++, s = i + 1;
        }
    return k;
}

static void negotiate(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                      const struct smb1_cmd *c, struct smb_req *q)
{
    bool bad;
    if (!c->reply) {
        if (q)
            pbuf_add(&q->dialects, c->m + c->b, c->bc, 1024);
        dialect_entries(c->m + c->b, c->bc, &bad);
        if (bad)
            smb_tx_anomaly(pf, f, st, 0, SMB_AE_BAD_DIALECTS);
        return;
    }
    if (c->wc < 1 || !q)
        return;
    uint16_t idx = rd_le16(c->m + c->w);
    if (idx >= dialect_entries(q->dialects.p, q->dialects.len, &bad)) /* none it offered */
        pflow_anomaly(pf, f, 1, SMB_AE_BAD_DIALECTS);
    /* the dialect strings: 0x02 "name" NUL, in order */
    const uint8_t *p = q->dialects.p;
    uint32_t n = q->dialects.len, k = 0;
    for (uint32_t i = 0; p && i < n; k++) {
        if (p[i] != 2)
            break;
        uint32_t s = ++i;
        while (i < n && p[i])
            i++;
        if (k == idx) {
            uint32_t l = i - s < sizeof st->dialect1 - 1 ? i - s : sizeof st->dialect1 - 1;
            memcpy(st->dialect1, p + s, l);
            st->dialect1[l] = 0;
            break;
        }
        i++;
    }
    st->negotiated = true;
}

/* One NUL-ended string at *at (UTF-16LE aligned to 2 from the header when unicode) into out;
 * *at moves past it. */
static uint32_t native_str(const struct smb1_cmd *c, uint32_t *at, uint8_t *out)
{
    uint32_t end = c->b + c->bc, i = *at;
    if (c->unicode && (i & 1))
        i++;
    if (i >= end)
        return *at = end, 0;
    uint32_t len = smb_str(out, SMB_NATIVE_MAX, c->m + i, end - i, c->unicode);
    uint32_t step = c->unicode ? 2 : 1; /* past the string and its NUL, however long */
    while (i + step <= end && (c->unicode ? rd_le16(c->m + i) : c->m[i]))
        i += step;
    *at = i + step;
    return len;
}

/* Extended security only (word count 12 / 4): the security blob (NTLMSSP), then the native OS
 * and LAN manager strings. */
static void session_setup(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                          const struct smb1_cmd *c, struct smb_req *q)
{
    if (c->wc != (c->reply ? 4 : 12))
        return;
    uint32_t bl = rd_le16(c->m + c->w + (c->reply ? 6 : 14));
    if (bl > c->bc)
        bl = c->bc;
    uint32_t at = c->b + bl;
    struct smb_tx *tx = &st->tx;
    int k = c->reply;
    tx->native_os_len[k] = native_str(c, &at, tx->native_os[k]);
    tx->native_lm_len[k] = native_str(c, &at, tx->native_lm[k]);
    tx->native[k] = true;
    (void)q;
    if (c->reply)
        return;
    if (!smb_ntlmssp(tx, c->m + c->b, bl) && bl > 16 &&
        memmem(c->m + c->b, bl, "NTLMSSP\0\3", 9))
        pflow_anomaly(pf, f, 0, SMB_AE_NTLMSSP_REQ);
}

static void tree_connect(struct smb1_cmd *c, struct smb_req *q)
{
    if (c->wc != 4 || !q)
        return;
    uint32_t at = c->b + rd_le16(c->m + c->w + 6); /* past the password */
    if (c->unicode && (at & 1))
        at++;
    if (at < c->b + c->bc) {
        uint8_t path[SMB_PATH_MAX];
        uint32_t l = smb_path(path, c->m + at, c->b + c->bc - at, c->unicode);
        pbuf_add(&q->name, path, l, SMB_PATH_MAX);
        q->pipe = l >= 4 && !memcmp(path + l - 4, "IPC$", 4);
    }
}

static void nt_create(struct smb_state *st, const struct smb1_cmd *c, struct smb_req *q)
{
    if (c->wc != 24 || !q)
        return;
    q->disposition = rd_le32(c->m + c->w + 35);
    uint32_t nl = rd_le16(c->m + c->w + 5);
    uint32_t at = c->b;
    if (c->unicode && (at & 1))
        at++;
    if (at > c->b + c->bc)
        return;
    uint32_t have = c->b + c->bc - at;
    uint8_t name[SMB_PATH_MAX];
    uint32_t l = smb_path(name, c->m + at, nl < have ? nl : have, c->unicode);
    pbuf_add(&q->name, name, l, SMB_PATH_MAX);
    const struct smb_tree *t = smb_tree_find(st, c->tid);
    q->pipe = t ? t->pipe : false;
    q->tree_unknown = !t;
}

/* The data a read response or write request carries: at DataOffset (from the header). */
static const uint8_t *data_at(const struct smb1_cmd *c, uint32_t off, uint32_t len,
                              uint32_t *got)
{
    if (off < HDR || off >= c->n)
        return NULL;
    *got = len < c->n - off ? len : c->n - off;
    return c->m + off;
}

/* Bytes for a named pipe in a transaction: a TransactNmPipe request's data (setup 0x0026),
 * its response's data. */
static void trans(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                  const struct smb1_cmd *c, int dir, struct smb_req *q)
{
    uint32_t cnt_at = c->reply ? 12 : 22, off_at = c->reply ? 14 : 24;
    if (c->wc < (c->reply ? 10 : 14) || c->w + off_at + 2 > c->n)
        return;
    if (!c->reply) {
        if (c->wc < 16 || rd_le16(c->m + c->w + 28) != 0x26)
            return;
        if (q) {
            q->pipe = true;
            memcpy(q->fid, c->m + c->w + 30, 2);
            q->fid_len = 2;
        }
    } else if (!q || !q->pipe) {
        return;
    }
    uint32_t got = 0;
    const uint8_t *d = data_at(c, rd_le16(c->m + c->w + off_at),
                               rd_le16(c->m + c->w + cnt_at), &got);
    if (d)
        smb_pipe_data(pf, f, st, q && q->fid_len ? smb_file_find(st, q->fid, 2) : NULL, dir,
                      d, got);
}

/* One command of the chain; returns the next command's offset (0: none). */
static uint32_t command(struct pflow *pf, struct mon_flow *f, int dir, struct smb_state *st,
                        struct smb1_cmd *c)
{
    struct smb_req *q = NULL;
    if (!c->reply) {
        q = smb_req_add(pf, st, 1, c->mid, c->cmd);
        if (q)
            q->tree = c->tid, q->session = rd_le16(c->m + 28);
    } else {
        q = smb_req_find(st, 1, c->mid, c->cmd);
    }
    bool andx = c->cmd == SMB1_SESSION_SETUP || c->cmd == SMB1_TREE_CONNECT ||
                c->cmd == SMB1_READ_ANDX || c->cmd == SMB1_WRITE_ANDX ||
                c->cmd == SMB1_NT_CREATE || c->cmd == SMB1_LOGOFF || c->cmd == 0x24;
    const uint8_t *w = c->m + c->w;
    uint32_t got = 0;
    const uint8_t *d;
    switch (c->cmd) {
    case SMB1_NEGOTIATE:
        negotiate(pf, f, st, c, q);
        break;
    case SMB1_TREE_CONNECT:
        if (!c->reply)
            tree_connect(c, q);
        break;
    case SMB1_NT_CREATE:
        if (!c->reply)
            nt_create(st, c, q);
        else if (q && c->status == 0 && c->wc >= 34) {
            smb_file_open(pf, st, w + 5, 2, q);
            memcpy(q->fid, w + 5, 2);
            q->fid_len = 2;
        }
        break;
    case SMB1_WRITE_ANDX:
        if (!c->reply && (c->wc == 12 || c->wc == 14)) {
            uint64_t off = rd_le32(w + 6);
            if (c->wc == 14)
                off |= (uint64_t)rd_le32(w + 24) << 32;
            uint32_t len = rd_le16(w + 20) | (uint32_t)rd_le16(w + 18) << 16;
            if (q)
                memcpy(q->fid, w + 4, 2), q->fid_len = 2;
            struct smb_file *fl = smb_file_find(st, w + 4, 2);
            if (fl && (d = data_at(c, rd_le16(w + 22), len, &got)))
                smb_file_data(pf, f, st, fl, 0, off, d, got);
        }
        break;
    case SMB1_READ_ANDX:
        if (!c->reply && (c->wc == 10 || c->wc == 12) && q) {
            memcpy(q->fid, w + 4, 2);
            q->fid_len = 2;
            q->off = rd_le32(w + 6);
            if (c->wc == 12)
                q->off |= (uint64_t)rd_le32(w + 20) << 32;
        } else if (c->reply && c->wc >= 12 && q && q->fid_len) {
            struct smb_file *fl = smb_file_find(st, q->fid, 2);
            uint32_t len = rd_le16(w + 10) | (uint32_t)(rd_le16(w + 14) & 0xff) << 16;
            if (fl && (d = data_at(c, rd_le16(w + 12), len, &got)))
                smb_file_data(pf, f, st, fl, 1, q->off, d, got);
        }
        break;
    case SMB1_CLOSE:
        if (!c->reply && c->wc >= 3) {
            if (q)
                memcpy(q->fid, w, 2), q->fid_len = 2;
            struct smb_file *fl = smb_file_find(st, w, 2);
            if (fl)
                smb_file_close(pf, f, st, fl, false);
        }
        break;
    case SMB1_TRANS:
        trans(pf, f, st, c, dir, q);
        break;
    default:
        break;
    }
    if (!c->reply) {
        smb_tx_begin(pf, f, st, 1, c->cmd, c->mid, q);
        st->tx.tree_id = c->tid, st->tx.has_tree = true;
        if (c->cmd == SMB1_SESSION_SETUP)
            session_setup(pf, f, st, c, q);
        pflow_raise(pf, f, 0, SMB_EV_REQUEST);
    } else {
        if (c->cmd == SMB1_TREE_CONNECT && q && c->status == 0) {
            q->pipe = c->bc >= 3 && !memcmp(c->m + c->b, "IPC", 3);
            smb_tree_set(st, c->tid, q->pipe);
            smb_tree_connected(pf, f, st, 1, q, q->pipe);
        }
        if (c->cmd == SMB1_NEGOTIATE && !q) { /* its request not seen (midstream): no
                                                  transaction, as Suricata */
            st->negotiated = true;
            goto next;
        }
        struct smb_tx *tx = smb_tx_answer(st, 1, c->cmd, c->status, q);
        tx->dos_status = !(rd_le16(c->m + 10) & 0x4000); /* flags2: NT status codes */
        if (c->cmd == SMB1_SESSION_SETUP)
            session_setup(pf, f, st, c, q);
        if (!tx->has_tree)
            tx->tree_id = c->tid, tx->has_tree = true;
        tx->session_id = rd_le16(c->m + 28); /* the UID */
        smb_tx_finish(pf, f, st);
        if (c->cmd == SMB1_NEGOTIATE)
            st->negotiated = true;
        smb_req_drop(q);
    }
next:
    if (!andx || c->wc < 2)
        return 0;
    uint8_t next = w[0];
    uint32_t off = rd_le16(w + 2);
    if (next == 0xff || off <= c->w || off >= c->n)
        return 0;
    c->cmd = next;
    return off;
}

void smb1_message(struct pflow *pf, struct mon_flow *f, int dir, struct smb_state *st,
                  const uint8_t *m, uint32_t n)
{
    if (n < HDR + 1)
        return;
    struct smb1_cmd c = {.m = m, .n = n, .cmd = m[4], .reply = m[9] & 0x80,
                         .unicode = rd_le16(m + 10) & 0x8000, .tid = rd_le16(m + 24),
                         .mid = rd_le16(m + 30), .status = rd_le32(m + 5)};
    if (c.reply != (dir == 1)) {
        pflow_anomaly(pf, f, dir, dir ? SMB_AE_REQ_TO_CLIENT : SMB_AE_RESP_TO_SERVER);
        return;
    }
    /* its frames: the message, its header, the rest */
    st->pdu = m, st->pdu_len = n, st->hdr_len = HDR, st->pdu_ver = 1;
    pflow_raise(pf, f, dir, dir == 0 ? SMB_EV_PDU_TS : SMB_EV_PDU_TC);
    st->pdu = NULL;
    uint32_t at = HDR;
    for (int depth = 0; depth < 16 && at; depth++) {
        if (at + 1 > n)
            break;
        c.wc = m[at];
        c.w = at + 1;
        uint32_t bc_at = c.w + 2u * c.wc;
        if (bc_at + 2 > n) {
            pflow_anomaly(pf, f, dir, SMB_AE_MALFORMED);
            break;
        }
        c.b = bc_at + 2;
        c.bc = rd_le16(m + bc_at);
        if (c.b + c.bc > n)
            c.bc = n - c.b;
        at = command(pf, f, dir, st, &c);
    }
}
