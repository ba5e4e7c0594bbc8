/* reasm_reclaim.c — taking back held out-of-order data when the reassembly memcap is hit.
 *
 * Out-of-order bytes wait above a hole for bytes that may never come: an attacker that opens
 * many connections and sends everything but their first byte fills the memcap with them,
 * and every connection that starts afterwards gets no buffer and goes uninspected. So a
 * request over the memcap first frees the held out-of-order data of other streams, least
 * recently stored to first (an idle holder is the likeliest to be waiting in vain), and
 * shrinks their rings to what their unread in-order bytes need. In-order bytes are never
 * taken: they were announced and a reader may not have read them yet.
 *
 * What a reclaimed stream loses is what the host it watches received and we did not keep:
 * when the host acknowledges past it, the receiver gives it up as a gap (tcp_receiver.c),
 * exactly as for capture loss. Each reclaim counts `reclaims` and `reclaimed_bytes` and
 * marks the packet being processed with `reassembly_memcap_reclaim`.
 *
 * The holders are a doubly linked list through the streams (no allocation): a stream joins
 * (or moves to the end) whenever it stores out-of-order data and leaves when it is freed or
 * reclaimed; one that absorbed its pieces meanwhile stays on it until a reclaim walks past.
 */
#include <stdlib.h>

#include "tcp_internal.h"

static void unlink_holder(struct tcp_ctx *t, struct mon_reasm *r)
{
    if (r->hold_prev)
        r->hold_prev->hold_next = r->hold_next;
    else
        t->hold_first = r->hold_next;
    if (r->hold_next)
        r->hold_next->hold_prev = r->hold_prev;
    else
        t->hold_last = r->hold_prev;
    r->hold_prev = r->hold_next = NULL;
    r->holding = false;
}

void reasm_hold_touch(struct tcp_ctx *t, struct mon_reasm *r)
{
    if (r->holding) {
        if (t->hold_last == r)
            return;
        unlink_holder(t, r);
    }
    r->hold_prev = t->hold_last;
    r->hold_next = NULL;
    if (t->hold_last)
        t->hold_last->hold_next = r;
    else
        t->hold_first = r;
    t->hold_last = r;
    r->holding = true;
}

void reasm_hold_drop(struct tcp_ctx *t, struct mon_reasm *r)
{
    if (r->holding)
        unlink_holder(t, r);
}

/* Free what r holds out of order and shrink its ring to its unread in-order bytes. */
static void reclaim_one(struct tcp_ctx *t, struct mon_reasm *r)
{
    uint64_t before = t->stats.reasm_memuse;
    r->npc = 0;
    tcp_mem_give(t, (uint64_t)r->cap * sizeof *r->pc);
    free(r->pc);
    r->pc = NULL;
    r->cap = 0;
    uint64_t want = REASM_INITIAL;
    while (want < r->tail - r->read && want < r->size)
        want *= 2;
    uint32_t ra;
    if (want < r->size) /* without memory for the smaller ring the ring stays as it is */
        (void)reasm_resize(t, r, (uint32_t)want, &ra); /* no outrun: want >= tail - read */
    t->stats.reclaims++;
    t->stats.reclaimed_bytes += before - t->stats.reasm_memuse;
    t->pkt_events |= 1ull << MON_TE_REASM_RECLAIM;
}

bool reasm_reclaim(struct tcp_ctx *t, const struct mon_reasm *self, uint64_t bytes)
{
    struct mon_reasm *r = t->hold_first;
    while (r && t->stats.reasm_memuse + bytes > t->cfg.memcap) {
        struct mon_reasm *next = r->hold_next;
        if (r != self) {
            unlink_holder(t, r);
            if (r->npc)
                reclaim_one(t, r);
        }
        r = next;
    }
    return t->stats.reasm_memuse + bytes <= t->cfg.memcap;
}
