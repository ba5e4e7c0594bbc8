/* payload_scan.c — a TCP packet's own payload run through the stream chains, where only
 * their packet twins may match: the payload of a packet no connection takes (an orphan), and
 * under ack delivery each connection packet's payload on its arrival (Suricata's
 * packet-inspected rules). Called by runtime.c's PKT_IN and ORPHAN handlers. */
#include <stdlib.h>

#include "detect_int.h"

/* The payload of a TCP packet no connection takes (never picked up for want of midstream, a
 * segment no stack accepts, such as one without flags; data after the end) is still inspected by the TCP payload rules' packet chains,
 * as Suricata inspects such a packet's payload: the stream chains run with the payload as
 * the receiving side's only bytes (the side's window is set aside meanwhile), and only their
 * packet twins may match. */
void det_orphan_payload(struct osprey_detect_worker *w, struct mon_ctx *ctx, struct mon_flow *f,
                        int rcv, struct det_flow *df, const struct mon_packet *p, bool arrival)
{
    const struct det_mpm *m = &w->d->mpm[DK_STREAM];
    struct det_side *saved = df->side[rcv];
    bool streaming = m->streaming && m->ready; /* detect.stream-mpm: stream — its own stream */
    struct det_side tmp = {0};
    /* an arrival scan (every connection packet with data, under ack delivery): the arrival
     * database of the pkt_required twins' patterns, one block pass, into the worker's side
     * reused from packet to packet (no allocation per packet) */
    bool block = arrival && streaming;
    struct det_side *s = block ? &w->arrival : &tmp;
    s->nseen = s->seen_hint = s->nfired = 0;
    s->buf = (uint8_t *)(uintptr_t)p->payload;
    s->len = s->cap = p->payload_len;
    s->base = s->scanned = 0;
    df->side[rcv] = s;
    bool scanned = false;
    if (block)
        scanned = det_mpm_arrival_scan(w, s, f, rcv, p);
    else if (streaming && !det_mpm_orphan_scan(w, s, f, rcv, p))
        det_mpm_feed(m, s, w->scratch, &w->pf, f, rcv, p->payload, p->payload_len);
    /* an arrival scan that found no pattern leaves no chain to run when every pkt_required
     * twin has a fast pattern: the walk of the stream chains is skipped (most packets; 1.3 %
     * of the processing instructions on bench-s) */
    w->orphan_scan = true;
    if (!scanned || s->nseen || w->d->arrival_unprefiltered)
        mon_run_event(ctx, f, rcv, w->d->base_ev[DB_STREAM]);
    w->orphan_scan = false;
    s->buf = NULL;
    s->len = s->cap = 0;
    if (s == &tmp) {
        det_mpm_close(s, w->scratch);
        free(s->seen);
        free(s->fired);
    }
    df->side[rcv] = saved;
}

/* Ack delivery (Suricata's IDS stream model): a side's bytes reach the stream chains in
 * chunks, with a later packet than theirs, but Suricata inspects every packet's own payload
 * for the rules whose contents have a depth or an offset, or that use stream_size
 * (SIG_FLAG_REQUIRE_PACKET), as it arrives: those packet twins run here, on PKT_IN, on the
 * payload as an orphan's is (offsets from its start); the other packet twins do not run for
 * a connection's packets (Suricata skips the packet payload of a packet added to the stream
 * for them). */
void det_arrival_twins(struct osprey_detect_worker *w, struct mon_ctx *ctx, struct mon_flow *f,
                       int side, struct det_flow *df, mon_event_t ev)
{
    if (!w->policy.ack_delivery || !w->d->has_pkt_required || ev != MON_ON_PKT_IN ||
        f->proto != 6 || !w->d->stream_root || det_flow_stopped(df) ||
        det_payload_off(ctx, f, df))
        return;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    if (!p || !p->payload_len ||
        !((f->tcp.side[MON_SIDE_CLI].flags | f->tcp.side[MON_SIDE_SVR].flags) & MON_TCPF_LIVE))
        return;
    w->arrival_scan = true;
    w->arrival_side = det_side_of(df, side ^ 1);
    det_orphan_payload(w, ctx, f, side ^ 1, df, p, true);
    w->arrival_scan = false;
    w->arrival_side = NULL;
}

