/* command.c — IMAP's transactions: each tagged client command is one, completed by the
 * server's tagged status line (OK, NO, BAD) with its tag; the untagged lines and literals in
 * between belong to the oldest command waiting (a FETCH's messages), those no command waits
 * for (the greeting) to a loose transaction reported at the next command. A line continuing
 * one a literal interrupted, and the client's answer to a `+` continuation (AUTHENTICATE's),
 * are no command. STARTTLS completed OK hands the flow to TLS (stream.c). Literals: `{n}` or
 * `{n+}` ends a line, n bytes follow. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "imap_int.h"

void imap_tx_free(struct imap_tx *t)
{
    if (!t)
        return;
    pbuf_free(&t->file[0]);
    pbuf_free(&t->file[1]);
    free(t);
}

static struct imap_tx *tx_new(struct imap_state *st)
{
    struct imap_tx *t = calloc(1, sizeof *t);
    if (t)
        t->id = st->ntx++;
    return t;
}

void imap_tx_report(struct imap_state *st, struct imap_tx *t)
{
    struct imap_tx *was = st->cur;
    st->cur = t;
    pflow_raise(st->pf, st->f, 0, IMAP_EV_REQUEST_DONE);
    pflow_raise(st->pf, st->f, 1, IMAP_EV_RESPONSE_DONE);
    pflow_count(st->pf, IMAP_C_TXS, 1);
    pflow_tx_done(st->pf, st->f);
    st->cur = was == t ? NULL : was;
    imap_tx_free(t);
}

struct imap_tx *imap_tx_of(struct imap_state *st, int dir)
{
    if (dir == 0)
        return st->tail;
    if (st->head)
        return st->head;
    if (!st->loose)
        st->loose = tx_new(st);
    return st->loose;
}

static size_t word(const uint8_t *l, size_t n, size_t at, size_t *start)
{
    while (at < n && l[at] == ' ')
        at++;
    *start = at;
    while (at < n && l[at] != ' ')
        at++;
    return at - *start;
}

static bool is(const uint8_t *w, size_t n, const char *s)
{
    return strlen(s) == n && !strncasecmp((const char *)w, s, n);
}

static void raise_on(struct imap_state *st, struct imap_tx *t, int dir)
{
    struct imap_tx *was = st->cur;
    st->cur = t;
    pflow_raise(st->pf, st->f, dir, dir == 0 ? IMAP_EV_REQUEST : IMAP_EV_RESPONSE);
    st->cur = was;
}

static void client_line(struct imap_state *st, const uint8_t *l, size_t n, bool cont)
{
    if (cont || st->plus || !n) { /* data, not a command */
        st->plus = false;
        if (st->tail)
            raise_on(st, st->tail, 0);
        return;
    }
    if (st->loose) { /* what the server said before this command is reported */
        imap_tx_report(st, st->loose);
        st->loose = NULL;
    }
    if (st->nq >= IMAP_TX_MAX) {
        pflow_count(st->pf, IMAP_C_CMDS_SHED, 1);
        return;
    }
    struct imap_tx *t = tx_new(st);
    if (!t)
        return;
    size_t ts, tl = word(l, n, 0, &ts), cs, cl = word(l, n, ts + tl, &cs);
    t->taglen = tl < IMAP_TAG_MAX ? (uint32_t)tl : IMAP_TAG_MAX;
    memcpy(t->tag, l + ts, t->taglen);
    t->starttls = is(l + cs, cl, "STARTTLS");
    if (st->tail)
        st->tail->next = t;
    else
        st->head = t;
    st->tail = t;
    st->nq++;
    raise_on(st, t, 0);
}

static void server_line(struct imap_state *st, const uint8_t *l, size_t n, bool cont)
{
    if (cont || (n >= 2 && l[0] == '*' && l[1] == ' ') || !n) { /* untagged, or data */
        raise_on(st, imap_tx_of(st, 1), 1);
        return;
    }
    if (l[0] == '+') { /* a continuation request */
        st->plus = true;
        raise_on(st, imap_tx_of(st, 1), 1);
        return;
    }
    size_t ts, tl = word(l, n, 0, &ts), ss, sl = word(l, n, ts + tl, &ss);
    struct imap_tx **p = &st->head, *prev = NULL;
    while (*p && ((*p)->taglen != tl || memcmp((*p)->tag, l + ts, tl)))
        prev = *p, p = &(*p)->next;
    struct imap_tx *t = *p;
    if (!t) { /* a tag no command had: the server's line all the same */
        raise_on(st, imap_tx_of(st, 1), 1);
        return;
    }
    if (st->msg_dir == 0 && st->msg_tx == t->id && st->tail == t) {
        /* completed while its APPEND literal is still being read (the rest of it lost in a
           gap the client's side has not reached yet): the message is cut now, its open
           attachment truncated and reported with it; what is left of the literal is skipped */
        st->cut = true;
        imap_message_end(st);
        st->cut = false;
        st->side[0].lit_msg = false;
    }
    *p = t->next; /* completed: out of the queue */
    if (st->tail == t)
        st->tail = prev;
    st->nq--;
    raise_on(st, t, 1);
    bool tls = t->starttls && is(l + ss, sl, "OK");
    imap_tx_report(st, t);
    if (tls)
        st->tls = true;
}

void imap_line(struct imap_state *st, int dir, const uint8_t *l, size_t n, bool cont)
{
    if (dir == 0)
        client_line(st, l, n, cont);
    else
        server_line(st, l, n, cont);
}

int64_t imap_literal(const uint8_t *l, size_t n, int dir, bool *msg)
{
    *msg = false;
    if (n < 3 || l[n - 1] != '}')
        return -1;
    size_t e = n - 1;
    if (l[e - 1] == '+') /* LITERAL+ (non-synchronizing) */
        e--;
    size_t b = e;
    while (b > 0 && isdigit(l[b - 1]) && e - b < 18) /* (fits int64_t) */
        b--;
    if (b == e || b == 0 || l[b - 1] != '{')
        return -1;
    int64_t v = 0;
    for (size_t i = b; i < e; i++)
        v = v * 10 + (l[i] - '0');
    size_t open = b - 1; /* what names the literal ends before it */
    while (open > 0 && l[open - 1] == ' ')
        open--;
    if (dir == 0) {
        size_t ts, tl = word(l, n, 0, &ts), cs, cl = word(l, n, ts + tl, &cs);
        (void)tl;
        *msg = is(l + cs, cl, "APPEND");
    } else if (n >= 2 && l[0] == '*') {
        size_t s = open;
        while (s > 0 && l[s - 1] != ' ' && l[s - 1] != '(')
            s--;
        const uint8_t *w = l + s;
        size_t wl = open - s;
        *msg = (wl >= 6 && !strncasecmp((const char *)w, "RFC822", 6) &&
                (wl == 6 || !strncasecmp((const char *)w + 6, ".TEXT", wl - 6))) ||
               (wl >= 5 && (!strncasecmp((const char *)w, "BODY[", 5) ||
                            !strncasecmp((const char *)w, "BINARY[", wl < 7 ? wl : 7)) &&
                memchr(w, ']', wl) && !memmem(w, wl, "HEADER", 6) &&
                !memmem(w, wl, "MIME", 4));
    }
    return v;
}
