/* smb2.c — an SMB2/3 message (MS-SMB2): 64-byte headers chained by NextCommand (a
 * compound, at most 64). Read here: negotiate (the dialect the server chose; an SMB2 answer
 * to an SMB1 negotiate is that negotiate's response), session setup (NTLMSSP in the security
 * buffer), tree connect (the path; the share type from the response), create (the file's
 * name; its FileId from the response), read / write (the data at its DataOffset), close, and
 * ioctl FSCTL_PIPE_TRANSCEIVE on a named pipe (DCERPC). An interim STATUS_PENDING response
 * is not the final one. Offsets in a command are from its own header. */
#include <string.h>

#include "smb_int.h"

#define HDR 64
#define STATUS_PENDING 0x00000103u
#define STATUS_BUFFER_OVERFLOW 0x80000005u
#define FSCTL_PIPE_TRANSCEIVE 0x0011c017u

/* bytes [off, off+len) of the command m[0..n), cut to it; NULL when off is outside */
static const uint8_t *span(const uint8_t *m, uint32_t n, uint32_t off, uint32_t len,
                           uint32_t *got)
{
    if (off < HDR || off >= n)
        return NULL;
    *got = len < n - off ? len : n - off;
    return m + off;
}

/* A read or write of len bytes asks more than negotiated or than Suricata's default limit */
static bool too_large(uint32_t negotiated, uint32_t len)
{
    return (negotiated && len > negotiated) || len > SMB_RW_SIZE_MAX;
}

static void request(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                    const uint8_t *m, uint32_t n, uint16_t cmd, uint64_t id, uint32_t tree)
{
    struct smb_req *q = smb_req_add(pf, st, 2, id, cmd);
    if (q)
        q->tree = tree, q->session = rd_le64(m + 40);
    const uint8_t *b = m + HDR, *d;
    uint32_t got = 0;
    switch (cmd) {
    case SMB2_TREE_CONNECT:
        if (q && n >= HDR + 8 && (d = span(m, n, rd_le16(b + 4), rd_le16(b + 6), &got))) {
            uint8_t path[SMB_PATH_MAX];
            uint32_t l = smb_path(path, d, got, true);
            pbuf_add(&q->name, path, l, SMB_PATH_MAX);
        }
        break;
    case SMB2_CREATE:
        if (q && n >= HDR + 48) {
            q->disposition = rd_le32(b + 36);
            const struct smb_tree *t = smb_tree_find(st, tree);
            q->pipe = t && t->pipe;
            q->tree_unknown = !t;
            if ((d = span(m, n, rd_le16(b + 44), rd_le16(b + 46), &got))) {
                uint8_t name[SMB_PATH_MAX];
                uint32_t l = smb_path(name, d, got, true);
                pbuf_add(&q->name, name, l, SMB_PATH_MAX);
            }
        }
        break;
    case SMB2_CLOSE:
        if (n >= HDR + 24) {
            if (q)
                memcpy(q->fid, b + 8, 16), q->fid_len = 16;
            struct smb_file *fl = smb_file_find(st, b + 8, 16);
            if (fl)
                smb_file_close(pf, f, st, fl, false);
        }
        break;
    case SMB2_READ:
        if (n >= HDR + 32 && too_large(st->max_read, rd_le32(b + 4))) {
            smb_tx_anomaly(pf, f, st, 0, SMB_AE_READ_REQ_LARGE); /* its answer is not read */
        } else if (q && n >= HDR + 32) {
            q->off = rd_le64(b + 8);
            memcpy(q->fid, b + 16, 16);
            q->fid_len = 16;
        }
        break;
    case SMB2_WRITE:
        if (n >= HDR + 32 && too_large(st->max_write, rd_le32(b + 4))) {
            smb_tx_anomaly(pf, f, st, 0, SMB_AE_WRITE_REQ_LARGE); /* its data is not read */
        } else if (n >= HDR + 32) {
            if (q)
                memcpy(q->fid, b + 16, 16), q->fid_len = 16;
            struct smb_file *fl = smb_file_find(st, b + 16, 16);
            if (fl && (d = span(m, n, rd_le16(b + 2), rd_le32(b + 4), &got)))
                smb_file_data(pf, f, st, fl, 0, rd_le64(b + 8), d, got);
        }
        break;
    case SMB2_IOCTL:
        if (n >= HDR + 32 && rd_le32(b + 4) == FSCTL_PIPE_TRANSCEIVE) {
            if (q)
                memcpy(q->fid, b + 8, 16), q->fid_len = 16, q->pipe = true;
            if ((d = span(m, n, rd_le32(b + 24), rd_le32(b + 28), &got)))
                smb_pipe_data(pf, f, st, smb_file_find(st, b + 8, 16), 0, d, got);
        }
        break;
    default:
        break;
    }
    smb_tx_begin(pf, f, st, 2, cmd, id, q);
    if (cmd == SMB2_SESSION_SETUP && n >= HDR + 16 &&
        (d = span(m, n, rd_le16(b + 12), rd_le16(b + 14), &got)))
        if (!smb_ntlmssp(&st->tx, d, got) && memmem(d, got, "NTLMSSP\0\3", 9))
            pflow_anomaly(pf, f, 0, SMB_AE_NTLMSSP_REQ);
    st->tx.session_id = rd_le64(m + 40);
    st->tx.tree_id = tree;
    st->tx.has_tree = true;
    pflow_raise(pf, f, 0, SMB_EV_REQUEST);
}

static void response(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                     const uint8_t *m, uint32_t n, uint16_t cmd, uint64_t id, uint32_t tree,
                     uint32_t status)
{
    struct smb_req *q = smb_req_find(st, 2, id, cmd);
    if (!q && cmd == SMB2_NEGOTIATE) { /* the answer to an SMB1 negotiate */
        for (uint32_t i = 0; st->pend && i < SMB_PENDING_MAX && !q; i++)
            if (st->pend[i].ver == 1 && st->pend[i].cmd == SMB1_NEGOTIATE)
                q = &st->pend[i];
    }
    const uint8_t *b = m + HDR, *d;
    uint32_t got = 0;
    bool ok = status == 0;
    switch (cmd) {
    case SMB2_NEGOTIATE:
        if (n >= HDR + 6 && ok) {
            st->dialect = rd_le16(b + 4);
            st->negotiated = true;
        }
        if (n >= HDR + 40 && ok) { /* MaxReadSize, MaxWriteSize */
            st->max_read = rd_le32(b + 32), st->max_write = rd_le32(b + 36);
            if (st->max_read > SMB_RW_SIZE_MAX)
                pflow_anomaly(pf, f, 1, SMB_AE_NEGO_READ_LARGE);
            if (st->max_write > SMB_RW_SIZE_MAX)
                pflow_anomaly(pf, f, 1, SMB_AE_NEGO_WRITE_LARGE);
        }
        break;
    case SMB2_TREE_CONNECT:
        if (q && ok && n >= HDR + 4) {
            q->pipe = b[2] == 2;
            smb_tree_set(st, tree, q->pipe);
            smb_tree_connected(pf, f, st, 2, q, q->pipe);
        }
        break;
    case SMB2_CREATE:
        if (q && ok && n >= HDR + 80) {
            smb_file_open(pf, st, b + 64, 16, q);
            memcpy(q->fid, b + 64, 16);
            q->fid_len = 16;
        }
        break;
    case SMB2_READ:
        if ((ok || status == STATUS_BUFFER_OVERFLOW) && n >= HDR + 8 &&
            too_large(st->max_read, rd_le32(b + 4))) {
            pflow_anomaly(pf, f, 1, SMB_AE_READ_RESP_LARGE); /* its data is not read */
        } else if (q && q->fid_len == 16 && (ok || status == STATUS_BUFFER_OVERFLOW) &&
                   n >= HDR + 8) {
            struct smb_file *fl = smb_file_find(st, q->fid, 16);
            if (fl && (d = span(m, n, b[2], rd_le32(b + 4), &got)))
                smb_file_data(pf, f, st, fl, 1, q->off, d, got);
        }
        break;
    case SMB2_IOCTL:
        if (q && q->pipe && (ok || status == STATUS_BUFFER_OVERFLOW) && n >= HDR + 40 &&
            (d = span(m, n, rd_le32(b + 32), rd_le32(b + 36), &got)))
            smb_pipe_data(pf, f, st, smb_file_find(st, q->fid, 16), 1, d, got);
        break;
    default:
        break;
    }
    if (cmd == SMB2_NEGOTIATE && !q) /* its request not seen (midstream): no transaction */
        return;
    struct smb_tx *tx = smb_tx_answer(st, 2, cmd, status, q);
    if (!tx->session_id)
        tx->session_id = rd_le64(m + 40);
    if (cmd == SMB2_TREE_CONNECT || !tx->has_tree)
        tx->tree_id = tree, tx->has_tree = true;
    smb_tx_finish(pf, f, st);
    smb_req_drop(q);
}

void smb2_message(struct pflow *pf, struct mon_flow *f, int dir, struct smb_state *st,
                  const uint8_t *m, uint32_t n)
{
    for (uint32_t guard = 0; n >= HDR && guard < 64; guard++) {
        if (memcmp(m, "\xfeSMB", 4))
            return;
        uint32_t next = rd_le32(m + 20);
        uint32_t len = next && next >= HDR && next < n ? next : n;
        uint32_t flags = rd_le32(m + 16), status = rd_le32(m + 8);
        bool reply = flags & 1, async = flags & 2;
        uint16_t cmd = rd_le16(m + 12);
        uint64_t id = rd_le64(m + 24);
        uint32_t tree = async ? 0 : rd_le32(m + 36);
        st->pdu = m, st->pdu_len = len, st->hdr_len = HDR, st->pdu_ver = 2;
        pflow_raise(pf, f, dir, dir == 0 ? SMB_EV_PDU_TS : SMB_EV_PDU_TC); /* its frames */
        st->pdu = NULL;
        if (reply != (dir == 1))
            pflow_anomaly(pf, f, dir, dir ? SMB_AE_REQ_TO_CLIENT : SMB_AE_RESP_TO_SERVER);
        else if (!reply)
            request(pf, f, st, m, len, cmd, id, tree);
        else if (!(async && status == STATUS_PENDING)) /* an interim answer: wait */
            response(pf, f, st, m, len, cmd, id, tree, status);
        if (len == n)
            return;
        m += len, n -= len;
    }
}
