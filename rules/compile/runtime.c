/* runtime.c — a worker's side of detection: per-flow state, the handlers on the base events
 * (they run before the chains below them: libmon runs a node's handlers, then its children),
 * and the action handler at each chain's leaf. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"
#include "explain.h"
#include "opt_eval.h"


/* PKT_IN root handler: the packet's verdict starts clean, and the flow's detection state
 * exists before any chain filter looks. */
static void on_pkt(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    struct osprey_detect_worker *w = arg;
    if (w->prof)
        det_prof_enter(w); /* the filters time into this worker's slots */
    det_new_packet(w);
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    w->pkt_tagged = w->tags && det_tag_packet(w->tags, df ? &df->tag : NULL, mon_getlastpkt(ctx));
    if (!f)
        return;
    if (df) {
        if (df->dropped) { /* subsequent packets of a dropped flow are dropped */
            if (df->fw.dropped)
                w->fw.reason = FWR_FLOW_DROP; /* the firewall's: counted as its */
            w->pkt_dropped = true;
            w->pkt_flow_dropped = true;
            w->verdicts.dropped++;
            w->verdicts.dropped_flow++;
        }
        det_arrival_twins(w, ctx, f, side, df, ev);
        return;
    }
    size_t words = (w->d->nbit_names + 63) / 64;
    /* once per flow, not per packet */
    size_t bytes = sizeof *df + words * sizeof df->bits[0];
    df = calloc(1, bytes);
    if (!df)
        return; /* the flow goes uninspected; filters treat a missing state as no match */
    df->w = arg;
    /* charged to flow.memcap: a flood of flows cannot grow it past the cap (issue 17) */
    df->charged = (uint32_t)bytes + MON_MALLOC_OVERHEAD;
    mon_ctx_charge(ctx, (int64_t)df->charged);
    mon_set_uctx(ctx, f, df);
    if (w->policy.midstream == OSPREY_MIDSTREAM_PASS_FLOW && f->proto == 6 &&
        (f->tcp.side[MON_SIDE_CLI].flags & MON_TCPF_MIDSTREAM)) {
        df->pass = true; /* stream.midstream-policy pass-flow: no detection on this session */
        w->verdicts.passed_flows++;
        w->verdicts.midstream_passed++;
    } else if (w->policy.midstream >= OSPREY_MIDSTREAM_DROP_FLOW && f->proto == 6 &&
               (f->tcp.side[MON_SIDE_CLI].flags & MON_TCPF_MIDSTREAM)) {
        /* picked up from its SYN-ACK (stream.async-oneside) while drop-flow or reject holds
         * for sessions not started by a SYN (a midstream pick-up is refused under them, an
         * unpicked session is dropped in on_orphan): dropped whole, as Suricata does */
        df->dropped = true;
        w->pkt_dropped = true;
        w->verdicts.dropped++;
        w->verdicts.midstream_dropped++;
    }
    det_arrival_twins(w, ctx, f, side, df, ev);
}

/* A packet libmon tracks no connection for (ORPHAN: a TCP flow never picked up, or no flow)
 * gets a clean verdict and, when it has a flow, the packet rules as any packet. */
static void on_orphan(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                      void *arg)
{
    struct osprey_detect_worker *w = arg;
    on_pkt(ctx, f, side, ev, arg); /* a clean verdict, the flow's detection state */
    /* stream.midstream-policy for a TCP flow the stack never picked up (no side LIVE: not the
     * late packets of a connection that ended); a RST, or a packet with a bad checksum,
     * starts no session, so it is no midstream pick-up either (as in Suricata) */
    const struct mon_packet *p = mon_getlastpkt(ctx);
    bool never_picked_up =
        f && f->proto == 6 && p && !(p->tcp_flags & MON_TH_RST) &&
        !(p->flags & MON_PKT_BAD_L4_CSUM) &&
        !((f->tcp.side[MON_SIDE_CLI].flags | f->tcp.side[MON_SIDE_SVR].flags) & MON_TCPF_LIVE);
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    if (!f) {
        /* no flow at all: an IP packet whose transport header is broken (decoding stopped
         * after the IP header). Suricata still runs its packet rules: `alert ip` sees its
         * addresses, a tcp rule its protocol (rules needing a flow or a payload do not match) */
        if (p && p->ipver && w->d->pkt_root)
            mon_run_event(ctx, NULL, side, w->d->base_ev[DB_PKT]);
        return;
    }
    if (never_picked_up && w->policy.midstream >= OSPREY_MIDSTREAM_DROP_FLOW) {
        w->pkt_dropped = true; /* drop-flow / reject: dropped whole, not inspected */
        w->verdicts.dropped++;
        w->verdicts.midstream_dropped++;
        if (w->policy.midstream == OSPREY_MIDSTREAM_REJECT && f->pkts[0] + f->pkts[1] == 1) {
            w->verdicts.rejected++; /* its first packet: later ones are only dropped */
            w->pkt_reject = OSPREY_REJECT_RST;
            w->pkt_reject_to = OSPREY_REJECT_TO_SRC;
        }
        return;
    }
    if (!df || df->pass || df->dropped)
        return;
    if (never_picked_up && w->policy.midstream == OSPREY_MIDSTREAM_PASS_FLOW) {
        df->pass = true; /* pass-flow / bypass: such a session is not inspected */
        w->verdicts.passed_flows++;
        w->verdicts.midstream_passed++;
        return;
    }
    if (w->d->pkt_root) /* the packet rules, as for any packet */
        mon_run_event(ctx, f, side, w->d->base_ev[DB_PKT]);
    /* a data segment of a session left unpicked for want of midstream (IDS: its policy is
     * ignore), one no session could take (no ACK, e.g. no flags at all) or data after the end:
     * Suricata tracks no stream for it but still inspects its payload as a packet's
     * (suricata-verify bug-8021-alert-max-verdict-02: a lone mid-session PSH/ACK alerts) */
    if (w->d->stream_root && f->proto == 6 && p && p->payload_len && !det_flow_stopped(df))
        det_orphan_payload(w, ctx, f, side ^ 1, df, p, false);
}

/* ERROR on a side (receiver's phase): when its buffer could not be had for the reassembly
 * memcap, stream.reassembly.memcap-policy acts on the flow (osprey_detect.h). */
static void on_error(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                     void *arg)
{
    (void)ev;
    struct osprey_detect_worker *w = arg;
    enum osprey_exception_policy pol = w->policy.reassembly_memcap;
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    if (pol == OSPREY_EXCEPTION_IGNORE || pol == OSPREY_EXCEPTION_PASS_PACKET || !df)
        return;
    uint32_t bits = 0;
    size_t len = sizeof bits;
    if (mon_getsockopt(ctx, f, side, MON_SO_ERROR, &bits, &len) != MON_OK ||
        !(bits & MON_ERR_MEMCAP))
        return;
    w->verdicts.memcap_exceptions++;
    if (pol == OSPREY_EXCEPTION_PASS_FLOW || pol == OSPREY_EXCEPTION_BYPASS) {
        df->pass = true;
        return;
    }
    if (!w->pkt_dropped)
        w->verdicts.dropped++;
    w->pkt_dropped = true;
    if (pol == OSPREY_EXCEPTION_DROP_PACKET)
        return;
    df->dropped = true;
    if (pol == OSPREY_EXCEPTION_REJECT && w->pkt_reject == OSPREY_REJECT_NONE) {
        w->verdicts.rejected++;
        w->pkt_reject = OSPREY_REJECT_RST;
        w->pkt_reject_to = OSPREY_REJECT_TO_SRC;
    }
}

/* What the side's whole-stream copy (the design before the windows) allocated for n bytes:
 * 4 KiB, doubled as needed, up to the inspection cap. For osprey_detect_worker_mem. */
static uint64_t copy_cap(uint64_t n)
{
    uint64_t c = n ? 4096 : 0;
    while (c < n && c < DET_STREAM_MAX)
        c *= 2;
    return c;
}

/* CONN_NEW_DATA root handler: append the side's new in-order bytes to its inspection window
 * (and, with detect.stream-mpm: stream, feed the same bytes to the side's Hyperscan stream;
 * the multi-event filter below then only raises what it found). The window keeps DET_WINDOW
 * bytes before the new ones, so a side costs at most that plus one delivery, however long
 * its stream. Stream positions (offset, depth) count from the side's first byte, as
 * Suricata's do; inspection stops DET_STREAM_MAX bytes into the stream. */
static void on_data(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                    void *arg)
{
    (void)ev;
    det_stream_fill(ctx, f, side, arg);
}

void det_stream_fill(struct mon_ctx *ctx, struct mon_flow *f, int side,
                     struct osprey_detect_worker *w)
{
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    if (!df || det_flow_stopped(df))
        return;
    /* an encrypted flow's stream: nothing more, or (unreassembled) what came before */
    uint64_t cut = UINT64_MAX;
    if (det_payload_off(ctx, f, df)) {
        if (df->payload_off != OSPREY_PAYLOAD_UNREASSEMBLED)
            return;
        cut = df->payload_cut[side];
    }
    const struct det_mpm *m = &w->d->mpm[DK_STREAM];
    struct det_side *s = det_side_of(df, side);
    if (!s)
        return; /* out of memory: this side goes uninspected */
    if (s->base + s->len >= cut)
        return;
    uint64_t was = s->base + s->len, cap_was = s->cap;
    if (s->len > DET_WINDOW) {
        /* slide: the rules saw these bytes with the last delivery. The window moves up its
         * allocation and is copied back to its start only when the allocation's end is
         * reached: one copy per window's worth of data, not one per delivery */
        uint32_t drop = s->len - DET_WINDOW;
        s->buf += drop;
        s->len = DET_WINDOW;
        s->base += drop;
    }
    for (;;) {
        if (!s->full && s->base + s->len >= DET_STREAM_MAX)
            s->full = true; /* at the inspection cap: read on, keep nothing */
        uint32_t off = s->mem ? (uint32_t)(s->buf - s->mem) : 0;
        if (off + s->len == s->cap && !s->full) {
            if (off && off >= s->cap / 2) {
                memmove(s->mem, s->buf, s->len);
                s->buf = s->mem;
                off = 0;
            } else {
                /* most sides stay small; the others grow fourfold, each growth copying the
                 * window (doublings cost 0.8 % of bench-s's instructions, this half of it);
                 * still no more than DET_STREAM_MAX: 1, 4, 16, 64, 256 KiB */
                uint32_t cap = s->cap ? s->cap * 4 : 1024;
                uint8_t *b = realloc(s->mem, cap);
                if (!b) {
                    s->full = true; /* out of memory: stop inspecting this side */
                } else {
                    s->mem = b;
                    s->buf = b + off;
                    s->cap = cap;
                }
            }
        }
        uint8_t sink[4096];
        uint8_t *to = s->full ? sink : s->buf + s->len;
        size_t room = s->full ? sizeof sink : s->cap - off - s->len;
        if (!s->full && s->base + s->len + room > DET_STREAM_MAX)
            room = (size_t)(DET_STREAM_MAX - (s->base + s->len));
        if (s->base + s->len + room > cut) /* (unreassembled: up to the cut) */
            room = cut > s->base + s->len ? (size_t)(cut - (s->base + s->len)) : 0;
        if (!room)
            break;
        ssize_t n = mon_peek(ctx, f, side, to, room);
        if (n == MON_EOVERWRITTEN)
            continue; /* bytes were lost; what follows is still this side's stream */
        if (n <= 0)
            break;
        if (!s->full) {
            if (m->streaming) /* the bytes just appended, nothing before them */
                det_mpm_feed(m, s, w->scratch, &w->pf, f, side, s->buf + s->len, (size_t)n);
            s->len += (uint32_t)n;
        }
    }
    w->mem.window_bytes += s->cap - cap_was;
    w->mem.copy_bytes += copy_cap(s->base + s->len) - copy_cap(was);
    if (w->mem.window_bytes > w->mem.window_peak)
        w->mem.window_peak = w->mem.window_bytes;
    if (w->mem.copy_bytes > w->mem.copy_peak)
        w->mem.copy_peak = w->mem.copy_bytes;
}

static bool fired_before(struct det_side *s, uint32_t idx)
{
    for (uint32_t i = 0; i < s->nfired; i++)
        if (s->fired[i] == idx)
            return true;
    if (s->nfired == s->cap_fired) {
        uint32_t cap = s->cap_fired ? s->cap_fired * 2 : 4;
        uint32_t *n = realloc(s->fired, cap * sizeof *n);
        if (!n)
            return false;
        s->fired = n;
        s->cap_fired = cap;
    }
    s->fired[s->nfired++] = idx;
    return false;
}

/* A TCP payload rule matches a packet once, through its packet or its stream chain (the
 * packet's commit comes first). true: it already did on this packet. */
static bool twin_matched(struct osprey_detect_worker *w, const struct det_rule *dr,
                         const struct mon_flow *f, const struct mon_packet *p)
{
    uint64_t num = p ? p->num : 0;
    if (w->twin_flow != f || w->twin_num != num) {
        w->ntwin_hits = 0;
        w->twin_flow = f;
        w->twin_num = num;
    }
    for (uint32_t i = 0; i < w->ntwin_hits; i++)
        if (w->twin_hits[i] == dr->rule)
            return true;
    if (w->ntwin_hits < sizeof w->twin_hits / sizeof w->twin_hits[0])
        w->twin_hits[w->ntwin_hits++] = dr->rule;
    return false;
}

/* The leaf: every option of the chain held. The match waits for the phase's commit. */
static void on_match(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                     void *arg)
{
    (void)ev;
    const struct det_rule *dr = arg;
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    if (df && df->w->prof_matches)
        df->w->prof_matches[dr->idx]++;
    if (!df || det_flow_stopped(df) || det_chain_off(df->w, dr))
        return;
    /* a packet rule's app_detected chain: in IDS mode Suricata parses a packet's data when
     * the other side acks it, after inspecting the data's own packet (plan.h: PV_DETECTED) */
    if (dr->twin == DET_TWIN_DETECTED && dr->base == DB_APP_DETECTED && !df->w->policy.ips)
        return;
    det_add_pending(df->w, dr, f, side, false);
}

/* The leaf of a packet rule (per worker, so that a packet without a flow finds its worker). */
struct det_pkt_leaf {
    struct osprey_detect_worker *w;
    const struct det_rule *dr;
};

static void on_pkt_match(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                         void *arg)
{
    const struct det_pkt_leaf *l = arg;
    if (!f) {
        if (l->w->prof_matches)
            l->w->prof_matches[l->dr->idx]++;
        det_add_pending(l->w, l->dr, NULL, side, false);
        return;
    }
    on_match(ctx, f, side, ev, (void *)(uintptr_t)l->dr);
}

static int pending_cmp(const void *a, const void *b)
{
    const struct det_pending *x = a, *y = b;
    if (x->dr->order_action != y->dr->order_action)
        return x->dr->order_action < y->dr->order_action ? -1 : 1;
    if (x->dr->order_bits != y->dr->order_bits)
        return x->dr->order_bits < y->dr->order_bits ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq; /* stable: the walk's order */
}

/* The addresses xbits track: the packet's for a packet rule, else the flow's in the direction
 * of the inspected data. */
static void whom(const struct det_pending *pm, const struct det_rule *dr,
                 const struct mon_packet *p, struct det_who *who)
{
    const struct mon_flow *f = pm->f;
    if (dr->kind == DK_PKT && p) {
        memcpy(who->src, p->src.b, 16);
        memcpy(who->dst, p->dst.b, 16);
        return;
    }
    bool ts = det_to_server(pm->side, dr->base);
    memcpy(who->src, ts ? f->cli.b : f->srv.b, 16);
    memcpy(who->dst, ts ? f->srv.b : f->cli.b, 16);
}

static void set_verdict(struct osprey_detect_worker *w, struct det_flow *df,
                        const struct det_rule *dr, enum osprey_rule_action a,
                        const struct mon_packet *p)
{
    if (!w->pkt_dropped) {
        w->verdicts.dropped++;
        w->pkt_rule_drop = true; /* a later pass of this packet may take it back (held.c) */
    }
    w->pkt_dropped = true;
    /* (a match on bytes an ACK covered, parsed on its packet, drops no flow: under ack
     * delivery — IDS mode — drop only alerts, and the rest of the flow is still inspected
     * as Suricata inspects it, with the packets of the data's direction) */
    if (dr->flow_action && df && !df->dropped && !(p && (p->flags & MON_PKT_ACK_VIEW))) {
        df->dropped = true;
        df->dropped_on = w->verdict_of;
        w->drop_df = df;
    }
    bool reject = a == OSPREY_ACTION_REJECT || a == OSPREY_ACTION_REJECTSRC ||
                  a == OSPREY_ACTION_REJECTDST || a == OSPREY_ACTION_REJECTBOTH;
    if (!reject || w->pkt_reject != OSPREY_REJECT_NONE)
        return;
    w->verdicts.rejected++;
    w->pkt_reject = p && p->proto == 6 ? OSPREY_REJECT_RST : OSPREY_REJECT_ICMP;
    w->pkt_reject_to = a == OSPREY_ACTION_REJECTDST    ? OSPREY_REJECT_TO_DST
                       : a == OSPREY_ACTION_REJECTBOTH ? OSPREY_REJECT_TO_BOTH
                                                       : OSPREY_REJECT_TO_SRC;
}

/* One match, in commit order. Stream rules alert once per flow side (the stream is
 * re-inspected as it grows); packet rules once per packet. pass cancels the packet's other
 * alerts and its drop, before it (held.c) and after it, and ends inspection of the flow when
 * the rule's action scope is the flow; a
 * pass rule with `alert` alerts too; drop, reject and sdrop
 * set the packet's verdict, and drop the flow when the rule's action scope is the flow.
 * Returns NULL when the rule's action was taken, else why not (for --explain). */
static const char *commit_one(struct osprey_detect_worker *w, const struct det_pending *pm,
                              const struct mon_packet *p)
{
    const struct det_rule *dr = pm->dr;
    struct det_flow *df = pm->f ? mon_get_uctx(w->ctx, pm->f) : NULL;
    /* decoder-event rules match packets that may have no flow (and no flow state), packet
     * rules IP packets with no flow at all (on_orphan) */
    if ((!df && dr->base != DB_DECODE && !(!pm->f && dr->base == DB_PKT)) ||
        (df && (df->pass || df->td_pass)))
        return df ? "a pass rule passed the flow" : "no flow state";
    if (!df && (dr->nconds || dr->nints || dr->nbits))
        return "flowbits/flowint need a flow"; /* without one they do not hold */
    for (uint32_t i = 0; i < dr->nconds; i++)
        if (!flowbits_test(dr->conds[i].b, dr->conds[i].ids, df->bits)) {
            /* Suricata runs a packet's packet and stream rules in one pass, flowbit setters
             * first; here a stream rule of the same packet (inline, its data in order) commits
             * later, at the receiver's phase: the reader is tried again there */
            if (dr->base == DB_PKT && !pm->retried) {
                det_pending_push(&w->retry, &w->nretry, &w->cap_retry, *pm);
                return "flowbits condition not true (tried again at the packet's next commit)";
            }
            return "flowbits condition not true";
        }
    /* a rule its flowbits gate deferred: its units see the same packet and window now */
    for (uint32_t i = 0; pm->deferred && i < dr->nlate; i++)
        if (!det_unit_filter(w->ctx, pm->f, pm->side, 0, (void *)dr->late[i]))
            return "an option failed at the commit (behind the flowbits gate)";
    struct det_who who;
    uint64_t now = p ? p->ts_us : 0;
    if (dr->nxbits)
        whom(pm, dr, p, &who);
    for (uint32_t i = 0; i < dr->nxbits; i++) {
        const struct det_bits_action *x = &dr->xbits[i];
        if ((x->b->op == BITS_ISSET || x->b->op == BITS_ISNOTSET) &&
            !det_xbits_test(w->xb, x->b, x->ids, &who, now))
            return "xbits/hostbits condition not true";
    }
    /* the stream chain alerts once per side (keyed by the rule's first chain: a TCP rule has
     * one stream chain); the packet chain once per packet */
    if (dr->kind == DK_STREAM && df && dr->twin != DET_TWIN_PACKET &&
        det_side_of(df, pm->side) && fired_before(df->side[pm->side], dr->rule_idx))
        return "it alerted on this flow side already (a stream rule alerts once per side)";
    if (dr->twin && twin_matched(w, dr, pm->f, p))
        return "it matched this packet already through its other chain";
    /* ack delivery: a packet chain that matched a packet on its arrival stands for the
     * stream chain's match on that side, which comes later with another packet (inline, both
     * match the same packet, once) */
    if (w->arrival_scan && w->arrival_side && dr->twin == DET_TWIN_PACKET)
        (void)fired_before(w->arrival_side, dr->rule_idx);
    for (uint32_t i = 0; i < dr->nints; i++) /* actions stay done if a later test fails */
        if (!det_flowint_run(&dr->ints[i], df, w->d->nint_names))
            return "flowint condition not true";
    /* the rule matched: its files are stored (filestore), its flowbits and xbits change now,
     * whether or not it alerts */
    if (dr->filestore && pm->f) {
        const struct opt_filestore *fs = dr->filestore;
        int dir = fs->dir == FILESTORE_DIR_TO_SERVER ? 0
                : fs->dir == FILESTORE_DIR_TO_CLIENT ? 1
                : fs->dir == FILESTORE_DIR_BOTH ? -1
                : det_to_server(pm->side, dr->base) ? 0 : 1;
        osprey_parsers_file_store(w->ctx, pm->f, dir, fs->flow);
    }
    for (uint32_t i = 0; i < dr->nbits; i++)
        flowbits_apply(dr->bits[i].b, dr->bits[i].ids, df->bits);
    for (uint32_t i = 0; i < dr->nxbits; i++) {
        const struct det_bits_action *x = &dr->xbits[i];
        if (x->b->op != BITS_ISSET && x->b->op != BITS_ISNOTSET)
            det_xbits_apply(w->xb, x->b, x->ids, &who, now);
    }
    /* a rate_filter may change the action of this match */
    enum osprey_rule_action act = dr->rate ? det_rate_action(w->thr, dr, p, pm->f)
                                           : dr->rule->action;
    if (act == OSPREY_ACTION_PASS) {
        /* the packet's other alerts go (held.c), and the flow passes when the rule's action
         * scope is the flow (dr->flow_action: a stream or application match, a header naming
         * an application protocol, a rule with nothing but its header) — Suricata's scope; a
         * packet rule with payload options passes its packet only */
        if (df && dr->flow_action) {
            /* firewall mode: the threat-detection rules pass the flow, the firewall's still
             * filter it (Suricata 8) */
            if (w->d->fw)
                df->td_pass = true;
            else
                df->pass = true;
            w->verdicts.passed_flows++;
        }
        det_pass_packet(w);
        if (!dr->pass_alerts)
            return NULL; /* pass taken: the flow is passed */
    } else if (w->pkt_pass) {
        return "a pass rule matched this packet earlier"; /* no verdict, no alert */
    }
    if (act == OSPREY_ACTION_DROP || act == OSPREY_ACTION_SDROP || act == OSPREY_ACTION_BLOCK ||
        act == OSPREY_ACTION_REJECT || act == OSPREY_ACTION_REJECTSRC ||
        act == OSPREY_ACTION_REJECTDST || act == OSPREY_ACTION_REJECTBOTH)
        set_verdict(w, df, dr, act, p);
    if (act == OSPREY_ACTION_SDROP)
        return NULL; /* dropped without an alert, as the action says */
    if (dr->noalert)
        return "noalert";
    if (det_suppressed(dr, p))
        return "suppressed by threshold.config";
    if (!det_thr_allow(w->thr, dr, p, pm->f))
        return "threshold or detection_filter";
    struct osprey_alert a = {
        .rule = dr->rule,
        .category = dr->category,
        .severity = dr->severity,
        .nmeta = dr->nmeta,
        .meta = dr->meta,
        .pkt = p,
        .flow = pm->f,
        .to_server = det_to_server(pm->side, dr->base),
        .from_stream = (dr->kind == DK_STREAM && dr->twin != DET_TWIN_PACKET) ||
                       (dr->kind == DK_APP && pm->f->proto == 6),
        .action = act,
    };
    if (w->d->has_caps) /* the variables pcre captures set, for this alert's record */
        a.vars = det_caps_apply(w, dr, df, &a.nvars);
    for (uint32_t i = 0; p && i < dr->ntags; i++)
        det_tag_start(w->tags, &df->tag, dr->tags[i], p);
    det_alert(w, &a);
    return NULL;
}

/* The commit barrier's handler: every chain of this phase has been walked. Matches are
 * committed in Suricata's order (pass, drop, reject, alert; flowbit setters before readers),
 * so a setter with a higher sid still enables a reader on the same packet, and a pass rule
 * suppresses the alerts of its own packet. */
static void on_commit(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                      void *arg)
{
    (void)side, (void)ev;
    const struct det_commit_arg *ca = arg;
    struct osprey_detect_worker *w = ca->w;
    /* firewall mode: the firewall's tables decide first; a packet they dropped is not the
     * threat-detection rules' (firewall.c) */
    if (w->d->fw && !det_fw_commit(w, ca->base, f, mon_getlastpkt(ctx)))
        w->npending = 0;
    if (w->d->fw && w->fw.dropped_pkt)
        w->nretry = 0;
    for (uint32_t i = 0; i < w->nretry; i++) { /* refused at an earlier commit of the packet */
        struct det_pending pm = w->retry[i];
        pm.retried = true;
        pm.seq = w->npending;
        det_pending_push(&w->pending, &w->npending, &w->cap_pending, pm);
    }
    w->nretry = 0;
    if (!w->npending)
        return;
    if (w->npending > 1)
        qsort(w->pending, w->npending, sizeof *w->pending, pending_cmp);
    const struct mon_packet *p = mon_getlastpkt(ctx);
    for (uint32_t i = 0; i < w->npending; i++) {
        const char *why = commit_one(w, &w->pending[i], p);
        if (w->d->explain) /* --explain: the outcome of the explained rule's matches */
            det_explain_commit(w, &w->pending[i], p, why);
    }
    w->npending = 0;
}

struct osprey_detect_worker *osprey_detect_attach(const struct osprey_detect *d,
                                                  struct mon_ctx *ctx, osprey_alert_fn cb,
                                                  void *arg)
{
    struct osprey_detect_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->d = d;
    w->ctx = ctx;
    w->cb = cb;
    w->verdicts.firewall = d->fw != NULL;
    w->arg = arg;
    w->stream_fill = det_stream_fill;
    if (!(w->md = pcre_match_data_new()))
        goto fail;
    if (d->prof && (!(w->prof = calloc(d->nprof_units ? d->nprof_units : 1, sizeof *w->prof)) ||
                    !(w->prof_matches = calloc(d->nrules ? d->nrules : 1, sizeof(uint64_t)))))
        goto fail;
    w->thr = d->thr; /* shared by the workers, owned by d */
    if (d->has_xbits && !(w->xb = det_xbits_create()))
        goto fail;
    if (d->has_tags && !(w->tags = det_tags_create()))
        goto fail;
    for (int k = 0; k < DK__COUNT; k++)
        if (det_mpm_scratch(&d->mpm[k], &w->scratch) < 0)
            goto fail;
    for (uint32_t i = 0; i < d->napp_mpm; i++)
        if (det_mpm_scratch(d->app_mpm[i], &w->scratch) < 0)
            goto fail;
    if (!(w->sock = mon_socket(ctx, MON_SOCK_STREAM, NULL)))
        goto fail;
    if (mon_register(ctx, w->sock, MON_ON_PKT_IN, MON_HK_SND, on_pkt, w) != MON_OK ||
        mon_register(ctx, w->sock, MON_ON_ORPHAN, MON_HK_SND, on_orphan, w) != MON_OK)
        goto fail;
    if (mon_register(ctx, w->sock, MON_ON_ERROR, MON_HK_RCV, on_error, w) != MON_OK)
        goto fail;
    if ((d->stats.stream_rules || d->app_raw) &&
        mon_register(ctx, w->sock, MON_ON_CONN_NEW_DATA, MON_HK_RCV, on_data, w) != MON_OK)
        goto fail;
    /* stream rules run on the receiver's side; packet rules and application rules (the
     * parsers' events are children of a PKT_IN UDE, run by mon_run_event) on the sender's */
    if (!(w->commit_args = calloc(d->nbases, sizeof *w->commit_args)))
        goto fail;
    for (uint16_t i = 0; i < d->nbases; i++) {
        uint16_t b = det_base_order(i);
        w->commit_args[b] = (struct det_commit_arg){w, b};
        if (d->barrier[b] && mon_register(ctx, w->sock, d->barrier[b],
                                          b == DB_STREAM || b == DB_PKT_RCV ? MON_HK_RCV
                                                                            : MON_HK_SND,
                                          on_commit,
                                          &w->commit_args[b]) != MON_OK)
            goto fail;
    }
    if (d->base_rules[DB_PKT] && !(w->pleaf = calloc(d->base_rules[DB_PKT], sizeof *w->pleaf)))
        goto fail;
    for (uint32_t i = 0; i < d->nrules; i++) {
        const struct det_rule *dr = &d->rules[i];
        if (dr->base == DB_DECODE)
            continue; /* det_events_attach */
        /* the parsers' events are children of a PKT_IN UDE run on the sender's side */
        enum mon_hook hk = dr->kind == DK_STREAM || dr->base == DB_PKT_RCV ? MON_HK_RCV
                                                                          : MON_HK_SND;
        if (dr->base == DB_PKT) {
            if (w->npleaf == d->base_rules[DB_PKT])
                goto fail; /* (base_rules counts them: cannot happen) */
            struct det_pkt_leaf *l = &w->pleaf[w->npleaf++];
            *l = (struct det_pkt_leaf){w, dr};
            if (mon_register(ctx, w->sock, dr->leaf, hk, on_pkt_match, l) != MON_OK)
                goto fail;
            continue;
        }
        if (mon_register(ctx, w->sock, dr->leaf, hk, on_match, (void *)dr) != MON_OK)
            goto fail;
    }
    if (det_events_attach(w) < 0)
        goto fail;
    return w;
fail:
    osprey_detect_worker_free(w);
    return NULL;
}

/* Release one side's stream: its window, Hyperscan streams and pattern record. The side
 * then looks as a side past its inspection cap (nothing kept, nothing more inspected). */
struct det_side *det_side_of(struct det_flow *df, int side)
{
    if (!df->side[side] && !df->closed) {
        df->side[side] = calloc(1, sizeof *df->side[side]);
        if (df->side[side]) { /* (its window is bounded by the inspection cap, not charged) */
            df->charged += (uint32_t)sizeof *df->side[side] + MON_MALLOC_OVERHEAD;
            mon_ctx_charge(df->w->ctx, (int64_t)sizeof *df->side[side] + MON_MALLOC_OVERHEAD);
        }
    }
    return df->side[side];
}

static void side_release(struct det_flow *df, struct det_side *s)
{
    if (!s || s->released)
        return;
    s->released = true;
    df->w->mem.window_bytes -= s->cap;
    df->w->mem.copy_bytes -= copy_cap(s->base + s->len);
    det_mpm_close(s, df->w->scratch);
    free(s->mem);
    free(s->seen);
    free(s->fired);
    s->base += s->len;
    s->scanned = s->base;
    s->buf = s->mem = NULL;
    s->len = s->cap = 0;
    s->seen = NULL;
    s->nseen = s->cap_seen = s->seen_hint = 0;
    s->fired = NULL;
    s->nfired = s->cap_fired = 0;
    s->full = true;
}

void osprey_detect_conn_closed(struct osprey_detect_worker *w, struct mon_flow *f)
{
    (void)w;
    struct det_flow *df = f->uctx;
    if (!df)
        return;
    df->closed = true;
    for (int s = 0; s < 2; s++)
        side_release(df, df->side[s]);
}

void osprey_detect_flow_end(struct osprey_detect_worker *w, struct mon_flow *f)
{
    (void)w;
    struct det_flow *df = f->uctx;
    osprey_detect_packet_end(w); /* held alerts may name this flow: they go before it */
    if (!df)
        return;
    if (w && w->drop_df == df)
        w->drop_df = NULL;
    for (uint16_t x = 0; df->hc && x < df->w->d->nhdx_slots; x++)
        for (int dir = 0; dir < 2; dir++)
            free(df->hc[x][dir].ids);
    free(df->hc);
    for (int s = 0; s < 2; s++) {
        side_release(df, df->side[s]);
        free(df->side[s]);
    }
    free(df->ints);
    free(df->intset);
    det_vars_free(df->vars);
    mon_ctx_charge(df->w->ctx, -(int64_t)df->charged);
    free(df);
    f->uctx = NULL;
}

void osprey_detect_worker_free(struct osprey_detect_worker *w)
{
    if (!w)
        return;
    free(w->arrival.seen);
    free(w->arrival.fired);
    free(w->pre_ids);
    hs_free_scratch(w->scratch);
    pcre_match_data_free(w->md);
    det_xbits_free(w->xb);
    if (w->tags && det_tags_dropped(w->tags))
        fprintf(stderr, "osprey: tag: host table full, %llu host tags not started\n",
                (unsigned long long)det_tags_dropped(w->tags));
    det_tags_free(w->tags);
    free(w->held);
    det_caps_free(w->caps);
    free(w->pending);
    free(w->prof);
    free(w->prof_matches);
    free(w->pleaf);
    free(w->retry);
    free(w->fwp);
    free(w->commit_args);
    det_events_detach(w);
    det_lua_states_free(w->lua);
    osprey_scratch_free(&w->lua_scratch);
    for (int i = 0; i < 2; i++) {
        free(w->xbuf[i]);
        osprey_scratch_free(&w->dscratch[i]);
    }
    free(w);
}

const struct osprey_detect_lua *osprey_detect_worker_lua(const struct osprey_detect_worker *w)
{
    return &w->lua_stats;
}

uint64_t osprey_detect_worker_alerts(const struct osprey_detect_worker *w)
{
    return w->alerts;
}

bool osprey_detect_packet_dropped(const struct osprey_detect_worker *w)
{
    return w->pkt_dropped;
}

bool osprey_detect_packet_tagged(const struct osprey_detect_worker *w)
{
    return w->pkt_tagged;
}

enum osprey_reject osprey_detect_packet_reject(const struct osprey_detect_worker *w,
                                               enum osprey_reject_to *to)
{
    if (to)
        *to = (enum osprey_reject_to)w->pkt_reject_to;
    return (enum osprey_reject)w->pkt_reject;
}

void osprey_detect_worker_set_policy(struct osprey_detect_worker *w,
                                     const struct osprey_detect_policy *p)
{
    w->policy = *p;
}

const struct osprey_detect_verdicts *osprey_detect_worker_verdicts(
    const struct osprey_detect_worker *w)
{
    return &w->verdicts;
}

const struct osprey_detect_prefilter *osprey_detect_worker_prefilter(
    const struct osprey_detect_worker *w)
{
    return &w->pf;
}

const struct osprey_detect_mem *osprey_detect_worker_mem(const struct osprey_detect_worker *w)
{
    return &w->mem;
}
