/* tcp_checks.c — Suricata's stream events of its TCP state machine, as observations.
 *
 * Suricata keeps one state per session and checks each packet against it (stream-tcp.c):
 * a SYN-ACK that acknowledges the wrong thing, a FIN outside the window, an ACK for data
 * never sent. Osprey keeps each endpoint's state (tcp_state_table.c) and already decides
 * what such packets do; here, in phase 1, before the packet moves anything, the same checks
 * only *name* what they see (mon_packet.tcp_events, mon_tcp.h): a packet that raises one is
 * handled exactly as it was before (they write nothing but the counts and marks they keep
 * for themselves in mon_tcp_conn). Suricata's session state is read off the two endpoints
 * (session_state below); its per-stream values are ours:
 *   S.next_seq = S->snd_nxt (its FIN counted once sent; the FIN's own sequence number is
 *   accepted as well, as Suricata's versions differ there), S.last_ack = S->snd_una,
 *   S.window = R->rcv_wnd (what R lets S send), S.next_win = S.last_ack + S.window.
 */
#include "tcp_internal.h"

/* Suricata's session states. */
enum su_state {
    SU_NONE, SU_SYN_SENT, SU_4WHS, SU_4WHS_RECV, SU_SYN_RECV, SU_EST, SU_FIN1, SU_FIN2, SU_CLOSING,
    SU_CLOSE_WAIT, SU_LAST_ACK, SU_TIME_WAIT, SU_CLOSED,
};

/* Suricata names the closing states from the server's side: the client's FIN first is
 * CLOSE_WAIT (then LAST_ACK when the server's FIN follows), the server's first is FIN_WAIT1
 * (FIN_WAIT2 once acknowledged, CLOSING if the client's FIN crosses it). */
static enum su_state session_state(const struct mon_tcp_conn *c)
{
    uint8_t C = c->side[MON_SIDE_CLI].state, V = c->side[MON_SIDE_SVR].state;
    switch (V) {
    case MON_TCP_ESTABLISHED: /* (the client still in SYN_RCVD: the end of a four-way
                                 handshake, the server's ACK to come) */
        return C == MON_TCP_SYN_RCVD ? SU_4WHS_RECV : SU_EST;
    case MON_TCP_LISTEN: return C == MON_TCP_SYN_SENT ? SU_SYN_SENT : SU_NONE;
    case MON_TCP_SYN_RCVD:  /* the client's SYN arrived: its SYN-ACK moved the client */
        return C == MON_TCP_ESTABLISHED ? SU_SYN_RECV
             : C == MON_TCP_SYN_RCVD    ? SU_4WHS  /* the server sent a SYN of its own */
                                        : SU_SYN_SENT;
    case MON_TCP_CLOSE_WAIT: return SU_CLOSE_WAIT;
    case MON_TCP_LAST_ACK: return SU_LAST_ACK;
    case MON_TCP_FIN_WAIT_1: return SU_FIN1;
    case MON_TCP_FIN_WAIT_2: return SU_FIN2;
    case MON_TCP_CLOSING: return SU_CLOSING;
    case MON_TCP_TIME_WAIT: return C == MON_TCP_CLOSED ? SU_CLOSED : SU_TIME_WAIT;
    default: return C == MON_TCP_TIME_WAIT ? SU_TIME_WAIT : SU_CLOSED;
    }
}

struct chk {
    struct tcp_ctx *t;
    const struct mon_tcp_side *S, *R;
    const struct mon_packet *p;
    enum su_state st;
    bool to_server;
};

static void raise_ev(struct chk *k, enum mon_tcp_event e)
{
    k->t->pkt_events |= 1ull << e;
}

static uint32_t s_next(const struct chk *k) { return k->S->snd_nxt; }
/* S's next sequence number not counting its FIN */
static uint32_t s_next0(const struct chk *k)
{
    return k->S->snd_nxt - ((k->S->flags & MON_TCPF_FIN_SENT) ? 1u : 0u);
}
static uint32_t s_next_win(const struct chk *k) { return k->S->snd_una + k->R->rcv_wnd; }

/* Suricata's StreamTcpValidateAck on R's stream: the ack may repeat R's last ack, move it up
 * to R's right window edge, or fall back less than a window; anything else is invalid
 * (pkt_invalid_ack, beside the state's own event). A packet without ACK is not judged. */
static bool ack_invalid(struct chk *k)
{
    const struct mon_packet *p = k->p;
    if (!(p->tcp_flags & MON_TH_ACK))
        return false;
    uint32_t ack = p->tcp_ack, una = k->R->snd_una, win = k->S->rcv_wnd;
    if (ack == una || (seq_gt(ack, una) && seq_leq(ack, una + win)))
        return false;
    bool bad = seq_lt(ack, una) ? win != 0 && seq_lt(ack, una - win)
                                : k->st > SU_SYN_SENT;
    if (bad)
        raise_ev(k, MON_TE_PKT_INVALID_ACK);
    return bad;
}

/* Suricata's StreamTcpPacketIsRetransmission after a FIN: data S sent before. */
static bool rexmit(struct chk *k)
{
    const struct mon_packet *p = k->p;
    if (!p->payload_len)
        return false;
    uint32_t end = p->tcp_seq + p->payload_len;
    bool rx = (seq_lt(p->tcp_seq, k->S->snd_una) && seq_gt(end, k->S->snd_una)) ||
              seq_leq(end, k->S->snd_una) || seq_leq(end, s_next0(k));
    if (rx)
        raise_ev(k, MON_TE_PKT_REXMIT);
    return rx;
}

/* The handshake: SYN_SENT (the client's SYN only), SYN_RECV (the server's SYN-ACK too),
 * the four-way variant (both sent a SYN). */
static void handshake(struct chk *k, enum tcp_kind kind, const struct mon_tcp_side *C,
                      const struct mon_tcp_side *V, struct mon_tcp_conn *conn)
{
    const struct mon_packet *p = k->p;
    if (k->st == SU_SYN_SENT) {
        if (kind == TCP_K_SYNACK && !k->to_server && p->tcp_ack != C->isn + 1u)
            raise_ev(k, MON_TE_SYNACK_WRONG_ACK);
        /* one-sided capture: the client's ACK must follow its SYN */
        if (kind == TCP_K_ACK && k->to_server && k->t->cfg.async_oneside &&
            p->tcp_seq != C->snd_nxt)
            raise_ev(k, MON_TE_ASYNC_WRONG_SEQ);
        return;
    }
    if (k->st == SU_4WHS_RECV) { /* the last packet of a four-way handshake: the server's ACK */
        if (kind == TCP_K_ACK && !k->to_server) {
            if (p->tcp_seq != V->snd_nxt)
                raise_ev(k, MON_TE_4WHS_WRONG_SEQ);
            else if (ack_invalid(k))
                raise_ev(k, MON_TE_4WHS_INVALID_ACK);
        }
        return;
    }
    if (k->st == SU_4WHS) {
        if (kind == TCP_K_SYNACK && k->to_server) {
            if (p->tcp_ack != V->isn + 1u)
                raise_ev(k, MON_TE_4WHS_SYNACK_WRONG_ACK);
            else if (p->tcp_seq != C->isn)
                raise_ev(k, MON_TE_4WHS_SYNACK_WRONG_SYN);
        }
        return;
    }
    /* SU_SYN_RECV */
    switch (kind) {
    case TCP_K_SYNACK:
        if (k->to_server)
            raise_ev(k, MON_TE_SYNACK_TOSERVER_SYN_RECV);
        else if (p->tcp_ack != C->isn + 1u)
            raise_ev(k, MON_TE_SYNACK_RESEND_DIFF_ACK);
        else if (p->tcp_seq != V->isn) {
            /* Suricata queues SYN-ACKs with another ISN (the ACK tells which one counted),
             * up to stream.max-synack-queued; here each one whose ISN differs from the
             * latest counts (Suricata counts distinct ones) */
            if (conn->synack_new_isns < UINT8_MAX)
                conn->synack_new_isns++;
            if (conn->synack_new_isns > TCP_MAX_SYNACK_QUEUED)
                raise_ev(k, MON_TE_SYNACK_FLOOD);
        }
        break;
    case TCP_K_SYN:
        if (!k->to_server)
            raise_ev(k, MON_TE_SYN_TOCLIENT_SYN_RECV);
        else if (p->tcp_seq != C->isn)
            raise_ev(k, MON_TE_SYN_RESEND_DIFF_SEQ_SYN_RECV);
        break;
    case TCP_K_ACK:
        if (!k->to_server) {
            /* Passively, the handshake's ACK may just have been missed; inline (IPS) we would
             * have seen it: server data then is an injection, anything else the wrong way */
            if (!k->t->cfg.inline_mode || k->t->cfg.async_oneside)
                break;
            if (p->payload_len && p->tcp_ack == C->snd_una && p->tcp_seq == V->snd_nxt)
                raise_ev(k, MON_TE_ACK_DATA_INJECT);
            else
                raise_ev(k, MON_TE_ACK_IN_WRONG_DIR);
        } else if (p->tcp_seq == C->snd_nxt) {
            if (p->tcp_ack != V->snd_nxt) /* Linux and Solaris keep such a connection */
                raise_ev(k, MON_TE_RIGHT_SEQ_WRONG_ACK);
        } else if (!(seq_gt(p->tcp_seq, C->snd_nxt) && seq_leq(p->tcp_seq, s_next_win(k)) &&
                     p->tcp_ack == V->snd_nxt)) { /* (in window past it: packets missed) */
            raise_ev(k, MON_TE_WRONG_SEQ_WRONG_ACK);
        }
        break;
    default:
        break;
    }
}

/* A FIN in SYN_RECV or ESTABLISHED (Suricata's StreamTcpHandleFin). */
static void first_fin(struct chk *k)
{
    const struct mon_packet *p = k->p;
    if (ack_invalid(k))
        raise_ev(k, MON_TE_FIN_INVALID_ACK);
    else if (seq_lt(p->tcp_seq, s_next0(k)) || seq_gt(p->tcp_seq, s_next_win(k)))
        raise_ev(k, MON_TE_FIN_OUT_OF_WINDOW);
    else if (p->tcp_flags & MON_TH_SYN)
        raise_ev(k, MON_TE_FIN_SYN);
}

static void established(struct chk *k, enum tcp_kind kind, const struct mon_tcp_side *C,
                        const struct mon_tcp_side *V, uint8_t marks)
{
    const struct mon_packet *p = k->p;
    switch (kind) {
    case TCP_K_SYNACK:
        if (k->to_server)
            raise_ev(k, MON_TE_EST_SYNACK_TOSERVER);
        else if (p->tcp_ack != C->snd_una)
            raise_ev(k, MON_TE_EST_SYNACK_DIFF_ACK);
        else if (p->tcp_seq != V->isn)
            raise_ev(k, MON_TE_EST_SYNACK_DIFF_SEQ);
        else if (marks & MON_TCPM_3WHS_CONFIRMED)
            raise_ev(k, MON_TE_EST_SYNACK_RESEND);
        break;
    case TCP_K_SYN:
        if (!k->to_server)
            raise_ev(k, MON_TE_EST_SYN_TOCLIENT);
        else
            raise_ev(k, p->tcp_seq != C->isn ? MON_TE_EST_SYN_DIFF_SEQ : MON_TE_EST_SYN_RESEND);
        break;
    case TCP_K_ACK: {
        if (ack_invalid(k)) {
            raise_ev(k, MON_TE_EST_INVALID_ACK);
            break;
        }
        uint32_t end = p->tcp_seq + p->payload_len;
        if (p->payload_len <= 1 && p->tcp_seq == s_next(k) - 1u)
            break; /* a keep-alive */
        if (seq_lt(end, k->S->snd_una))
            raise_ev(k, MON_TE_EST_BEFORE_LAST_ACK);
        else if (seq_gt(end, s_next_win(k)) && k->R->rcv_wnd)
            raise_ev(k, MON_TE_EST_OUT_OF_WINDOW);
        break;
    }
    default:
        break;
    }
}

/* FIN_WAIT1 / FIN_WAIT2 (the server closed first), CLOSING, CLOSE_WAIT (the client closed
 * first), LAST_ACK, TIME_WAIT: the per-state events of Suricata's shutdown handlers. */
static void closing(struct chk *k, enum tcp_kind kind)
{
    const struct mon_packet *p = k->p;
    static const enum mon_tcp_event FIN_SEQ[] = {[SU_FIN1] = MON_TE_FIN1_FIN_WRONG_SEQ,
                                                 [SU_FIN2] = MON_TE_FIN2_FIN_WRONG_SEQ};
    static const enum mon_tcp_event ACK_SEQ[] = {[SU_FIN1] = MON_TE_FIN1_ACK_WRONG_SEQ,
                                                 [SU_FIN2] = MON_TE_FIN2_ACK_WRONG_SEQ};
    static const enum mon_tcp_event BAD_ACK[] = {
        [SU_FIN1] = MON_TE_FIN1_INVALID_ACK, [SU_FIN2] = MON_TE_FIN2_INVALID_ACK,
        [SU_CLOSING] = MON_TE_CLOSING_INVALID_ACK, [SU_CLOSE_WAIT] = MON_TE_CLOSEWAIT_INVALID_ACK,
        [SU_LAST_ACK] = MON_TE_LASTACK_INVALID_ACK, [SU_TIME_WAIT] = MON_TE_TIMEWAIT_INVALID_ACK};
    enum su_state st = k->st;
    if (kind == TCP_K_SYN || kind == TCP_K_SYNACK) {
        raise_ev(k, MON_TE_SHUTDOWN_SYN_RESEND);
        return;
    }
    if (kind == TCP_K_FIN) {
        if (st == SU_LAST_ACK || st == SU_TIME_WAIT || st == SU_CLOSING)
            return; /* Suricata looks no further at a FIN there */
        bool rx = rexmit(k);
        bool out = seq_lt(p->tcp_seq, s_next0(k)) || seq_gt(p->tcp_seq, s_next_win(k));
        if (!rx && out)
            raise_ev(k, st == SU_CLOSE_WAIT ? MON_TE_CLOSEWAIT_FIN_OUT_OF_WINDOW : FIN_SEQ[st]);
        else if (ack_invalid(k))
            raise_ev(k, BAD_ACK[st]);
        return;
    }
    if (kind != TCP_K_ACK)
        return;
    bool rx = rexmit(k);
    uint32_t end = p->tcp_seq + p->payload_len;
    bool at_next = p->tcp_seq == s_next(k) || p->tcp_seq == s_next0(k);
    switch (st) {
    case SU_FIN1:
    case SU_FIN2: {
        /* (not for a pick-up or a one-sided capture, whose windows are guesses) */
        bool guessed = (k->S->flags & MON_TCPF_MIDSTREAM) || k->t->cfg.async_oneside;
        if (ack_invalid(k))
            raise_ev(k, BAD_ACK[st]);
        else if (!rx && !guessed && seq_gt(end, s_next_win(k)) && k->R->rcv_wnd)
            raise_ev(k, ACK_SEQ[st]);
        break;
    }
    case SU_CLOSING:
        if (!at_next)
            raise_ev(k, MON_TE_CLOSING_ACK_WRONG_SEQ);
        else if (ack_invalid(k))
            raise_ev(k, BAD_ACK[st]);
        break;
    case SU_CLOSE_WAIT:
        if (p->payload_len && seq_leq(end, k->S->snd_una))
            raise_ev(k, MON_TE_CLOSEWAIT_BEFORE_LAST_ACK);
        else if (seq_gt(p->tcp_seq, s_next_win(k)) && k->R->rcv_wnd)
            raise_ev(k, MON_TE_CLOSEWAIT_ACK_OUT_OF_WINDOW);
        else if (ack_invalid(k))
            raise_ev(k, BAD_ACK[st]);
        break;
    case SU_LAST_ACK:
        if (ack_invalid(k))
            raise_ev(k, BAD_ACK[st]);
        else if (!rx && !at_next && seq_gt(p->tcp_seq, s_next(k)))
            raise_ev(k, MON_TE_LASTACK_ACK_WRONG_SEQ);
        break;
    case SU_TIME_WAIT:
        if (!rx && !at_next)
            raise_ev(k, MON_TE_TIMEWAIT_ACK_WRONG_SEQ);
        else if (ack_invalid(k))
            raise_ev(k, BAD_ACK[st]);
        break;
    default:
        break;
    }
}

/* Suricata's StreamTcpPacketIsBadWindowUpdate (bug 1238): an ACK past everything we saw that
 * shrinks the sender's window by more than it moves its ack (32 bytes of slack above 1024). */
static bool bad_window_update(struct chk *k, enum tcp_kind kind)
{
    const struct mon_packet *p = k->p;
    if (kind != TCP_K_ACK || k->st < SU_EST || k->st == SU_CLOSED)
        return false;
    uint32_t win = (uint32_t)p->tcp_win << tcp_wscale(k->S);
    if (win >= k->S->rcv_wnd)
        return false;
    uint32_t diff = k->S->rcv_wnd - win;
    if (!(diff > p->payload_len && seq_gt(p->tcp_ack, k->R->snd_nxt) &&
          seq_gt(p->tcp_seq, s_next(k))))
        return false;
    uint32_t adiff = p->tcp_ack - k->R->snd_una;
    return (win > 1024 && diff > adiff + 32) || (win <= 1024 && diff > adiff);
}

void tcp_state_checks(struct tcp_ctx *t, struct mon_flow *f, int snd, enum tcp_kind kind,
                      const struct mon_packet *p)
{
    struct mon_tcp_conn *c = &f->tcp;
    const struct mon_tcp_side *S = &c->side[snd], *R = &c->side[snd ^ 1];
    if ((S->flags | R->flags) & MON_TCPF_PICKUP)
        return; /* a pick-up's first packets: nothing to check against yet */
    struct chk k = {.t = t, .S = S, .R = R, .p = p, .st = session_state(c),
                    .to_server = snd == MON_SIDE_CLI};
    const struct mon_tcp_side *C = &c->side[MON_SIDE_CLI], *V = &c->side[MON_SIDE_SVR];
    /* While the client waits for the SYN-ACK only its own SYN is known (the server's first
     * packet is being judged); every other check needs both ends' sequence numbers. */
    if (k.st == SU_SYN_SENT && (C->flags & MON_TCPF_ISN_KNOWN)) {
        handshake(&k, kind, C, V, c);
        return;
    }
    if (!(S->flags & MON_TCPF_ISN_KNOWN) || !(R->flags & MON_TCPF_ISN_KNOWN))
        return;
    if (kind == TCP_K_RST) {
        /* an ack on a RST must be valid too (StreamTcpValidateRst) */
        if (k.st >= SU_SYN_RECV && ack_invalid(&k))
            raise_ev(&k, MON_TE_RST_INVALID_ACK);
        return;
    }
    if (kind == TCP_K_NONE) {
        if (!(p->tcp_flags & MON_TH_FIN))
            return;
        kind = TCP_K_FIN; /* a FIN without ACK, or SYN+FIN: Suricata's FIN handlers take it */
    }
    if (bad_window_update(&k, kind)) {
        raise_ev(&k, MON_TE_BAD_WINDOW_UPDATE);
        return; /* Suricata looks no further at it */
    }
    switch (k.st) {
    case SU_4WHS:
    case SU_4WHS_RECV:
        handshake(&k, kind, C, V, c);
        break;
    case SU_SYN_RECV:
        if (kind == TCP_K_FIN)
            first_fin(&k);
        else
            handshake(&k, kind, C, V, c);
        break;
    case SU_EST:
        if (kind == TCP_K_FIN)
            first_fin(&k);
        else
            established(&k, kind, C, V, c->marks);
        /* the server's first packet after the handshake confirms it */
        if (!k.to_server && kind != TCP_K_SYN && kind != TCP_K_SYNACK)
            c->marks |= MON_TCPM_3WHS_CONFIRMED;
        break;
    case SU_NONE:
    case SU_CLOSED:
        break;
    default:
        closing(&k, kind);
        break;
    }
}
