/* command.c — the client's side: command lines (RFC 5321 §4.1), the message after DATA
 * (lines up to "." alone, dot-stuffing undone) and BDAT chunks (RFC 3030: exactly the
 * announced bytes, no dot-stuffing). Commands wait for their replies in order (pipelining,
 * RFC 2920), SMTP_CMD_MAX at most. The envelope's buffers are Suricata's: smtp.helo the
 * HELO / EHLO argument, smtp.mail_from the MAIL FROM path, smtp.rcpt_to each RCPT TO path
 * (the argument up to the first blank: ESMTP parameters are not part of it). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "smtp_int.h"

static void push(struct smtp_state *st, enum smtp_cmd c)
{
    if (st->nq >= SMTP_CMD_MAX) {
        pflow_count(st->pf, SMTP_C_CMDS_SHED, 1);
        return;
    }
    st->q[(st->qhead + st->nq++) % SMTP_CMD_MAX] = (uint8_t)c;
}

static bool verb_is(const uint8_t *l, size_t n, const char *v)
{
    size_t vl = strlen(v);
    return n >= vl && !strncasecmp((const char *)l, v, vl) &&
           (n == vl || l[vl] == ' ' || l[vl] == '\t' || v[vl - 1] == ':');
}

/* The argument after a prefix: blanks skipped, up to the next blank. */
static const uint8_t *arg_of(const uint8_t *l, size_t n, size_t pre, size_t *al)
{
    size_t i = pre;
    while (i < n && (l[i] == ' ' || l[i] == '\t'))
        i++;
    size_t s = i;
    while (i < n && l[i] != ' ' && l[i] != '\t')
        i++;
    *al = i - s;
    return l + s;
}

static void bdat(struct smtp_state *st, const uint8_t *l, size_t n)
{
    size_t i = 4;
    while (i < n && l[i] == ' ')
        i++;
    uint64_t size = 0;
    size_t s = i;
    while (i < n && isdigit(l[i]) && size < (1ull << 40))
        size = size * 10 + (uint64_t)(l[i++] - '0');
    if (i == s || (i < n && l[i] != ' ')) {
        pflow_anomaly(st->pf, st->f, 0, SMTP_A_INVALID_BDAT);
        push(st, SC_OTHER);
        return;
    }
    while (i < n && l[i] == ' ')
        i++;
    bool last = n - i >= 4 && !strncasecmp((const char *)l + i, "LAST", 4);
    smtp_message_begin(st);
    st->mode = SM_BDAT;
    st->bdat_left = size;
    st->bdat_last = last;
    push(st, last ? SC_BDAT_LAST : SC_BDAT);
    if (!size)
        smtp_bdat_bytes(st, NULL, 0);
}

void smtp_command(struct smtp_state *st, const uint8_t *l, size_t n, bool trunc)
{
    if (trunc || n > SMTP_RFC_LINE)
        pflow_anomaly(st->pf, st->f, 0, SMTP_A_CMD_TOO_LONG);
    size_t al;
    const uint8_t *a;
    if (verb_is(l, n, "HELO") || verb_is(l, n, "EHLO")) {
        a = arg_of(l, n, 4, &al);
        pbuf_reset(&st->helo);
        pbuf_add(&st->helo, a, al, SMTP_LINE_MAX);
        st->has_helo = true;
        smtp_tx_get(st);
        push(st, SC_OTHER);
        pflow_raise(st->pf, st->f, 0, SMTP_EV_HELO);
    } else if (verb_is(l, n, "MAIL FROM:")) {
        struct smtp_tx *t = st->tx;
        if (t && (t->has_mail_from || t->has_data)) /* a new envelope without RSET */
            smtp_tx_finish(st);
        if (!(t = smtp_tx_get(st)))
            return;
        a = arg_of(l, n, 10, &al);
        pbuf_reset(&t->mail_from);
        pbuf_add(&t->mail_from, a, al, SMTP_LINE_MAX);
        t->has_mail_from = true;
        push(st, SC_OTHER);
        pflow_raise(st->pf, st->f, 0, SMTP_EV_MAIL_FROM);
    } else if (verb_is(l, n, "RCPT TO:")) {
        struct smtp_tx *t = smtp_tx_get(st);
        if (!t)
            return;
        a = arg_of(l, n, 8, &al);
        push(st, SC_OTHER);
        if (!slist_add(&t->rcpt, a, al)) {
            pflow_count(st->pf, SMTP_C_LIST_SHED, 1);
            return;
        }
        t->rcpt_from = t->rcpt.n - 1; /* this event shows the new recipient */
        pflow_raise(st->pf, st->f, 0, SMTP_EV_RCPT_TO);
        t->rcpt_from = 0;
    } else if (verb_is(l, n, "DATA")) {
        /* read as the message at once (its 354 may come later: pipelining); a refusal of
         * DATA turns the client's side back to commands (reply.c) */
        smtp_message_begin(st);
        st->mode = SM_DATA;
        push(st, SC_DATA);
    } else if (verb_is(l, n, "BDAT")) {
        bdat(st, l, n);
    } else if (verb_is(l, n, "STARTTLS")) {
        push(st, SC_STARTTLS);
    } else if (verb_is(l, n, "RSET") || verb_is(l, n, "QUIT")) {
        smtp_tx_finish(st);
        push(st, SC_OTHER);
    } else {
        push(st, SC_OTHER);
    }
}

void smtp_data_line(struct smtp_state *st, const uint8_t *l, size_t n)
{
    bool cont = st->data_cont; /* the rest of a long line: no end mark, no stuffing */
    st->data_cont = false;
    if (!cont && n == 1 && l[0] == '.') { /* the end of the message */
        st->mode = SM_CMD;
        push(st, SC_DATA_END);
        smtp_message_end(st);
        return;
    }
    if (!cont && n && l[0] == '.') /* dot-stuffing (RFC 5321 §4.5.2) */
        l++, n--;
    if (st->in_msg)
        mime_line(st->mime, l, n);
}

void smtp_data_part(struct smtp_state *st, const uint8_t *l, size_t n)
{
    if (!st->data_cont && n && l[0] == '.')
        l++, n--;
    st->data_cont = true;
    if (st->in_msg)
        mime_part(st->mime, l, n);
}

/* BDAT chunk bytes: lines for the MIME reader (a line may span chunks: bline holds it); the last chunk's end ends the message. */
void smtp_bdat_bytes(struct smtp_state *st, const uint8_t *d, size_t n)
{
    struct pbuf *ln = &st->bline;
    while (n) {
        const uint8_t *lf = memchr(d, '\n', n);
        size_t k = lf ? (size_t)(lf - d) : n;
        size_t room = SMTP_DATA_LINE_MAX - ln->len;
        size_t take = k < room ? k : room;
        pbuf_add(ln, d, take, SMTP_DATA_LINE_MAX);
        if (!lf && take == k)
            break;
        uint32_t len = ln->len;
        if (lf && take == k && len && ln->p[len - 1] == '\r')
            len--;
        if (st->in_msg && take < k) /* a long line's piece: more of it follows */
            mime_part(st->mime, ln->p ? ln->p : (const uint8_t *)"", len);
        else if (st->in_msg)
            mime_line(st->mime, ln->p ? ln->p : (const uint8_t *)"", len);
        pbuf_reset(ln);
        d += take + (lf && take == k), n -= take + (lf && take == k);
    }
    if (st->bdat_left)
        return;
    st->mode = SM_CMD;
    if (!st->bdat_last)
        return;
    if (ln->len && st->in_msg) /* the message's last line, without line end */
        mime_line(st->mime, ln->p, ln->len);
    pbuf_reset(ln);
    smtp_message_end(st);
}
