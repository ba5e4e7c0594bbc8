/* bookkeeping.c — what every decoder records on the packet: layers, tunnels, anomalies,
 * the inner-IP reset and defrag's answer. A leaf: it calls no decoder, so the decoders can
 * all call it without closing a circle. */
#include "decode_internal.h"

enum dec_rc dec_bad(struct dec *c, enum mon_decode_event e)
{
    c->d->stats.event[e]++;
    c->p->anomaly = (uint16_t)(e + 1);
    return DEC_BAD;
}

void dec_note(struct dec *c, enum mon_decode_event e)
{
    c->d->stats.event[e]++;
    c->p->anomaly = (uint16_t)(e + 1);
}

bool dec_push(struct dec *c, enum mon_layer_kind k, const uint8_t *hdr, uint32_t len)
{
    struct mon_packet *p = c->p;
    if (p->nlayers >= MON_MAX_LAYERS) {
        dec_bad(c, MON_DE_LAYERS_TOO_MANY);
        return false;
    }
    struct mon_layer *l = &p->layer[p->nlayers++];
    l->hdr = hdr;
    l->len = len;
    l->kind = (uint8_t)k;
    return true;
}

bool dec_tunnel(struct dec *c, enum mon_tunnel_kind k)
{
    struct mon_packet *p = c->p;
    unsigned max = c->d->cfg.max_tunnel_depth;
    if (max > MON_MAX_TUNNELS)
        max = MON_MAX_TUNNELS;
    if (p->ntunnels >= max) {
        dec_bad(c, MON_DE_TUNNEL_TOO_DEEP);
        return false;
    }
    p->tunnel[p->ntunnels++] = (uint8_t)k;
    return true;
}

/* A new (inner) IP header starts: whatever an outer transport header left is not ours. */
void dec_ip_enter(struct dec *c)
{
    struct mon_packet *p = c->p;
    p->l4 = NULL;
    p->l4_len = 0;
    p->payload = NULL;
    p->payload_len = 0;
    p->sport = p->dport = 0;
    p->icmp_type = p->icmp_code = 0;
    p->icmp_id = 0;
    p->tcp_flags = 0;
    p->tcp_wscale = 0xff;
    p->tcp_win = 0;
    p->tcp_urp = 0;
    p->tcp_mss = 0;
    p->tcp_seq = p->tcp_ack = 0;
    p->tcp_tsval = p->tcp_tsecr = 0;
    p->flags &= ~(uint32_t)(MON_PKT_HAS_L4 | MON_PKT_TCP_HAS_TS | MON_PKT_TCP_SACKOK);
}

/* Valid frame that carries something other than IP: record where it starts. */
enum dec_rc dec_non_ip(struct dec *c, const uint8_t *b, uint32_t len)
{
    return dec_push(c, MON_L_OTHER, b, len) ? DEC_OK : DEC_BAD;
}

enum dec_rc dec_defrag_result(struct dec *c, int r, const uint64_t *before)
{
    if (r == 1)
        return DEC_OK;
    int ev = -1;
    for (int i = 0; i < MON_DE__COUNT; i++)
        if (c->d->stats.event[i] != before[i])
            ev = i;
    if (ev >= 0)
        c->p->anomaly = (uint16_t)(ev + 1);
    if (r == 0)  /* kept (or dropped with its anomaly counted): nothing more to decode */
        return DEC_HELD;
    if (ev < 0)  /* invalid, but defrag did not say why: still exactly one anomaly */
        return dec_bad(c, MON_DE_FRAG_INVALID);
    return DEC_BAD;
}
