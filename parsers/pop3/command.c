/* command.c — POP3's transactions (Suricata's: one per command, with its response; the
 * greeting, and a response nothing asked for, one of their own): the client's commands
 * (keyword and arguments, the RFC's limits and argument counts checked), the server's
 * responses (+OK, -ERR, a SASL continuation "+ …") answering the oldest command waiting, and
 * the multi-line responses' lines (LIST and UIDL without argument, CAPA, AUTH without
 * argument, TOP and RETR — whose lines are a message, read by MIME: message.c). */
#include <stdlib.h>
#include <string.h>

#include "pop3_int.h"

bool p3list_add(struct p3list *l, const uint8_t *d, size_t n)
{
    if (l->n >= POP3_LIST_MAX)
        return false;
    uint32_t off = l->b.len;
    if (pbuf_add(&l->b, d, n, 0) != n) {
        l->b.len = off;
        return false;
    }
    l->off[l->n] = off;
    l->len[l->n] = (uint32_t)n;
    l->n++;
    return true;
}

void pop3_tx_free(struct pop3_tx *t)
{
    if (!t)
        return;
    pbuf_free(&t->word);
    pbuf_free(&t->args.b);
    pbuf_free(&t->header);
    pbuf_free(&t->data.b);
    pbuf_free(&t->attach.b);
    pbuf_free(&t->file);
    free(t);
}

static struct pop3_tx *tx_new(struct pop3_state *st)
{
    struct pop3_tx *t = calloc(1, sizeof *t);
    if (t)
        t->id = st->ntx++;
    return t;
}

/* the answered one (t, at the head of the queue or of none) is reported and goes */
static void finish(struct pop3_state *st, struct pop3_tx *t)
{
    if (st->head == t) {
        st->head = t->next;
        st->nq--;
        if (!st->head)
            st->tail = NULL;
    }
    st->cur = t;
    t->done = true;
    pflow_raise(st->pf, st->f, 1, POP3_EV_RESPONSE);
    pflow_count(st->pf, POP3_C_TXS, 1);
    pflow_tx_done(st->pf, st->f);
    st->cur = NULL;
    if (t->cmd == P3_STLS && t->ok)
        st->tls = true; /* (stream.c hands the flow to TLS) */
    pop3_tx_free(t);
}

/* the arguments a command takes: at least lo, at most hi */
static void arg_range(enum pop3_cmd c, unsigned *lo, unsigned *hi)
{
    *lo = 0, *hi = 0;
    switch (c) {
    case P3_USER: case P3_RETR: case P3_DELE: *lo = *hi = 1; break;
    case P3_PASS: *lo = 1, *hi = ~0u; break; /* a password may hold blanks */
    case P3_APOP: case P3_TOP: *lo = *hi = 2; break;
    case P3_LIST: case P3_UIDL: *hi = 1; break;
    case P3_AUTH: *hi = 2; break;
    case P3_UNKNOWN: *hi = ~0u; break;
    default: break;
    }
}

void pop3_command(struct pop3_state *st, const uint8_t *l, size_t n, uint32_t whole)
{
    if (!n)
        return;
    if (st->nq >= POP3_TX_MAX) { /* Suricata's max-tx: the rest is not kept */
        pflow_anomaly(st->pf, st->f, 0, POP3_A_TOO_MANY_TX);
        pflow_count(st->pf, POP3_C_TX_SHED, 1);
        return;
    }
    struct pop3_tx *t = tx_new(st);
    if (!t)
        return;
    t->has_req = true;
    if (st->auth_next) { /* the answer to a SASL challenge: not a command */
        st->auth_next = false;
        t->cmd = P3_SASL;
    } else {
        size_t w = 0;
        while (w < n && l[w] != ' ')
            w++;
        t->cmd = (uint8_t)pop3_cmd_of(l, w);
        uint32_t wl = w < 32 ? (uint32_t)w : 32;
        if (pbuf_add(&t->word, l, wl, 32) == wl)
            for (uint32_t i = 0; i < wl; i++)
                if (t->word.p[i] >= 'a' && t->word.p[i] <= 'z')
                    t->word.p[i] = (uint8_t)(t->word.p[i] - 32);
        unsigned nargs = 0;
        for (size_t i = w; i < n;) {
            while (i < n && l[i] == ' ')
                i++;
            size_t s = i;
            while (i < n && l[i] != ' ')
                i++;
            if (i == s)
                break;
            nargs++;
            if (!p3list_add(&t->args, l + s, i - s))
                pflow_count(st->pf, POP3_C_LIST_SHED, 1);
        }
        unsigned lo, hi;
        arg_range((enum pop3_cmd)t->cmd, &lo, &hi);
        if (whole > POP3_RFC_CMD)
            pflow_anomaly(st->pf, st->f, 0, POP3_A_REQUEST_TOO_LONG);
        if (t->cmd == P3_UNKNOWN)
            pflow_anomaly(st->pf, st->f, 0, POP3_A_UNKNOWN_COMMAND);
        else if (nargs < lo || nargs > hi)
            pflow_anomaly(st->pf, st->f, 0, POP3_A_BAD_ARG_COUNT);
    }
    if (st->tail)
        st->tail->next = t;
    else
        st->head = t;
    st->tail = t;
    st->nq++;
    st->cur = t;
    pflow_raise(st->pf, st->f, 0, POP3_EV_REQUEST);
    st->cur = NULL;
}

/* does a positive answer to t go on for lines until "."? */
static bool multi_line(const struct pop3_tx *t)
{
    switch (t->cmd) {
    case P3_LIST: case P3_UIDL: case P3_AUTH: return t->args.n == 0;
    case P3_CAPA: case P3_TOP: case P3_RETR: return true;
    default: return false;
    }
}

void pop3_response(struct pop3_state *st, const uint8_t *l, size_t n, uint32_t whole)
{
    size_t skip;
    bool ok, cont = false;
    if (n >= 3 && !memcmp(l, "+OK", 3))
        ok = true, skip = 3;
    else if (n >= 4 && !memcmp(l, "-ERR", 4))
        ok = false, skip = 4;
    else if (n >= 1 && l[0] == '+' && (n == 1 || l[1] == ' '))
        ok = true, cont = true, skip = 1; /* a SASL challenge */
    else
        return; /* not a response (nothing to answer with it) */
    struct pop3_tx *t = st->head;
    if (!t && !(t = tx_new(st))) /* the greeting, or a response nothing asked for */
        return;
    if (whole > POP3_RFC_RESP)
        pflow_anomaly(st->pf, st->f, 1, POP3_A_RESPONSE_TOO_LONG);
    if (skip < n && l[skip] == ' ')
        skip++;
    t->has_resp = true;
    t->ok = ok;
    t->multi = ok && !cont && multi_line(t);
    pbuf_add(&t->header, l + skip, n - skip, POP3_LINE_MAX);
    if (cont && (t->cmd == P3_AUTH || t->cmd == P3_SASL))
        st->auth_next = true;
    if (t->multi) {
        st->in_data = true;
        if (t->cmd == P3_RETR || t->cmd == P3_TOP)
            pop3_message_begin(st);
        return;
    }
    finish(st, t);
}

void pop3_data_line(struct pop3_state *st, const uint8_t *l, size_t n, bool cont, bool more)
{
    struct pop3_tx *t = st->head;
    if (!cont && !more && n == 1 && l[0] == '.') { /* the end of the response */
        st->in_data = false;
        if (st->in_msg) {
            st->cut = t && t->cmd == P3_TOP; /* TOP: the body is cut after n lines */
            pop3_message_end(st);
            st->cut = false;
        }
        if (t)
            finish(st, t);
        return;
    }
    if (!cont && n && l[0] == '.') /* dot-stuffing undone */
        l++, n--;
    if (st->in_msg) {
        st->cur = t;
        if (more)
            mime_part(st->mime, l, n); /* one line in pieces: no line end between them */
        else
            mime_line(st->mime, l, n);
        st->cur = NULL;
    } else if (t && !p3list_add(&t->data, l, n)) {
        pflow_count(st->pf, POP3_C_LIST_SHED, 1);
    }
}

void pop3_response_lost(struct pop3_state *st)
{
    if (!st->in_data)
        return;
    st->in_data = false;
    if (st->in_msg) {
        st->cut = true;
        pop3_message_end(st);
        st->cut = false;
    }
    if (st->head)
        finish(st, st->head);
}
