/* held.c — a packet's alerts held to its end, so that a pass rule matched in a later phase of
 * the same packet (its stream, its application events) still cancels them, as Suricata's one
 * pass over a packet's rules resolves its alerts by action priority (pass first).
 *
 * Only a ruleset with a pass rule (or a rate_filter, whose new action may be pass) holds
 * alerts; any other gives each alert to the callback at its commit, as before. */
#include <stdlib.h>

#include "detect_int.h"

/* Give every held alert to the callback, in commit order. */
static void flush(struct osprey_detect_worker *w)
{
    uint32_t n = w->nheld;
    w->nheld = 0; /* (a callback cannot re-enter detection, but stay safe) */
    for (uint32_t i = 0; i < n; i++)
        if (w->cb)
            w->cb(&w->held[i].a, w->arg);
}

void det_alert(struct osprey_detect_worker *w, const struct osprey_alert *a)
{
    w->alerts++;
    if (!w->d->hold_alerts) {
        if (w->cb)
            w->cb(a, w->arg);
        return;
    }
    if (w->nheld == w->cap_held) {
        uint32_t cap = w->cap_held ? 2 * w->cap_held : 16;
        struct det_held *h = realloc(w->held, cap * sizeof *h);
        if (!h) { /* out of memory: this alert cannot wait, it is given now */
            if (w->cb)
                w->cb(a, w->arg);
            return;
        }
        w->held = h;
        w->cap_held = cap;
    }
    w->held[w->nheld++] = (struct det_held){.a = *a};
}

/* A pass rule matched on this packet: the alerts of other actions held so far are dropped
 * (a pass rule's own alert, `alert` keyword, stays, and so do the firewall's: a pass rule
 * does not touch the firewall), and a drop or reject a rule of this packet decided is taken
 * back. */
void det_pass_packet(struct osprey_detect_worker *w)
{
    w->pkt_pass = true;
    uint32_t k = 0;
    for (uint32_t i = 0; i < w->nheld; i++)
        if (w->held[i].a.action == OSPREY_ACTION_PASS || w->held[i].a.firewall)
            w->held[k++] = w->held[i];
        else
            w->alerts--;
    w->nheld = k;
    if (w->pkt_rule_drop) {
        w->pkt_rule_drop = false;
        w->pkt_dropped = w->pkt_flow_dropped;
        w->verdicts.dropped--;
        if (w->pkt_reject != OSPREY_REJECT_NONE) {
            w->pkt_reject = OSPREY_REJECT_NONE;
            w->verdicts.rejected--;
        }
    }
    if (w->drop_df) { /* a flow this packet's rule dropped: it is not dropped after all */
        w->drop_df->dropped = false;
        w->drop_df->dropped_on = 0;
        w->drop_df = NULL;
    }
}

void osprey_detect_packet_end(struct osprey_detect_worker *w)
{
    if (w && w->nheld)
        flush(w);
    if (w)
        det_fw_packet_end(w); /* firewall mode's counters (firewall.c) */
}
