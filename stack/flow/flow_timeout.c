/* flow_timeout.c — coarse flow state and idle timeouts.
 *
 * Each timeout class has one fixed idle timeout, so a list per class kept in order of last
 * activity (a packet moves its flow to the tail) is also in order of expiry — on the
 * table's clock, which never goes back (flow_clock.c): expiring only ever looks at list
 * heads. */
#include "flow_internal.h"

static enum mon_flow_tclass class_of(const struct mon_flow *f)
{
    switch (f->proto) {
    case 6:
        return f->state == MON_FLOW_NEW ? MON_TC_TCP_NEW
             : f->state == MON_FLOW_ESTABLISHED ? MON_TC_TCP_EST : MON_TC_TCP_CLOSED;
    case 17:
        return f->state == MON_FLOW_NEW ? MON_TC_UDP_NEW : MON_TC_UDP_EST;
    case 1:
    case 58:
        return f->state == MON_FLOW_NEW ? MON_TC_ICMP_NEW : MON_TC_ICMP_EST;
    default:
        return f->state == MON_FLOW_NEW ? MON_TC_OTHER_NEW
             : f->state == MON_FLOW_ESTABLISHED ? MON_TC_OTHER_EST : MON_TC_OTHER_CLOSED;
    }
}

void flow_lru_append(struct mon_flow_table *t, uint32_t idx)
{
    struct mon_flow *f = flow_at(t, idx);
    struct flow_lru *l = &t->lru[f->tclass];
    f->lnext = 0;
    f->lprev = l->tail;
    if (l->tail)
        flow_at(t, l->tail)->lnext = idx;
    else
        l->head = idx;
    l->tail = idx;
}

void flow_lru_remove(struct mon_flow_table *t, uint32_t idx)
{
    struct mon_flow *f = flow_at(t, idx);
    if (f->tclass >= MON_TC__COUNT)
        return;
    struct flow_lru *l = &t->lru[f->tclass];
    if (f->lprev)
        flow_at(t, f->lprev)->lnext = f->lnext;
    else
        l->head = f->lnext;
    if (f->lnext)
        flow_at(t, f->lnext)->lprev = f->lprev;
    else
        l->tail = f->lprev;
    f->lprev = f->lnext = 0;
    f->tclass = MON_TC__COUNT;
}

void flow_update_state(struct mon_flow_table *t, uint32_t idx, const struct mon_packet *p, int dir)
{
    struct mon_flow *f = flow_at(t, idx);
    f->pkts[dir]++;
    f->bytes[dir] += (p->flags & MON_PKT_REASSEMBLED) ? p->l3_len : p->caplen;
    if (p->ts_us > f->last_us)
        f->last_us = p->ts_us;
    f->idle_us = t->clock.now; /* (mon_flow_handle advanced it with this packet) */

    if (f->proto == 6) {
        f->tcp_flags[dir] |= p->tcp_flags;
        if (p->tcp_flags & MON_TH_RST) {
            f->state = MON_FLOW_CLOSED;
        } else if (p->tcp_flags & MON_TH_FIN) {
            f->fin_seen |= (uint8_t)(1u << dir);
            if (f->fin_seen == 3)
                f->state = MON_FLOW_CLOSED;
        } else if (f->state == MON_FLOW_NEW && f->pkts[0] && f->pkts[1] &&
                   !(p->tcp_flags & MON_TH_SYN)) {
            /* both sides spoke and the handshake is over; stack/tcp refines this per side */
            f->state = MON_FLOW_ESTABLISHED;
        }
    } else {
        if ((f->proto == 1 || f->proto == 58) && f->pkts[dir] == 1) {
            f->icmp_type[dir] = p->icmp_type;
            f->icmp_code[dir] = p->icmp_code;
        }
        if (f->state == MON_FLOW_NEW && f->pkts[0] && f->pkts[1])
            f->state = MON_FLOW_ESTABLISHED;
    }

    enum mon_flow_tclass c = class_of(f);
    if (f->tclass == c && t->lru[c].tail == idx)
        return;
    flow_lru_remove(t, idx);
    f->tclass = (uint8_t)c;
    flow_lru_append(t, idx);
}

bool flow_idle_expired(const struct mon_flow_table *t, const struct mon_flow *f, uint64_t now_us)
{
    return f->tclass < MON_TC__COUNT &&
           f->idle_us + (uint64_t)t->cfg.timeout_s[f->tclass] * 1000000u <= now_us;
}

void mon_flow_expire(struct mon_flow_table *t, uint64_t now_us)
{
    now_us = mon_flow_clock(t, now_us);
    for (int c = 0; c < MON_TC__COUNT; c++) {
        uint64_t tmo = (uint64_t)t->cfg.timeout_s[c] * 1000000u;
        uint32_t idx;
        while ((idx = t->lru[c].head) != 0 && flow_at(t, idx)->idle_us + tmo <= now_us)
            flow_end(t, idx, MON_FLOW_END_TIMEOUT);
    }
}

void mon_flow_flush(struct mon_flow_table *t)
{
    /* oldest first, so records come out in a stable, time-ordered way */
    uint32_t idx;
    while ((idx = flow_oldest(t)) != 0)
        flow_end(t, idx, MON_FLOW_END_SHUTDOWN);
}

uint32_t flow_oldest(const struct mon_flow_table *t)
{
    uint32_t best = 0;
    for (int c = 0; c < MON_TC__COUNT; c++) {
        uint32_t h = t->lru[c].head;
        if (h && (!best || flow_at(t, h)->idle_us < flow_at(t, best)->idle_us))
            best = h;
    }
    return best;
}

void mon_flow_each(struct mon_flow_table *t, void (*fn)(struct mon_flow *f, void *arg), void *arg)
{
    /* every live flow is on exactly one class list */
    for (int c = 0; c < MON_TC__COUNT; c++)
        for (uint32_t idx = t->lru[c].head; idx;) {
            struct mon_flow *f = flow_at(t, idx);
            idx = f->lnext; /* read first: fn may not end flows, but may look at anything */
            fn(f, arg);
        }
}
