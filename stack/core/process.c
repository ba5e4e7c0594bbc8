/* process.c — one packet through the stack, and the end of a flow.
 *
 * The order is mOS's (§4.1–4.2, and mon.h's header comment): sender update and its events,
 * REXMIT, receiver update and its events. Each phase hands the built-in events it raised to
 * the flow's invocation forest; the forest's trees do the rest. */
#include <string.h>

#include "core_internal.h"

#define EV(e) (1u << (e))

void core_run(struct mon_ctx *ctx, struct ev_forest *forest, int hook, uint32_t bits,
              struct mon_flow *f, int side)
{
    if (!bits || !forest)
        return;
    uint32_t wanted = bits & ev_forest_roots(forest, hook);
    if (!wanted)
        return;
    /* Hold the forest: a handler may re-register on this flow, which swaps f->forest and
     * could free this one while its trees are being walked. */
    ev_forest_retain(forest);
    int saved_hook = ctx->hook_now;
    struct ev_forest *saved_forest = ctx->forest_now;
    ctx->hook_now = hook;
    ctx->forest_now = forest;
    ev_run(ctx->runner, forest, hook, wanted, ctx, f, side, &ctx->evstats);
    ctx->hook_now = saved_hook;
    ctx->forest_now = saved_forest;
    ev_forest_release(ctx->forests, forest);
}

static void count_raised(struct mon_ctx *ctx, uint32_t bits)
{
    for (unsigned e = 0; bits; e++, bits >>= 1)
        if (bits & 1)
            ctx->evstats.raised[e]++;
}

/* The pseudo packet a flow's end runs with (client -> server, dated now). */
static void core_end_packet(const struct mon_ctx *ctx, const struct mon_flow *f,
                            struct mon_packet *end)
{
    *end = (struct mon_packet){
        .ts_us = ctx->now, .num = ctx->last_num + 1, .ipver = f->ipver, .proto = f->proto,
        .src = f->cli, .dst = f->srv, .sport = f->cport, .dport = f->sport,
        .flags = MON_PKT_PSEUDO | (f->proto == 6 || f->proto == 17 ? MON_PKT_HAS_L4 : 0u),
        .tcp_wscale = 0xff};
}

/* Run a packet event in both hooks of every socket whose scope takes the packet (only
 * stream sockets when stream_only), on the sockets' forests. */
static void run_on_sockets(struct mon_ctx *ctx, struct mon_packet *p, mon_event_t ev,
                           bool stream_only, struct mon_flow *f, int side)
{
    count_raised(ctx, EV(ev));
    for (struct mon_sock *s = ctx->socks; s; s = s->next) {
        if ((stream_only && s->type != MON_SOCK_STREAM) || !core_sock_matches(s, p))
            continue;
        struct ev_forest *sf = core_sock_forest(ctx, s);
        ctx->phase = PH_SND;
        core_run(ctx, sf, MON_HK_SND, EV(ev), f, side);
        ctx->phase = PH_RCV;
        core_run(ctx, sf, MON_HK_RCV, EV(ev), f, side);
    }
}

/* Packets that belong to no flow (non-IP, a transport header missing, no memory) are
 * ORPHANs for every stream socket whose scope takes them. */
static void run_orphan(struct mon_ctx *ctx, struct mon_packet *p)
{
    run_on_sockets(ctx, p, MON_ON_ORPHAN, true, NULL, MON_SIDE_CLI);
}

static void run_raw(struct mon_ctx *ctx, struct mon_packet *p, struct mon_flow *f, int side)
{
    for (struct mon_sock *s = ctx->socks; s; s = s->next) {
        if (s->type != MON_SOCK_RAW || !core_sock_matches(s, p))
            continue;
        struct ev_forest *sf = core_sock_forest(ctx, s);
        ctx->phase = PH_SND;
        core_run(ctx, sf, MON_HK_SND, EV(MON_ON_PKT_IN), f, side);
        ctx->phase = PH_RCV;
        core_run(ctx, sf, MON_HK_RCV, EV(MON_ON_PKT_IN), f, side);
    }
}

/* A pure SYN on a TCP flow whose connection has ended (CONN_END raised) opens a new one. */
static bool is_port_reuse(const struct mon_flow *f, const struct mon_packet *p)
{
    return p->proto == 6 && (f->mon_flags & FF_CONN_END) && f->forest &&
           (p->tcp_flags & (MON_TH_SYN | MON_TH_ACK | MON_TH_RST)) == MON_TH_SYN;  /* pure SYN */
}

/* A TCP flow's connection, from its first packet with a good checksum. Returns the events
 * that packet raises at setup. */
static uint32_t tcp_setup(struct mon_ctx *ctx, struct mon_flow *f, int dir, struct mon_packet *p)
{
    bool watched = f->forest && ev_forest_npairs(f->forest) > 0;
    uint32_t bits = tcp_conn_init(&ctx->tcp, f, dir, p);
    if (bits & EV(MON_ON_CONN_START))
        f->mon_flags |= FF_TCP_LIVE;
    if (!watched) {
        /* nobody listens on this flow: track its state, but keep no bytes */
        f->tcp.side[0].buf_size = 0;
        f->tcp.side[1].buf_size = 0;
    }
    return bits;
}

/* A new flow: its forest (from the scopes its first packet matches) and, for TCP, its
 * connection — unless the packet's checksum is bad (bad_csum): then the connection waits
 * for the next good packet, and this one is an ORPHAN. Returns the built-in events the first
 * packet raises at setup. */
static uint32_t flow_setup(struct mon_ctx *ctx, struct mon_flow *f, int dir, struct mon_packet *p,
                           bool bad_csum)
{
    f->forest = core_scope_forest(ctx, p);
    if (p->proto != 6)
        return EV(MON_ON_CONN_START);
    if (bad_csum) {
        f->mon_flags |= FF_TCP_WAIT;
        ctx->tcp.stats.orphans++;
        return EV(MON_ON_ORPHAN);
    }
    return tcp_setup(ctx, f, dir, p);
}

enum mon_decode_outcome mon_process(struct mon_ctx *ctx, struct mon_packet *p)
{
    enum mon_decode_outcome o = mon_decode(&ctx->dec, p);
    uint64_t clock_was = ctx->clock;
    ctx->clock = mon_flow_clock(ctx->ft, p->ts_us);
    if (ctx->clock / 1000000u != clock_was / 1000000u) /* a second on: idle flows go first */
        mon_flow_expire(ctx->ft, p->ts_us);
    if (p->ts_us / 1000000u != ctx->now / 1000000u && p->ts_us > ctx->now && ctx->df)
        mon_defrag_expire(ctx->df, p->ts_us, &ctx->dec.stats); /* and old fragments */
    if (p->ts_us > ctx->now)
        ctx->now = p->ts_us;

    struct mon_flow *f = NULL;
    int dir = MON_FLOW_TO_SERVER;
    if (o == MON_DEC_IP) {
        if (p->proto == 6 && (p->tcp_flags & (MON_TH_SYN | MON_TH_ACK | MON_TH_RST)) == MON_TH_SYN &&
            (f = mon_flow_find(ctx->ft, p, &dir)) && is_port_reuse(f, p)) {
            /* a new connection on the ports of one that has closed: end the old flow (its
             * record is written) so the SYN starts a flow of its own */
            mon_flow_end_now(ctx->ft, f, MON_FLOW_END_EVICTED);
        }
        f = mon_flow_handle(ctx->ft, p, &dir); /* may end an evicted flow first */
    }
    ctx->cur = p;
    if (p->num > ctx->last_num)
        ctx->last_num = p->num;
    int snd = dir == MON_FLOW_TO_SERVER ? MON_SIDE_CLI : MON_SIDE_SVR;
    int rcv = snd ^ 1;
    /* a decoder anomaly or note: DECODE_EVENT before anything else about the packet runs
     * (a held fragment or an invalid packet has no flow: f is NULL then) */
    if (p->anomaly || p->decode_notes)
        run_on_sockets(ctx, p, MON_ON_DECODE_EVENT, false, f, snd);
    run_raw(ctx, p, f, snd);
    if (!f) {
        if (o != MON_DEC_FRAG_HELD)
            run_orphan(ctx, p);
        goto out;
    }

    /* stream checksum validation: a TCP packet with a bad checksum updates no connection */
    bool bad_csum = p->proto == 6 && (p->flags & MON_PKT_BAD_L4_CSUM) &&
                    ctx->tcp.cfg.checksum_validation;
    if (bad_csum)
        ctx->tcp.stats.invalid_checksum++;
    uint32_t setup = 0;
    if (!f->forest) {
        setup = flow_setup(ctx, f, dir, p, bad_csum);
    } else {
        if (f->mon_flags & FF_RESCOPE)
            core_rescope(ctx, f, p); /* first packet since mon_ctx_rebind */
        if ((f->mon_flags & FF_TCP_WAIT) && !bad_csum) {
            f->mon_flags &= ~FF_TCP_WAIT; /* the first good packet: the connection now */
            setup = tcp_setup(ctx, f, dir, p);
        }
    }
    bool live = p->proto == 6 && (f->mon_flags & FF_TCP_LIVE);
    bool tcp = live && !bad_csum;
    uint32_t snd_bits = EV(MON_ON_PKT_IN) | setup;
    if (p->proto == 6 && !live) {
        snd_bits = EV(MON_ON_ORPHAN); /* a TCP flow whose connection was never picked up */
        if (!setup)
            ctx->tcp.stats.orphans++; /* tcp_conn_init counted the first one */
    }
    ctx->tcp.pkt_events = 0;
    if (tcp && !(f->tcp.side[snd].flags & MON_TCPF_STOPPED)) {
        snd_bits |= tcp_sender_update(&ctx->tcp, f, snd, p);
        p->tcp_events = ctx->tcp.pkt_events; /* before the sender-side events run */
        if (ctx->tcp.cfg.ack_delivery && !(p->tcp_flags & MON_TH_SYN))
            tcp_ack_ready(&ctx->tcp, f, snd); /* (a SYN-ACK's ack of data on the SYN does
                                                  not: Suricata takes it from the handshake's
                                                  last ACK on) */
    }
    if (snd_bits & EV(MON_ON_ORPHAN))
        snd_bits = EV(MON_ON_ORPHAN);
    /* the sender's update ends the connection only when the receiver is not monitored;
     * CONN_END is a receiver-side event all the same */
    uint32_t late_end = snd_bits & EV(MON_ON_CONN_END);
    snd_bits &= ~late_end;
    count_raised(ctx, snd_bits);

    /* 1. sender side */
    ctx->phase = PH_SND;
    core_run(ctx, f->forest, MON_HK_SND, snd_bits, f, snd);
    if (p->flags & MON_PKT_DROPPED)
        goto out;
    /* the packet-level events also reach receiver-side handlers, after the receiver update */
    uint32_t rcv_bits = (snd_bits & (EV(MON_ON_PKT_IN) | EV(MON_ON_ORPHAN) | EV(MON_ON_CONN_START))) |
                        late_end;
    /* an ORPHAN of a connection that still carries a stream event (the packet that shows a
     * RST forged, suspected_rst_inject): PKT_IN in the receiver's hook too, where the
     * handlers of stream events run; it stays an ORPHAN for everything else */
    if ((snd_bits & EV(MON_ON_ORPHAN)) && p->tcp_events)
        rcv_bits |= EV(MON_ON_PKT_IN);
    if (tcp && !(snd_bits & EV(MON_ON_ORPHAN)) && !(f->tcp.side[rcv].flags & MON_TCPF_STOPPED)) {
        /* 2. retransmission: before the receiver sees it, so a handler can still drop it */
        if (tcp_is_rexmit(&ctx->tcp, f, snd, p)) {
            count_raised(ctx, EV(MON_ON_REXMIT));
            ctx->phase = PH_REXMIT;
            core_run(ctx, f->forest, MON_HK_SND, EV(MON_ON_REXMIT), f, rcv);
            if (p->flags & MON_PKT_DROPPED)
                goto out;
        }
        /* 3. receiver side */
        rcv_bits |= tcp_receiver_update(&ctx->tcp, f, snd, p);
        p->tcp_events |= ctx->tcp.pkt_events; /* and the receiver's, before its events */
    }
    if (!(f->mon_flags & FF_ONE_SIDED) && f->pkts[dir ^ 1] == 0 && !(p->proto == 6 && !live) &&
        f->pkts[dir] >= ctx->tcp.cfg.one_sided_pkts) {
        f->mon_flags |= FF_ONE_SIDED;
        rcv_bits |= EV(MON_ON_ONE_SIDED);
    }
    if (rcv_bits & EV(MON_ON_CONN_END)) {
        if (f->mon_flags & FF_CONN_END)
            rcv_bits &= ~EV(MON_ON_CONN_END);
        f->mon_flags |= FF_CONN_END;
    }
    count_raised(ctx, rcv_bits & ~snd_bits);
    ctx->phase = PH_RCV;
    if ((rcv_bits & EV(MON_ON_CONN_END)) && tcp) {
        /* ack delivery: the bytes the sender received and did not see delivered (no packet
         * of their direction comes now) are delivered before the end, on a pseudo packet as
         * at a flow's end — Suricata inspects them on its flow-end packet of that direction */
        uint32_t more = tcp_conn_release(&ctx->tcp, f, snd);
        if (more) {
            struct mon_packet end;
            core_end_packet(ctx, f, &end);
            count_raised(ctx, more);
            ctx->cur = &end;
            core_run(ctx, f->forest, MON_HK_RCV, more, f, snd);
            ctx->cur = p;
        }
    }
    core_run(ctx, f->forest, MON_HK_RCV, rcv_bits, f, rcv);
    if ((rcv_bits & EV(MON_ON_CONN_END)) && f->proto == 6) {
        /* the connection is over (what was held was read before CONN_END; later data is
         * ORPHAN): its streams' bytes are kept no longer, here or by the application */
        if (ctx->closed_cb)
            ctx->closed_cb(f, ctx->closed_arg);
        tcp_conn_free(&ctx->tcp, f);
    }
out:
    ctx->cur = NULL;
    ctx->phase = PH_NONE;
    return o;
}

/* Called by the flow table for every flow that ends (timeout, eviction, flush): the last
 * events, then the buffers and the forest go, then the application's record callback. */
void core_flow_end(struct mon_flow *f, void *arg)
{
    struct mon_ctx *ctx = arg;
    struct mon_packet *saved = ctx->cur;
    enum core_phase saved_phase = ctx->phase;
    /* The end's events run with a packet of their own (an evicted flow ends while an
     * unrelated packet is being processed): what they report (an application message the
     * end completed, an alert on it) is dated and addressed by the flow, as Suricata's
     * flow-timeout pseudo packets are. */
    struct mon_packet end;
    core_end_packet(ctx, f, &end);
    ctx->cur = &end;
    ctx->phase = PH_END;
    /* a TCP flow that never became a connection was only ever ORPHAN packets: it has no
     * connection to end */
    bool orphan_only = f->proto == 6 && !(f->mon_flags & FF_TCP_LIVE);
    if (f->forest) {
        uint32_t bits = 0;
        if (f->end == MON_FLOW_END_TIMEOUT)
            bits |= EV(MON_ON_TIMEOUT);
        if (!(f->mon_flags & FF_ONE_SIDED) && (!f->pkts[0] || !f->pkts[1]))
            bits |= EV(MON_ON_ONE_SIDED);
        if (!(f->mon_flags & FF_CONN_END))
            bits |= EV(MON_ON_CONN_END);
        if (orphan_only)
            bits = 0;
        /* a connection cut short (no close seen): each stream's bytes held after a hole are
         * read now, before its end, as Suricata's flow-timeout reassembly does */
        for (int k = 0; f->proto == 6 && !orphan_only && k < 2; k++) {
            /* the client's bytes first (the server's receive stream), as Suricata's flow-end
             * packets go to_server first: a protocol is told by what the client said */
            int side = k ? MON_SIDE_CLI : MON_SIDE_SVR;
            uint32_t more = tcp_conn_flush(&ctx->tcp, f, side);
            if (!more)
                continue;
            count_raised(ctx, more);
            core_run(ctx, f->forest, MON_HK_RCV, more, f, side);
        }
        f->mon_flags |= FF_CONN_END | FF_ONE_SIDED;
        count_raised(ctx, bits);
        core_run(ctx, f->forest, MON_HK_RCV, bits, f, MON_SIDE_CLI);
        if (f->proto == 6)
            tcp_conn_free(&ctx->tcp, f);
        ev_forest_release(ctx->forests, f->forest);
        f->forest = NULL;
    }
    if (ctx->end_cb)
        ctx->end_cb(f, ctx->end_arg);
    core_free_slots(ctx, f); /* after the record callback, which may still read them */
    ctx->cur = saved;
    ctx->phase = saved_phase;
}

void mon_tick(struct mon_ctx *ctx, uint64_t now_us)
{
    if (now_us > ctx->now)
        ctx->now = now_us;
    mon_flow_expire(ctx->ft, now_us);
    if (ctx->df)
        mon_defrag_expire(ctx->df, now_us, &ctx->dec.stats);
}

void mon_flush(struct mon_ctx *ctx)
{
    mon_flow_flush(ctx->ft);
}
