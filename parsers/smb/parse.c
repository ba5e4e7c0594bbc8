/* parse.c — SMB over a stream: NetBIOS session messages (a 4-byte header: type, then a 24-bit
 * length; types other than 0, the session service's requests and keep-alives, are skipped),
 * of which the first SMB_HEAD_KEEP bytes are kept and the rest skipped unread. In them, an SMB1
 * header (32 bytes) or a chain of SMB2 headers (64 bytes, NextCommand). Only the tree connect
 * is read: the request's path waits (by SMB2 MessageId / SMB1 MID) for its response; a
 * successful one makes it the share in force, a named pipe when the server says so (SMB2
 * ShareType 2, SMB1 service "IPC"), and runs smb_tree_connect with smb.share or
 * smb.named_pipe current. */
#include <stdlib.h>
#include <string.h>

#include "smb_int.h"

uint32_t smb_path(uint8_t *out, const uint8_t *p, uint32_t n, bool unicode)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n && k < SMB_PATH_MAX; i += unicode ? 2 : 1) {
        uint32_t c = unicode ? (i + 1 < n ? rd_le16(p + i) : 0) : p[i];
        if (!c)
            break;
        out[k++] = c < 0x80 ? (uint8_t)c : '?';
    }
    return k;
}

static void pending_add(struct pflow *pf, struct smb_state *st, uint8_t ver, uint64_t id,
                        const uint8_t *p, uint32_t n, bool unicode)
{
    if (st->npend == SMB_PENDING_MAX) {
        pflow_count(pf, SMB_C_PENDING_SHED, 1);
        return;
    }
    uint8_t path[SMB_PATH_MAX];
    uint32_t len = smb_path(path, p, n, unicode);
    struct smb_pending *q = &st->pend[st->npend];
    pbuf_reset(&q->path);
    if (pbuf_add(&q->path, path, len, SMB_PATH_MAX) != len) {
        pflow_count(pf, SMB_C_PENDING_SHED, 1); /* out of memory */
        return;
    }
    q->ver = ver;
    q->id = id;
    st->npend++;
}

/* The response to tree connect id: its request's path becomes the share in force. */
static void answered(struct pflow *pf, struct mon_flow *f, struct smb_state *st, uint8_t ver,
                     uint64_t id, bool ok, bool pipe)
{
    for (uint32_t i = 0; i < st->npend; i++) {
        struct smb_pending *q = &st->pend[i];
        if (q->ver != ver || q->id != id)
            continue;
        if (ok) {
            if (q->path.len) /* an empty path has no copy (p NULL) */
                memcpy(st->share, q->path.p, q->path.len);
            st->share_len = q->path.len;
            st->is_pipe = pipe;
            st->has_tree = true;
        }
        /* the last waiting one takes its place; its copy goes to the end, reused later */
        struct smb_pending done = *q;
        st->pend[i] = st->pend[--st->npend];
        st->pend[st->npend] = done;
        if (ok) {
            pflow_count(pf, SMB_C_TREES, 1);
            pflow_raise(pf, f, 1, SMB_EV_TREE);
            pflow_tx_done(pf, f);
        }
        return;
    }
}

static void smb1(struct pflow *pf, struct mon_flow *f, int dir, struct smb_state *st,
                 const uint8_t *m, uint32_t n)
{
    if (n < 35 || m[4] != 0x75) /* TREE_CONNECT_ANDX */
        return;
    bool reply = m[9] & 0x80, unicode = rd_le16(m + 10) & 0x8000;
    uint16_t mid = rd_le16(m + 30);
    uint32_t wc = m[32], bc_at = 33 + 2 * wc;
    if (bc_at + 2 > n)
        return;
    uint32_t bytes = bc_at + 2, bc = rd_le16(m + bc_at);
    if (bytes + bc > n)
        bc = n - bytes;
    if (!reply && dir == 0 && wc == 4) {
        uint32_t at = bytes + rd_le16(m + 39); /* past the password */
        if (unicode && (at & 1))
            at++;
        if (at < bytes + bc)
            pending_add(pf, st, 1, mid, m + at, bytes + bc - at, unicode);
    } else if (reply && dir == 1) {
        bool ok = rd_le32(m + 5) == 0;
        bool pipe = bc >= 3 && !memcmp(m + bytes, "IPC", 3);
        answered(pf, f, st, 1, mid, ok, pipe);
    }
}

static void smb2(struct pflow *pf, struct mon_flow *f, int dir, struct smb_state *st,
                 const uint8_t *m, uint32_t n)
{
    for (uint32_t guard = 0; n >= 64 && guard < 64; guard++) {
        if (memcmp(m, "\xfeSMB", 4))
            return;
        bool reply = rd_le32(m + 16) & 1;
        uint64_t id = rd_le64(m + 24);
        if (rd_le16(m + 12) == 3 && n >= 72) { /* TREE_CONNECT */
            if (!reply && dir == 0) {
                uint32_t off = rd_le16(m + 68), len = rd_le16(m + 70);
                if (off < n)
                    pending_add(pf, st, 2, id, m + off, len < n - off ? len : n - off, true);
            } else if (reply && dir == 1) {
                answered(pf, f, st, 2, id, rd_le32(m + 8) == 0, m[66] == 2);
            }
        }
        uint32_t next = rd_le32(m + 20);
        if (!next || next >= n || next < 64)
            return;
        m += next, n -= next;
    }
}

void smb_message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *m, uint32_t n)
{
    struct smb_state *st = pf->state;
    pflow_count(pf, SMB_C_MSGS, 1);
    if (n < 4)
        return;
    if (!memcmp(m, "\xffSMB", 4)) {
        st->version = 1;
        smb1(pf, f, dir, st, m, n);
    } else if (!memcmp(m, "\xfeSMB", 4)) {
        st->version = 2;
        smb2(pf, f, dir, st, m, n);
    } else if (!memcmp(m, "\xfdSMB", 4)) {
        st->version = 2; /* an encrypted SMB2 (3.x) message: not readable */
    } else {
        pflow_count(pf, SMB_C_MALFORMED, 1);
    }
}

void smb_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct smb_state)))) {
        pf->dead[dir] = true;
        return;
    }
    struct smb_state *st = pf->state;
    struct smb_side *s = &st->side[dir];
    while (n) {
        if (s->nb_len < 4) { /* the NetBIOS header */
            s->nb[s->nb_len++] = *d++;
            n--;
            if (s->nb_len < 4)
                continue;
            s->left = rd_be24(s->nb + 1);
            pbuf_reset(&s->msg);
            if (!s->left) {
                s->nb_len = 0;
                continue;
            }
        }
        size_t k = s->left < n ? s->left : n;
        if (s->nb[0] == 0 && s->msg.len < SMB_HEAD_KEEP) {
            size_t keep = SMB_HEAD_KEEP - s->msg.len;
            pbuf_add(&s->msg, d, k < keep ? k : keep, SMB_HEAD_KEEP);
        }
        d += k, n -= k;
        s->left -= (uint32_t)k;
        if (s->left)
            return;
        s->nb_len = 0;
        if (s->nb[0] == 0)
            smb_message(pf, f, dir, s->msg.p, s->msg.len);
    }
}

void smb_free(void *state)
{
    struct smb_state *st = state;
    if (!st)
        return;
    pbuf_free(&st->side[0].msg);
    pbuf_free(&st->side[1].msg);
    for (uint32_t i = 0; i < SMB_PENDING_MAX; i++) /* the waiting ones and reused copies */
        pbuf_free(&st->pend[i].path);
    free(st);
}
