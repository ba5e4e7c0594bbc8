/* stream.c — Telnet's bytes of each direction as frames, as Suricata frames them: a control
 * frame per IAC command (IAC and a command; WILL / WONT / DO / DONT with their option; SB …
 * IAC SE with what it negotiates) and a data frame per line of data (up to and with its LF,
 * or up to the next IAC; IAC IAC is one 0xff byte of data). Each frame runs its kind's event
 * of its direction, then the pdu event. A data line longer than TN_FRAME_MAX is cut into frames
 * of that size; a subnegotiation is cut there (the rest counted shed). No transactions, no EVE
 * object (Suricata logs none): the flow's app_proto is what Telnet gives. Bytes lost
 * (telnet_gap): the line or command the hole cut is dropped and reading goes on with the
 * next byte as data, as Suricata's Telnet parser resumes at once after a gap. */
#include <stdlib.h>
#include <string.h>

#include "telnet_int.h"

static void frame(struct pflow *pf, struct mon_flow *f, int dir, struct tn_side *s,
                  struct pbuf *b, bool ctl)
{
    if (!b->len)
        return;
    pbuf_reset(&s->frame);
    pbuf_add(&s->frame, b->p, b->len, TN_FRAME_MAX);
    s->frame_is_ctl = ctl;
    pbuf_reset(b);
    pflow_count(pf, ctl ? TN_C_CTL : TN_C_DATA, 1);
    unsigned base = dir == 0 ? TN_EV_DATA_TO_SERVER : TN_EV_DATA_TO_CLIENT;
    pflow_raise(pf, f, dir, base + (ctl ? 1u : 0u));
    if (pf->state)
        pflow_raise(pf, f, dir, base + 2u);
}

static void put(struct pflow *pf, struct pbuf *b, uint8_t c)
{
    if (pbuf_add(b, &c, 1, TN_FRAME_MAX) != 1)
        pflow_count(pf, TN_C_SHED, 1);
}

void telnet_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct telnet_state)))) {
        pf->dead[dir] = true;
        return;
    }
    struct telnet_state *st = pf->state;
    struct tn_side *s = &st->side[dir];
    for (size_t i = 0; i < n && pf->state; i++) {
        uint8_t c = d[i];
        switch (s->at) {
        case TN_DATA:
            if (c == TN_IAC) {
                s->at = TN_GOT_IAC;
                break;
            }
            put(pf, &s->data, c);
            if (c == '\n' || s->data.len >= TN_FRAME_MAX)
                frame(pf, f, dir, s, &s->data, false);
            break;
        case TN_GOT_IAC:
            if (c == TN_IAC) { /* an escaped 0xff: data */
                s->at = TN_DATA;
                put(pf, &s->data, c);
                break;
            }
            frame(pf, f, dir, s, &s->data, false); /* the data before the command */
            put(pf, &s->ctl, TN_IAC);
            put(pf, &s->ctl, c);
            if (c == TN_SB) {
                s->at = TN_SUB;
            } else if (c >= TN_WILL && c <= TN_DONT) {
                s->at = TN_OPTION;
            } else {
                s->at = TN_DATA;
                frame(pf, f, dir, s, &s->ctl, true);
            }
            break;
        case TN_OPTION:
            put(pf, &s->ctl, c);
            s->at = TN_DATA;
            frame(pf, f, dir, s, &s->ctl, true);
            break;
        case TN_SUB:
            put(pf, &s->ctl, c);
            if (c == TN_IAC)
                s->at = TN_SUB_IAC;
            break;
        case TN_SUB_IAC:
            put(pf, &s->ctl, c);
            if (c == TN_SE) {
                s->at = TN_DATA;
                frame(pf, f, dir, s, &s->ctl, true);
            } else {
                s->at = TN_SUB; /* IAC IAC inside: a 0xff of the negotiation */
            }
            break;
        }
    }
}

void telnet_gap(struct pflow *pf, struct mon_flow *f, int dir)
{
    (void)f;
    struct telnet_state *st = pf->state;
    if (!st)
        return;
    struct tn_side *s = &st->side[dir];
    pbuf_reset(&s->data);
    pbuf_reset(&s->ctl);
    s->at = TN_DATA;
}

void telnet_end(struct pflow *pf, struct mon_flow *f)
{
    struct telnet_state *st = pf->state;
    for (int dir = 0; st && dir < 2 && pf->state; dir++) /* a last line without its LF */
        frame(pf, f, dir, &st->side[dir], &st->side[dir].data, false);
}

void telnet_free(void *state)
{
    struct telnet_state *st = state;
    if (!st)
        return;
    for (int k = 0; k < 2; k++) {
        pbuf_free(&st->side[k].data);
        pbuf_free(&st->side[k].ctl);
        pbuf_free(&st->side[k].frame);
    }
    free(st);
}
