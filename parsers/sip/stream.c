/* stream.c — SIP messages out of UDP datagrams (one message each, RFC 3261 §18.3) and out of
 * TCP streams (a head up to its empty line, then Content-Length bytes of body; no
 * Content-Length: no body). Each message is a transaction of its own, as Suricata's: its
 * event runs (sip_request / sip_response) with its buffers current, then its record. Bytes
 * gathered on TCP are bounded by SIP_MSG_MAX: a longer body is cut there (the rest skipped,
 * counted as sip_too_large), a longer head gives the direction up. CR/LF between messages
 * (keep-alives, RFC 5626 §3.5.1) are skipped. */
#include <stdlib.h>
#include <string.h>

#include "sip_int.h"

/* The flow's state; NULL when out of memory. */
static struct sip_state *state_of(struct pflow *pf)
{
    if (!pf->state)
        pf->state = calloc(1, sizeof(struct sip_state));
    return pf->state;
}

/* d[0..n) is one whole message of direction dir (cut: its body was longer than kept). */
static void message(struct pflow *pf, struct mon_flow *f, int dir, struct sip_state *st,
                    const uint8_t *d, size_t n, bool cut)
{
    uint32_t shed = 0;
    enum sip_parse r = sip_msg_parse(&st->msg, d, n, &shed);
    if (r == SIP_OK && st->msg.response != (dir == 1))
        r = SIP_INVALID; /* a request to the client, a response to the server: Suricata reads
                            each direction as one kind only */
    if (r != SIP_OK) {
        st->msg.line.set = false; /* no message in force */
        pflow_count(pf, SIP_C_MALFORMED, 1);
        pflow_anomaly(pf, f, dir, r == SIP_INCOMPLETE ? SIP_AE_INCOMPLETE_DATA
                                                      : SIP_AE_INVALID_DATA);
        return;
    }
    st->msg.body_cut |= cut;
    if (shed)
        pflow_count(pf, SIP_C_HEADERS_SHED, shed);
    uint32_t sdp_shed = sip_sdp_parse(&st->msg);
    if (sdp_shed)
        pflow_count(pf, SIP_C_SDP_SHED, sdp_shed);
    pflow_count(pf, SIP_C_MESSAGES, 1);
    pflow_raise(pf, f, dir, st->msg.response ? SIP_EV_RESPONSE : SIP_EV_REQUEST);
    st->txs++;
    pflow_tx_done(pf, f);
}

void sip_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!n)
        return; /* an empty datagram carries no message */
    struct sip_state *st = state_of(pf);
    if (!st) {
        pf->dead[dir] = true;
        return;
    }
    if (n > SIP_MSG_MAX)
        pflow_count(pf, SIP_C_TOO_LARGE, 1);
    message(pf, f, dir, st, d, n, n > SIP_MSG_MAX);
}

void sip_parse_tcp(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct sip_state *st = state_of(pf);
    if (!st) {
        pf->dead[dir] = true;
        return;
    }
    struct sip_side *s = &st->side[dir];
    while (n) {
        if (s->skip) { /* the rest of a body past the limit */
            size_t k = n < s->skip ? n : (size_t)s->skip;
            s->skip -= k, d += k, n -= k;
            continue;
        }
        if (!s->in.len) { /* between messages: CR/LF keep-alives */
            while (n && (*d == '\r' || *d == '\n'))
                d++, n--;
            if (!n)
                return;
        }
        size_t room = SIP_MSG_MAX - s->in.len, k = n < room ? n : room;
        pbuf_add(&s->in, d, k, SIP_MSG_MAX);
        d += k, n -= k;
        for (;;) { /* every message now whole in s->in */
            size_t head = sip_head_end(s->in.p, s->in.len, &s->scan);
            if (!head) {
                if (s->in.len >= SIP_MSG_MAX) { /* a head past the limit */
                    pflow_count(pf, SIP_C_TOO_LARGE, 1);
                    pflow_anomaly(pf, f, dir, SIP_AE_INVALID_DATA);
                    pf->dead[dir] = true;
                    pbuf_free(&s->in);
                    s->scan = 0;
                    return;
                }
                break;
            }
            int64_t cl = sip_head_content_length(s->in.p, head);
            uint64_t want = (uint64_t)head + (uint64_t)(cl > 0 ? cl : 0);
            if (want > SIP_MSG_MAX) { /* keep what fits, skip the rest of the body */
                if (s->in.len < SIP_MSG_MAX)
                    break;
                pflow_count(pf, SIP_C_TOO_LARGE, 1);
                s->skip = want - SIP_MSG_MAX;
                message(pf, f, dir, st, s->in.p, SIP_MSG_MAX, true);
                pbuf_reset(&s->in);
                s->scan = 0;
                break;
            }
            if (s->in.len < want)
                break;
            message(pf, f, dir, st, s->in.p, (size_t)want, false);
            pbuf_consume(&s->in, (uint32_t)want);
            s->scan = 0;
            size_t lead = 0; /* keep-alives after it */
            while (lead < s->in.len && (s->in.p[lead] == '\r' || s->in.p[lead] == '\n'))
                lead++;
            pbuf_consume(&s->in, (uint32_t)lead);
            if (!s->in.len)
                break;
        }
    }
}

uint32_t sip_tx_id(const struct pflow *pf)
{
    const struct sip_state *st = pf->state;
    return st && st->txs ? st->txs - 1 : 0;
}

void sip_free(void *state)
{
    struct sip_state *st = state;
    if (!st)
        return;
    sip_msg_free(&st->msg);
    pbuf_free(&st->side[0].in);
    pbuf_free(&st->side[1].in);
    free(st);
}
