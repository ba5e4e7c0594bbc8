/* parse.c — SMB over a stream: NetBIOS session messages (a 4-byte header: type, then a 24-bit
 * length; types other than 0 — session requests, keep-alives — are skipped), each kept up to
 * SMB_MSG_MAX bytes (more: counted, cut) and handed whole to smb1.c / smb2.c. A message whose
 * payload is no SMB header, or a header of an unknown type, loses the framing (midstream
 * pickup, garbage, bytes lost in a gap): bytes are then skipped until an NBSS header followed
 * by an SMB magic comes (Suricata resyncs the same way). Direct TCP 445 uses the same 4-byte header. */
#include <stdlib.h>
#include <string.h>

#include "smb_int.h"

uint32_t smb_str(uint8_t *out, uint32_t max, const uint8_t *p, uint32_t n, bool unicode)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n && k < max; i += unicode ? 2 : 1) {
        uint32_t c = unicode ? (i + 1 < n ? rd_le16(p + i) : 0) : p[i];
        if (!c)
            break;
        out[k++] = c < 0x80 ? (uint8_t)c : '?';
    }
    return k;
}

static bool smb_magic(const uint8_t *p)
{
    return (p[0] == 0xff || p[0] == 0xfe || p[0] == 0xfd) && !memcmp(p + 1, "SMB", 3);
}

/* NetBIOS session service message types (RFC 1002 4.3.1) */
static bool nbss_type_ok(uint8_t t)
{
    return t == 0 || (t >= 0x81 && t <= 0x85);
}

void smb_message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *m, uint32_t n)
{
    struct smb_state *st = pf->state;
    pflow_count(pf, SMB_C_MSGS, 1);
    if (n < 4)
        return;
    if (!st->seen_msg && n >= 20 && (m[0] == 0xff || m[0] == 0xfe)) {
        st->seen_msg = true;
        bool reply = m[0] == 0xff ? m[9] & 0x80 : rd_le32(m + 16) & 1;
        st->reversed = reply == (dir == 0);
    }
    if (st->reversed)
        dir ^= 1;
    if (!memcmp(m, "\xffSMB", 4)) {
        st->version = 1;
        smb1_message(pf, f, dir, st, m, n);
    } else if (!memcmp(m, "\xfeSMB", 4)) {
        st->version = 2;
        smb2_message(pf, f, dir, st, m, n);
    } else if (!memcmp(m, "\xfdSMB", 4)) {
        st->version = 2; /* an encrypted SMB2 (3.x) message: not readable */
    } else {
        pflow_count(pf, SMB_C_MALFORMED, 1);
    }
}

/* While lost: slide a window over the bytes until it holds an NBSS header (type 0, a length
 * of at least 32) and an SMB magic; then the message starts there. Returns bytes used. */
static size_t resync(struct smb_side *s, const uint8_t *d, size_t n)
{
    size_t used = 0;
    while (used < n) {
        if (s->win_len == 8) {
            memmove(s->win, s->win + 1, 7);
            s->win_len = 7;
        }
        s->win[s->win_len++] = d[used++];
        if (s->win_len < 8)
            continue;
        uint32_t len = (uint32_t)s->win[1] << 16 | (uint32_t)s->win[2] << 8 | s->win[3];
        if (s->win[0] == 0 && len >= 32 && smb_magic(s->win + 4)) {
            s->lost = false;
            s->win_len = 0;
            memcpy(s->nb, s->win, 8);
            s->nb_len = 8;
            s->left = s->size = len;
            pbuf_reset(&s->msg);
            pbuf_add(&s->msg, s->win + 4, 4, SMB_MSG_MAX);
            s->left -= 4;
            break;
        }
    }
    return used;
}

/* The header is read with the message's first 4 bytes (its SMB magic, checked before the
 * message is taken): s->nb holds 8 bytes then, 4 for other types or messages under 4. */
void smb_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct smb_state)))) {
        pf->dead[dir] = true;
        return;
    }
    struct smb_state *st = pf->state;
    struct smb_side *s = &st->side[dir];
    while (n) {
        if (s->lost) {
            size_t k = resync(s, d, n);
            d += k, n -= k;
            continue;
        }
        uint32_t want = 4;
        if (s->nb_len >= 4 && s->nb[0] == 0 && s->size >= 4)
            want = 8;
        if (s->nb_len < want) {
            s->nb[s->nb_len++] = *d++;
            n--;
            if (s->nb_len == 4) {
                s->left = s->size =
                    (uint32_t)s->nb[1] << 16 | (uint32_t)s->nb[2] << 8 | s->nb[3];
                if (!nbss_type_ok(s->nb[0])) { /* not a session message: resync */
                    pflow_anomaly(pf, f, dir, SMB_AE_NBSS_TYPE);
                    pflow_count(pf, SMB_C_MALFORMED, 1);
                    s->lost = true;
                    memcpy(s->win, s->nb + 1, 3);
                    s->win_len = 3;
                    s->nb_len = 0;
                    continue;
                }
                if (!s->left) {
                    s->nb_len = 0;
                    continue;
                }
            }
            if (s->nb_len < 8 && !(s->nb_len == 4 && (s->nb[0] != 0 || s->size < 4)))
                continue;
            pbuf_reset(&s->msg);
            if (s->nb_len == 8) {
                if (!smb_magic(s->nb + 4)) { /* a session message that is no SMB: lost */
                    pflow_anomaly(pf, f, dir, SMB_AE_MALFORMED);
                    pflow_count(pf, SMB_C_MALFORMED, 1);
                    s->lost = true;
                    memcpy(s->win, s->nb + 1, 7);
                    s->win_len = 7;
                    s->nb_len = 0;
                    continue;
                }
                pbuf_add(&s->msg, s->nb + 4, 4, SMB_MSG_MAX);
                s->left -= 4;
                if (!s->left) { /* (only the magic) */
                    s->nb_len = 0;
                    smb_message(pf, f, dir, s->msg.p, s->msg.len);
                    continue;
                }
            }
        }
        size_t k = s->left < n ? s->left : n;
        if (s->nb[0] == 0 && s->msg.len < SMB_MSG_MAX) {
            size_t keep = SMB_MSG_MAX - s->msg.len;
            pbuf_add(&s->msg, d, k < keep ? k : keep, SMB_MSG_MAX);
        }
        d += k, n -= k;
        s->left -= (uint32_t)k;
        if (s->left)
            return;
        s->nb_len = 0;
        if (s->nb[0] == 0) {
            if (s->size > SMB_MSG_MAX) {
                pflow_count(pf, SMB_C_MSG_SHED, s->size - SMB_MSG_MAX);
                pflow_anomaly(pf, f, dir, SMB_AE_RECORD_OVERFLOW);
            }
            smb_message(pf, f, dir, s->msg.p, s->msg.len);
        }
    }
}

void smb_gap(struct pflow *pf, struct mon_flow *f, int dir)
{
    struct smb_state *st = pf->state;
    if (!st)
        return;
    struct smb_side *s = &st->side[dir]; /* the message being read is lost: resync */
    s->lost = true;
    s->win_len = 0;
    s->nb_len = 0;
    pbuf_reset(&s->msg);
    pflow_count(pf, SMB_C_GAPS, 1);
    /* the lost bytes may have been a pipe's (a write, a read): DCERPC over SMB finds its
     * next PDU again too, rather than reading the middle of one as a header */
    struct pflow *g = pf->guest;
    const struct osprey_proto_def *gd = g ? reg_proto(g->proto) : NULL;
    int gdir = st->reversed ? dir ^ 1 : dir;
    if (gd && gd->gap && g->state && !g->dead[gdir])
        gd->gap(g, f, gdir);
}

void smb_end(struct pflow *pf, struct mon_flow *f)
{
    struct smb_state *st = pf->state;
    if (!st)
        return;
    /* files still open: now, cut short (before the last records: those report them) */
    const struct smb_file *cut = NULL;
    int cut_dir = 0;
    for (uint32_t i = 0; st->file && i < SMB_FILES_MAX; i++) {
        struct smb_file *fl = &st->file[i];
        if (!fl->used)
            continue;
        if (!fl->pipe && (fl->opened[0] || fl->opened[1]))
            cut = fl, cut_dir = fl->opened[0] ? 0 : 1;
        smb_file_close(pf, f, st, fl, true);
    }
    /* requests never answered: their records; else the cut files' own one */
    if (!smb_tx_flush(pf, f, st) && cut)
        smb_tx_file_end(pf, f, st, cut, cut_dir);
}

void smb_free(void *state)
{
    struct smb_state *st = state;
    if (!st)
        return;
    for (int d = 0; d < 2; d++)
        pbuf_free(&st->side[d].msg);
    for (uint32_t i = 0; st->pend && i < SMB_PENDING_MAX; i++) {
        pbuf_free(&st->pend[i].name);
        pbuf_free(&st->pend[i].dialects);
    }
    for (uint32_t i = 0; st->file && i < SMB_FILES_MAX; i++) {
        pbuf_free(&st->file[i].data[0]);
        pbuf_free(&st->file[i].data[1]);
        pbuf_free(&st->file[i].name);
    }
    free(st->pend);
    free(st->file);
    free(st);
}
