/* pending.c — the matches a phase collects for its commit: a packet's clean start
 * (det_new_packet), a leaf's or a deferred gate's match appended to the worker's pending list,
 * and the flowbits gate. Called by the leaves (runtime.c), the decoder-event leaves (events.c)
 * and --explain's wrapped filters (explain_trace.c); calls none of them back. */
#include <stdlib.h>

#include "detect_int.h"
#include "opt_eval.h"

void det_new_packet(struct osprey_detect_worker *w)
{
    /* DECODE_EVENT runs before PKT_IN/ORPHAN for the same packet: its verdict must stay */
    uint64_t n = mon_ctx_decode_stats(w->ctx)->pkts;
    w->npending = 0;
    if (n == w->verdict_of)
        return;
    w->verdict_of = n;
    w->nretry = 0;
    w->pre_valid = false; /* a merged arrival scan's packet patterns were the last packet's */
    if (w->nheld) /* a caller that did not call osprey_detect_packet_end */
        osprey_detect_packet_end(w);
    det_caps_packet_end(w); /* (after the held alerts: they point into its variables) */
    w->pkt_dropped = false;
    w->pkt_flow_dropped = false;
    w->pkt_rule_drop = false;
    w->pkt_pass = false;
    w->drop_df = NULL;
    w->fw = (struct det_fw_packet){0};
    w->pkt_reject = OSPREY_REJECT_NONE;
    w->ntwin_hits = 0;
}

/* Append to a growing array of matches; false: out of memory (the match is lost). */
bool det_pending_push(struct det_pending **arr, uint32_t *n, uint32_t *cap,
                         struct det_pending pm)
{
    if (*n == *cap) {
        uint32_t c = *cap ? *cap * 2 : 64;
        struct det_pending *p = realloc(*arr, c * sizeof *p);
        if (!p)
            return false;
        *arr = p;
        *cap = c;
    }
    (*arr)[(*n)++] = pm;
    return true;
}

void det_add_pending(struct osprey_detect_worker *w, const struct det_rule *dr,
                     struct mon_flow *f, int side, bool deferred)
{
    det_pending_push(&w->pending, &w->npending, &w->cap_pending,
                 (struct det_pending){dr, f, side, w->npending, deferred, false});
}

bool det_gate_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                     void *arg)
{
    (void)ev;
    const struct det_rule *dr = arg;
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    if (!df || det_flow_stopped(df) || det_chain_off(df->w, dr))
        return false; /* the leaf would not take the match either */
    if (dr->rate) /* a rate_filter may make it a drop: keep the walk's order */
        return true;
    bool set = true;
    for (uint32_t i = 0; i < dr->nconds && set; i++)
        set = flowbits_test(dr->conds[i].b, dr->conds[i].ids, df->bits);
    if (set)
        return true;
    /* unset now: only a setter committed before it in this commit can set it; decide then */
    det_add_pending(df->w, dr, f, side, true);
    return false;
}
