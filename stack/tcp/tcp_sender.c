/* tcp_sender.c — phase 1: what sending this packet tells us about its sender.
 *
 * The sender's state moves by the table's SND rows (tcp_state_table.c). Besides its state we
 * learn its ISN and options (from a SYN), the window it advertises (scaled once both SYNs
 * agreed on scaling; a SYN's own window never is), how far it has sent (snd_nxt), and how
 * far it acknowledged its peer (the peer's snd_una) — the last is what bounds the window the
 * peer may send into, and what tells phase 3 that the receiver has bytes we never saw.
 */
#include "tcp_internal.h"

/* A SYN or SYN-ACK: its ISN and options; window scaling is settled once both SYNs are known.
 * tsval: where a client's SYN keeps its TSvals (NULL for the server's). */
static void take_syn(struct mon_tcp_side *S, struct mon_tcp_side *R, const struct mon_packet *p,
                     enum tcp_kind k, uint32_t *tsval)
{
    /* The first SYN sets the ISN; a SYN with another ISN replaces it while nothing but the
     * SYN was sent and the endpoint is not synchronized (a new attempt). */
    if (!(S->flags & MON_TCPF_ISN_KNOWN) ||
        (p->tcp_seq != S->isn && seq_leq(S->snd_nxt, S->isn + 1u) &&
         S->state < MON_TCP_ESTABLISHED)) {
        S->isn = p->tcp_seq;
        S->snd_nxt = p->tcp_seq + 1u;
        S->snd_una = p->tcp_seq; /* its SYN is not acknowledged yet */
        S->flags |= MON_TCPF_ISN_KNOWN;
        if (tsval)
            tsval[0] = (p->flags & MON_PKT_TCP_HAS_TS) ? p->tcp_tsval : 0;
    }
    /* a retransmitted SYN carries a later TSval, and the SYN-ACK may answer either copy */
    if (tsval)
        tsval[1] = (p->flags & MON_PKT_TCP_HAS_TS) ? p->tcp_tsval : 0;
    if (p->tcp_wscale != 0xff) {
        S->wscale = p->tcp_wscale > 14 ? 14 : p->tcp_wscale; /* RFC 7323 §2.3: at most 14 */
        S->flags |= MON_TCPF_WSCALE;
    } else {
        S->wscale = 0;
        S->flags &= (uint16_t)~MON_TCPF_WSCALE;
    }
    if (p->flags & MON_PKT_TCP_SACKOK)
        S->flags |= MON_TCPF_SACK;
    if (p->flags & MON_PKT_TCP_HAS_TS)
        S->flags |= MON_TCPF_TS;
    if (S->flags & MON_TCPF_GOT_SYN) {
        /* The peer's SYN was seen too: RFC 7323, scaling holds only if both offered it. */
        if (!((S->flags & MON_TCPF_WSCALE) && (R->flags & MON_TCPF_WSCALE)))
            S->wscale = R->wscale = 0;
    } else if (k == TCP_K_SYNACK && !(S->flags & MON_TCPF_WSCALE)) {
        /* Answering a SYN we did not see, without the option: nobody scales. */
        R->wscale = 0;
    }
}

/* The packet acknowledges R's data up to ack. */
static void take_ack(struct mon_tcp_side *R, uint32_t ack)
{
    if (!(R->flags & MON_TCPF_ISN_KNOWN)) {
        /* R's SYN was never seen: the acknowledgment tells where its stream stands */
        R->isn = ack - 1u;
        R->snd_nxt = ack;
        R->snd_una = ack;
        R->flags |= MON_TCPF_ISN_KNOWN;
        return;
    }
    if (!seq_gt(ack, R->snd_una))
        return; /* old or duplicate */
    if (seq_leq(ack, R->snd_nxt)) {
        R->snd_una = ack;
    } else if (R->state >= MON_TCP_ESTABLISHED && ack - R->snd_nxt <= TCP_MAX_WIN) {
        /* It acknowledges bytes R sent that we never saw (capture loss): believe it within a
         * window's reach; the receiver side will report the gap. Not during the handshake,
         * where nothing but a SYN can have been sent. */
        R->snd_una = ack;
        R->snd_nxt = ack;
    }
}

/* While the client waits for the SYN-ACK, a server packet with a timestamp must echo the
 * TSval of the client's first or latest SYN (0 allowed when the SYN had one), or nothing when the SYN had no
 * timestamp: otherwise it answers a SYN it never saw (an evasion: a forged RST or FIN before
 * the real handshake), and the connection ignores it (Suricata's pkt_invalid_timestamp). */
static bool synsent_ts_bad(const struct mon_flow *f, int snd, const struct mon_packet *p)
{
    if (snd != MON_SIDE_SVR || f->tcp.side[MON_SIDE_CLI].state != MON_TCP_SYN_SENT ||
        !(p->flags & MON_PKT_TCP_HAS_TS))
        return false;
    const uint32_t *sent = f->tcp.syn_tsval, ecr = p->tcp_tsecr;
    if (f->tcp.side[MON_SIDE_CLI].flags & MON_TCPF_TS)
        return sent[0] != 0 && ecr != 0 && ecr != sent[0] && ecr != sent[1];
    return ecr != 0;
}

/* A client SYN with yet another ISN while it waits for the SYN-ACK: past TCP_MAX_SYN_QUEUED
 * such attempts, each more is a SYN flood on one connection (Suricata's 3whs_syn_flood, where
 * stream.max-syn-queued bounds the SYNs it keeps to match the SYN-ACK against). The latest
 * SYN still sets the ISN (take_syn): its SYN-ACK is the one that completes the handshake. */
static void note_syn_flood(struct tcp_ctx *t, struct mon_flow *f, const struct mon_tcp_side *S,
                           int snd, enum tcp_kind k, const struct mon_packet *p)
{
    if (k != TCP_K_SYN || snd != MON_SIDE_CLI || S->state != MON_TCP_SYN_SENT ||
        !(S->flags & MON_TCPF_ISN_KNOWN) || p->tcp_seq == S->isn)
        return;
    if (f->tcp.syn_new_isns < UINT16_MAX)
        f->tcp.syn_new_isns++;
    if (f->tcp.syn_new_isns > TCP_MAX_SYN_QUEUED)
        t->pkt_events |= 1ull << MON_TE_SYN_FLOOD;
}

/* The stream events (mon_tcp.h) this packet shows, judged before it moves any state. */
static void note_events(struct tcp_ctx *t, const struct mon_tcp_side *S, int snd,
                        enum tcp_kind k)
{
    if (k == TCP_K_SYNACK && snd == MON_SIDE_CLI && S->state == MON_TCP_SYN_SENT)
        t->pkt_events |= 1ull << MON_TE_SYNACK_TO_SERVER; /* the SYN's sender answers it */
    /* (a new ISN in ESTABLISHED and the other checks of Suricata's state machine:
     * tcp_checks.c) */
}

/* Suricata's suspected RST injection: after an acceptable RST, a packet other than a RST
 * from the same endpoint (a real reset endpoint sends nothing more; a forged RST's victim
 * goes on). Once per RST; the other endpoint's packets change nothing. */
static bool note_rst_inject(struct tcp_ctx *t, struct mon_flow *f, int snd,
                            const struct mon_packet *p)
{
    if (f->tcp.rst_by != snd + 1 || (p->tcp_flags & MON_TH_RST))
        return false;
    f->tcp.rst_by = 0;
    t->pkt_events |= 1ull << MON_TE_RST_INJECT;
    return true;
}

uint32_t tcp_sender_update(struct tcp_ctx *t, struct mon_flow *f, int snd, const struct mon_packet *p)
{
    struct mon_tcp_side *S = &f->tcp.side[snd], *R = &f->tcp.side[snd ^ 1];
    t->pkt_events = 0;
    if (S->flags & MON_TCPF_STOPPED)
        return 0;
    bool injected = note_rst_inject(t, f, snd, p);
    if (!(S->flags & MON_TCPF_LIVE) ||
        ((S->flags & MON_TCPF_ENDED) && !tcp_after_end_ok(f, snd, p))) {
        t->stats.orphans++;
        tcp_note_set(t, f, p, TCP_PKT_ORPHAN);
        (void)injected; /* (its event stays on the packet: stack/core runs it, ORPHAN or not) */
        return TCP_EV(MON_ON_ORPHAN);
    }
    const uint8_t old = S->state;
    enum tcp_verdict v = TCP_PKT_OK;
    if (S->flags & MON_TCPF_PICKUP) {
        S->state = MON_TCP_ESTABLISHED;
        S->flags &= (uint16_t)~MON_TCPF_PICKUP;
    }
    enum tcp_kind k = tcp_kind_of(p->tcp_flags);
    if (!(S->flags & MON_TCPF_ISN_KNOWN) && k != TCP_K_SYN && k != TCP_K_SYNACK)
        tcp_infer_isn(S, p);
    note_events(t, S, snd, k);
    note_syn_flood(t, f, S, snd, k, p);
    tcp_state_checks(t, f, snd, k, p); /* observations only: they change nothing here */

    uint8_t nx;
    if (synsent_ts_bad(f, snd, p)) {
        t->pkt_events |= 1ull << MON_TE_BAD_TIMESTAMP;
        t->stats.invalid_state++;
        v = TCP_PKT_INVALID;
        goto out;
    }
    if (k == TCP_K_RST && !tcp_rst_acceptable(S, R, p)) {
        t->stats.rst_out_of_window++; /* a blind or stale RST: the receiver ignores it */
        v = TCP_PKT_RST_IGNORED;
        goto out;
    }
    if ((k == TCP_K_SYN || k == TCP_K_SYNACK) && S->state >= MON_TCP_ESTABLISHED &&
        (S->flags & MON_TCPF_ISN_KNOWN) && p->tcp_seq != S->isn) {
        nx = TCP_S_INV; /* a new ISN in a synchronized connection (RFC 5961 §4) */
    } else {
        nx = tcp_next_state(TCP_DIR_SND, k, S->state);
    }
    if (nx == TCP_S_ASYNC)
        nx = t->cfg.async_oneside ? MON_TCP_ESTABLISHED : TCP_S_INV;
    if (nx == TCP_S_INV) {
        t->stats.invalid_state++;
        v = TCP_PKT_INVALID;
        goto out;
    }
    S->flags |= MON_TCPF_SEEN;
    if (k == TCP_K_SYN || k == TCP_K_SYNACK) {
        take_syn(S, R, p, k, snd == MON_SIDE_CLI ? f->tcp.syn_tsval : NULL);
        S->rcv_wnd = p->tcp_win; /* RFC 7323 §2.2: the window of a SYN is never scaled */
    } else if (k != TCP_K_RST) {
        S->rcv_wnd = (uint32_t)p->tcp_win << tcp_wscale(S);
    }
    if ((p->tcp_flags & MON_TH_ACK) && k != TCP_K_RST)
        take_ack(R, p->tcp_ack);
    if (k != TCP_K_RST) {
        uint32_t end = p->tcp_seq + tcp_seg_len(p);
        if (seq_gt(end, S->snd_nxt) && end - S->snd_nxt <= TCP_MAX_WIN)
            S->snd_nxt = end;
    }
    if (k == TCP_K_FIN)
        S->flags |= MON_TCPF_FIN_SENT;
    if (k == TCP_K_RST) {
        S->flags |= MON_TCPF_RESET;
        R->flags |= MON_TCPF_RESET;
        f->tcp.rst_by = (uint8_t)(snd + 1);
    }
    if (nx < MON_TCP__STATE_COUNT)
        S->state = nx;
out:
    tcp_note_set(t, f, p, v);
    if (S->state == old)
        return 0;
    uint32_t ev = TCP_EV(MON_ON_TCP_STATE_CHANGE);
    /* No phase 3 will run for a stopped receiver: the end is decided here then. */
    if ((R->flags & MON_TCPF_STOPPED) && !(S->flags & MON_TCPF_ENDED) && tcp_conn_done(f)) {
        S->flags |= MON_TCPF_ENDED;
        R->flags |= MON_TCPF_ENDED;
        ev |= TCP_EV(MON_ON_CONN_END);
    }
    return ev;
}
