/* stream.c — POP3's bytes: each direction cut into lines (LF, a CR before it dropped; a
 * command or response line keeps POP3_LINE_MAX bytes, the rest skipped but counted for the
 * RFC's limits), the client's read as commands, the server's as responses or, inside a
 * multi-line response, its lines (a message's reach MIME in pieces of POP3_MSG_LINE_MAX).
 * STLS accepted: the flow becomes TLS (its parser gets what follows on either side). A gap:
 * the line being read is lost, a message cut; parsing resumes at a chunk that starts like
 * POP3 (a command, a response), as Suricata's parser accepts gaps. */
#include <stdlib.h>
#include <string.h>

#include "pop3_int.h"

static void line_done(struct pop3_state *st, int dir, bool piece, bool cont)
{
    struct pop3_side *s = &st->side[dir];
    uint32_t n = s->line.len;
    if (!piece && n && s->line.p[n - 1] == '\r')
        n--;
    const uint8_t *l = s->line.p ? s->line.p : (const uint8_t *)"";
    uint32_t whole = s->seen + 1; /* the line's bytes on the wire, its CR and LF counted */
    if (dir == 0)
        pop3_command(st, l, n, whole);
    else if (st->in_data)
        pop3_data_line(st, l, n, cont, piece);
    else
        pop3_response(st, l, n, whole);
    pbuf_reset(&s->line);
    if (!piece) {
        s->over = false;
        s->seen = 0;
    }
}

/* The flow is TLS from here: what POP3 still waits for is reported, its state goes. */
static void to_tls(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    pop3_end(pf, f);
    int id = osprey_app_proto_find("tls");
    if (id <= OSPREY_APP_PROTO_FAILED) {
        pf->dead[0] = pf->dead[1] = true;
        return;
    }
    pflow_count(pf, POP3_C_STLS, 1);
    pflow_become(pf, (uint16_t)id);
    const struct osprey_proto_def *tls = reg_proto(pf->proto);
    if (n && tls->parse)
        tls->parse(pf, f, dir, d, n);
}

void pop3_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct pop3_state)))) {
        pf->dead[dir] = true;
        return;
    }
    struct pop3_state *st = pf->state;
    st->pf = pf;
    st->f = f;
    struct pop3_side *s = &st->side[dir];
    if (st->gap[dir]) { /* after a gap: as Suricata, a chunk that does not start like POP3 is
                           skipped whole; one that does resumes the parsing */
        enum probe_verdict v = dir == 0 ? pop3_probe_client(d, n, f) : pop3_probe_server(d, n, f);
        if (v != DET_YES)
            return;
        st->gap[dir] = false;
    }
    bool cont = false; /* the line being read continues a piece already given to MIME */
    while (n && !st->tls) {
        const uint8_t *lf = memchr(d, '\n', n);
        size_t k = lf ? (size_t)(lf - d) : n;
        bool msg = dir == 1 && st->in_msg;
        uint32_t max = msg ? POP3_MSG_LINE_MAX : POP3_LINE_MAX;
        size_t took = 0;
        if (!s->over) {
            size_t room = max - s->line.len;
            took = k < room ? k : room;
            if (pbuf_add(&s->line, d, took, max) != took) {
                pf->dead[dir] = true;
                return;
            }
            if (took < k && msg) { /* a long message line: to MIME in pieces */
                line_done(st, dir, true, cont);
                cont = true;
                d += took, n -= took;
                continue;
            }
            if (took < k)
                s->over = true;
        }
        s->seen = k < UINT32_MAX - 2 - s->seen ? s->seen + (uint32_t)k : UINT32_MAX - 2;
        if (!lf)
            return;
        d += k + 1, n -= k + 1;
        line_done(st, dir, false, cont);
        cont = false;
        if (pf->dead[dir])
            return;
    }
    if (st->tls)
        to_tls(pf, f, dir, d, n);
}

void pop3_gap(struct pflow *pf, struct mon_flow *f, int dir)
{
    struct pop3_state *st = pf->state;
    if (!st)
        return;
    st->pf = pf;
    st->f = f;
    struct pop3_side *s = &st->side[dir];
    pbuf_reset(&s->line); /* the line being read is lost */
    s->over = false;
    s->seen = 0;
    st->gap[dir] = true;
    if (dir == 1)
        pop3_response_lost(st);
    if (dir == 0)
        st->auth_next = false;
}

void pop3_end(struct pflow *pf, struct mon_flow *f)
{
    struct pop3_state *st = pf->state;
    if (!st)
        return;
    st->pf = pf;
    st->f = f;
    if (st->in_msg) { /* the message was cut: an attachment still open is truncated */
        st->cut = true;
        pop3_message_end(st);
        st->cut = false;
    }
    st->in_data = st->in_msg = false;
    while (st->head) { /* commands never answered are reported as they are */
        struct pop3_tx *t = st->head;
        st->head = t->next;
        st->nq--;
        st->cur = t;
        pflow_count(pf, POP3_C_TXS, 1);
        pflow_tx_done(pf, f);
        st->cur = NULL;
        pop3_tx_free(t);
    }
    st->tail = NULL;
}

void pop3_trim(void *state)
{
    struct pop3_state *st = state;
    if (!st)
        return;
    pbuf_free(&st->side[0].line);
    pbuf_free(&st->side[1].line);
    if (!st->in_msg) { /* (a message still open is ended at the flow's end) */
        free(st->mime);
        st->mime = NULL;
    }
}

void pop3_free(void *state)
{
    struct pop3_state *st = state;
    if (!st)
        return;
    while (st->head) {
        struct pop3_tx *t = st->head;
        st->head = t->next;
        pop3_tx_free(t);
    }
    free(st->mime);
    pbuf_free(&st->side[0].line);
    pbuf_free(&st->side[1].line);
    free(st);
}
