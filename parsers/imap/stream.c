/* stream.c — IMAP's bytes: each direction cut into lines (LF, a CR before it dropped; a line
 * keeps IMAP_LINE_MAX bytes, the rest skipped) and literals: a line ending in `{n}` (or
 * `{n+}`) is followed by exactly n bytes of data, read as such — a message (APPEND's, a
 * FETCH's BODY[…] / RFC822) cut into lines for the MIME reader, any other skipped and
 * counted. STARTTLS completed OK: the flow becomes TLS (its parser gets what follows). A gap:
 * the line or literal being read is lost (a message in it cut, its attachment truncated);
 * parsing resumes at the first line that starts like an IMAP line — the client's a tagged
 * command, the server's an untagged `* `, a continuation `+ ` or a tagged status —, the lines
 * before it skipped (line by line: what follows a hole comes in chunks of any size, a lost
 * literal's tail and the next command in one). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "imap_int.h"

static void line_done(struct imap_state *st, int dir)
{
    struct imap_side *s = &st->side[dir];
    uint32_t n = s->line.len;
    if (n && s->line.p[n - 1] == '\r')
        n--;
    const uint8_t *l = s->line.p ? s->line.p : (const uint8_t *)"";
    bool msg = false;
    int64_t lit = s->over ? -1 : imap_literal(l, n, dir, &msg);
    imap_line(st, dir, l, n, s->cont); /* (first: an APPEND's transaction owns its message) */
    s->cont = false;
    if (lit >= 0) {
        s->literal = (uint64_t)lit;
        s->cont = true;
        /* one message read at a time */
        s->lit_msg = msg && lit > 0 && st->msg_dir < 0 && imap_message_begin(st, dir);
    }
    pbuf_reset(&s->line);
    s->over = false;
}

/* n bytes of a message literal: lines (LF kept out) for MIME; its end ends the message */
static void literal_bytes(struct imap_state *st, int dir, const uint8_t *d, size_t n)
{
    struct imap_side *s = &st->side[dir];
    pflow_count(st->pf, IMAP_C_LITERAL_BYTES, n);
    while (n && s->lit_msg) {
        const uint8_t *lf = memchr(d, '\n', n);
        size_t k = lf ? (size_t)(lf - d) : n;
        size_t room = IMAP_MSG_LINE_MAX - s->mline.len, take = k < room ? k : room;
        pbuf_add(&s->mline, d, take, IMAP_MSG_LINE_MAX);
        if (lf || take < k) { /* a whole line, or a long one's piece */
            uint32_t m = s->mline.len;
            if (lf && take == k && m && s->mline.p[m - 1] == '\r')
                m--;
            imap_message_line(st, s->mline.p ? s->mline.p : (const uint8_t *)"", m,
                              !lf || take < k);
            pbuf_reset(&s->mline);
            take += lf && take == k ? 1 : 0;
        }
        d += take, n -= take;
    }
    if (!s->literal && s->lit_msg) { /* the literal is over: so is the message */
        if (s->mline.len)
            imap_message_line(st, s->mline.p, s->mline.len, false);
        pbuf_reset(&s->mline);
        s->lit_msg = false;
        imap_message_end(st);
    }
}

static void to_tls(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    imap_end(pf, f);
    int id = osprey_app_proto_find("tls");
    if (id <= OSPREY_APP_PROTO_FAILED) {
        pf->dead[0] = pf->dead[1] = true;
        return;
    }
    pflow_count(pf, IMAP_C_STARTTLS, 1);
    pflow_become(pf, (uint16_t)id);
    const struct osprey_proto_def *tls = reg_proto(pf->proto);
    if (n && tls->parse)
        tls->parse(pf, f, dir, d, n);
}

/* Does this chunk start like an IMAP line of its direction (after a gap)? */
static bool line_start(int dir, const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (dir == 0)
        return imap_probe_client(d, n, f) == DET_YES;
    if (n >= 2 && (d[0] == '*' || d[0] == '+') && d[1] == ' ')
        return true;
    size_t t = 0; /* a tag, then OK / NO / BAD */
    while (t < n && t < IMAP_TAG_MAX && d[t] != ' ' && d[t] > ' ' && d[t] < 0x7f)
        t++;
    static const char *const ST[] = {"OK", "NO", "BAD"};
    for (int i = 0; t && t + 1 < n && d[t] == ' ' && i < 3; i++) {
        size_t k = strlen(ST[i]);
        if (t + 1 + k <= n && !strncasecmp((const char *)d + t + 1, ST[i], k))
            return true;
    }
    return false;
}

void imap_gap(struct pflow *pf, struct mon_flow *f, int dir)
{
    struct imap_state *st = pf->state;
    if (!st)
        return;
    st->pf = pf;
    st->f = f;
    struct imap_side *s = &st->side[dir];
    if (s->lit_msg && st->msg_dir == dir) { /* the message being read is cut */
        st->cut = true;
        imap_message_end(st);
        st->cut = false;
    }
    s->lit_msg = false;
    s->literal = 0;
    pbuf_reset(&s->line);
    pbuf_reset(&s->mline);
    s->over = s->cont = false;
    s->gap = true;
    s->gap_mid = false;
    if (dir == 0) /* the client resumes at a tagged command: no data line is owed any more */
        st->plus = false;
}

void imap_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state) {
        if (!(pf->state = calloc(1, sizeof(struct imap_state)))) {
            pf->dead[dir] = true;
            return;
        }
        ((struct imap_state *)pf->state)->msg_dir = -1;
    }
    struct imap_state *st = pf->state;
    st->pf = pf;
    st->f = f;
    struct imap_side *s = &st->side[dir];
    while (s->gap && n) { /* after a gap: lines skipped up to one that starts like IMAP */
        if (!s->gap_mid && line_start(dir, d, n, f)) {
            s->gap = false;
            break;
        }
        const uint8_t *lf = memchr(d, '\n', n);
        s->gap_mid = !lf; /* (the next chunk goes on with this line) */
        if (!lf)
            return;
        n -= (size_t)(lf + 1 - d), d = lf + 1;
    }
    while (n && !st->tls) {
        if (s->literal) {
            size_t take = n < s->literal ? n : (size_t)s->literal;
            s->literal -= take;
            literal_bytes(st, dir, d, take);
            d += take, n -= take;
            continue;
        }
        const uint8_t *lf = memchr(d, '\n', n);
        size_t k = lf ? (size_t)(lf - d) : n;
        if (!s->over) {
            size_t room = IMAP_LINE_MAX - s->line.len, take = k < room ? k : room;
            if (pbuf_add(&s->line, d, take, IMAP_LINE_MAX) != take) {
                pf->dead[dir] = true;
                return;
            }
            s->over = take < k;
        }
        if (!lf)
            return;
        d += k + 1, n -= k + 1;
        line_done(st, dir);
    }
    if (st->tls)
        to_tls(pf, f, dir, d, n);
}

void imap_end(struct pflow *pf, struct mon_flow *f)
{
    struct imap_state *st = pf->state;
    if (!st)
        return;
    st->pf = pf;
    st->f = f;
    if (st->msg_dir >= 0) { /* a message cut short: an open attachment is truncated */
        st->cut = true;
        imap_message_end(st);
        st->cut = false;
    }
    st->side[0].lit_msg = st->side[1].lit_msg = false;
    if (st->loose) {
        imap_tx_report(st, st->loose);
        st->loose = NULL;
    }
    while (st->head) { /* commands never completed are reported as they are */
        struct imap_tx *t = st->head;
        st->head = t->next;
        st->nq--;
        imap_tx_report(st, t);
    }
    st->tail = NULL;
}

void imap_trim(void *state)
{
    struct imap_state *st = state;
    if (!st)
        return;
    for (int d = 0; d < 2; d++) {
        pbuf_free(&st->side[d].line);
        pbuf_free(&st->side[d].mline);
    }
    if (st->msg_dir < 0) {
        free(st->mime);
        st->mime = NULL;
    }
}

void imap_free(void *state)
{
    struct imap_state *st = state;
    if (!st)
        return;
    while (st->head) {
        struct imap_tx *t = st->head;
        st->head = t->next;
        imap_tx_free(t);
    }
    imap_tx_free(st->loose);
    free(st->mime);
    for (int d = 0; d < 2; d++) {
        pbuf_free(&st->side[d].line);
        pbuf_free(&st->side[d].mline);
    }
    free(st);
}
