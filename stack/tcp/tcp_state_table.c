/* tcp_state_table.c — the TCP state machine of both endpoints, as one table.
 *
 * A middlebox sees each packet once, but the packet moves two endpoints: its sender (which
 * did something: sent a SYN, a FIN, a RST) and its receiver (which learns something: the
 * peer's SYN or FIN arrived, its own SYN or FIN was acknowledged). So the table is indexed
 * by direction (did the endpoint send or receive the packet) × packet kind × the endpoint's
 * state, in the style of Linux conntrack's tcp_conntracks[2][6][TCP_CONNTRACK_MAX] — but its
 * states are each endpoint's RFC 793 states, not one state per connection (mOS §4.1).
 *
 * Phase 1 (tcp_sender.c) looks up [SND][kind][sender's state]; phase 3 (tcp_receiver.c)
 * looks up [RCV][kind][receiver's state], with two refinements the table cannot express:
 *  - the RCV "ACK" row is used only when the packet acknowledges everything the receiver
 *    sent (its SYN or FIN included); an ACK of older data moves nobody;
 *  - a FIN packet is looked up twice in RCV: its ACK first (when it acknowledges all), then
 *    its FIN — so FIN+ACK in FIN_WAIT_1 goes through FIN_WAIT_2 to TIME_WAIT in one packet.
 * Before the table: a RST must be acceptable to its receiver (tcp_window.c) or it is
 * ignored; a SYN or SYN-ACK from an endpoint already ESTABLISHED must carry its ISN (a
 * retransmission) or it is invalid; a SYN-ACK must acknowledge the receiver's SYN to move
 * it; and after CONN_END only retransmitted FINs and final ACKs are part of the connection
 * (tcp_conn.c).
 *
 * When does the server move? On RECEIVING the client's SYN: LISTEN → SYN_RCVD (RFC 793's
 * passive open, as mOS does). Its SYN-ACK then changes nothing for it; the client becomes
 * ESTABLISHED on receiving the SYN-ACK, the server on receiving the ACK of its SYN.
 */
#include "tcp_internal.h"

#define sCL MON_TCP_CLOSED
#define sLI MON_TCP_LISTEN
#define sSS MON_TCP_SYN_SENT
#define sSR MON_TCP_SYN_RCVD
#define sES MON_TCP_ESTABLISHED
#define sF1 MON_TCP_FIN_WAIT_1
#define sF2 MON_TCP_FIN_WAIT_2
#define sCG MON_TCP_CLOSING
#define sTW MON_TCP_TIME_WAIT
#define sCW MON_TCP_CLOSE_WAIT
#define sLA MON_TCP_LAST_ACK
#define sSM TCP_S_SAME
#define sIV TCP_S_INV
#define sAO TCP_S_ASYNC

static const uint8_t tcp_table[TCP_DIR__COUNT][TCP_K__COUNT][MON_TCP__STATE_COUNT] = {
    /* ===================== the endpoint SENT the packet ===================== */
    [TCP_DIR_SND] = {
        [TCP_K_SYN] = {
            [sCL] = sSS, /* active open: the connection's first SYN (the client starts CLOSED) */
            [sLI] = sSS, /* the "server" sends a SYN of its own, not a SYN-ACK: it opens too
                          * (simultaneous open; the client's SYN happened to be seen first) */
            [sSS] = sSM, /* SYN retransmitted */
            [sSR] = sSM, /* crossing SYNs: we saw the peer's SYN reach it before its own left */
            [sES] = sSM, /* its SYN again (same ISN: a SYN with another one in a synchronized
                          * state is invalid before the table, RFC 5961 §4): the SYN-ACK we saw
                          * never reached it */
            [sF1] = sIV, [sF2] = sIV, [sCG] = sIV, [sTW] = sIV, [sCW] = sIV, [sLA] = sIV,
        },
        [TCP_K_SYNACK] = {
            [sCL] = sIV, /* a CLOSED endpoint has no SYN to answer */
            [sLI] = sSR, /* it answers a SYN we did not see arrive */
            [sSS] = sSR, /* simultaneous open: it sent a SYN, got the peer's, answers both */
            [sSR] = sSM, /* the handshake's SYN-ACK, or its retransmission */
            [sES] = sSM, /* SYN-ACK retransmitted: the handshake's ACK reached us, not it */
            [sF1] = sIV, [sF2] = sIV, [sCG] = sIV, [sTW] = sIV, [sCW] = sIV, [sLA] = sIV,
        },
        [TCP_K_FIN] = {
            [sCL] = sSM, /* FIN retransmitted after its close completed (only a FIN rexmit gets
                          * this far after CONN_END; see tcp_after_end_ok) */
            [sLI] = sIV, /* nothing to close */
            [sSS] = sIV, /* RFC 793: closing in SYN-SENT sends no FIN */
            [sSR] = sF1, /* RFC 793: CLOSE in SYN-RECEIVED sends a FIN → FIN-WAIT-1 */
            [sES] = sF1, /* active close */
            [sF1] = sSM, /* FIN retransmitted */
            [sF2] = sSM, /* FIN retransmitted: its ACK reached us but not it */
            [sCG] = sSM, /* FIN retransmitted during a simultaneous close */
            [sTW] = sSM, /* FIN retransmitted: the peer's ACK of it was lost after us */
            [sCW] = sLA, /* passive close: the second FIN of the connection */
            [sLA] = sSM, /* FIN retransmitted */
        },
        [TCP_K_ACK] = {
            [sCL] = sSM, /* it acknowledges the peer's FIN after its own close: the FINs
                          * crossed, so it was really in CLOSING/TIME_WAIT, not LAST_ACK */
            [sLI] = sIV, /* a listener has no connection to acknowledge */
            [sSS] = sAO, /* it acknowledges a SYN-ACK we never saw: believable only when we see
                          * one direction of the traffic (async_oneside); else data before the
                          * handshake, invalid */
            [sSR] = sSM, /* it acknowledges/sends before the handshake's last ACK reached us */
            [sES] = sSM, /* data and acknowledgments */
            [sF1] = sSM, /* it still acknowledges the peer's data */
            [sF2] = sSM, /* likewise: half close, the peer may still send */
            [sCG] = sSM, /* acknowledging the peer's FIN in a simultaneous close */
            [sTW] = sSM, /* the final ACK, or a repeat of it */
            [sCW] = sSM, /* half close: its direction still carries data */
            [sLA] = sSM, /* acknowledging while its FIN is outstanding */
        },
        [TCP_K_RST] = { /* only RSTs acceptable to the receiver get here (tcp_rst_acceptable) */
            [sCL] = sSM, /* already closed */
            [sLI] = sCL, /* refusing a connection whose SYN we did not see arrive */
            [sSS] = sCL, [sSR] = sCL, [sES] = sCL, [sF1] = sCL, [sF2] = sCL, [sCG] = sCL,
            [sTW] = sCL, [sCW] = sCL, [sLA] = sCL, /* abort: RFC 793 "delete the TCB" */
        },
        [TCP_K_NONE] = { /* no ACK (nor SYN/RST), or SYN+FIN: RFC 793 drops segments without
                          * ACK in every synchronized state, and no state sends them */
            [sCL] = sIV, [sLI] = sIV, [sSS] = sIV, [sSR] = sIV, [sES] = sIV, [sF1] = sIV,
            [sF2] = sIV, [sCG] = sIV, [sTW] = sIV, [sCW] = sIV, [sLA] = sIV,
        },
    },
    /* ===================== the endpoint RECEIVED the packet ===================== */
    [TCP_DIR_RCV] = {
        [TCP_K_SYN] = {
            [sCL] = sIV, /* no listener: (a client never receives a SYN before sending its own) */
            [sLI] = sSR, /* passive open (RFC 793): the server moves when the SYN reaches it */
            [sSS] = sSR, /* simultaneous open: the peer's SYN crossed its own */
            [sSR] = sSM, /* SYN retransmitted */
            [sES] = sIV, /* in-window SYN in a synchronized state: challenge ACK, no change */
            [sF1] = sIV, [sF2] = sIV, [sCG] = sIV, [sTW] = sIV, [sCW] = sIV, [sLA] = sIV,
        },
        [TCP_K_SYNACK] = { /* moves it only if it acknowledges its SYN (checked before) */
            [sCL] = sIV, /* nothing to acknowledge */
            [sLI] = sIV, /* a listener sent no SYN */
            [sSS] = sES, /* RFC 793: SYN-SENT gets SYN+ACK of its SYN → ESTABLISHED */
            [sSR] = sES, /* simultaneous open: the peer's SYN-ACK acknowledges its SYN */
            [sES] = sSM, /* SYN-ACK retransmitted */
            [sF1] = sIV, [sF2] = sIV, [sCG] = sIV, [sTW] = sIV, [sCW] = sIV, [sLA] = sIV,
        },
        [TCP_K_FIN] = {
            [sCL] = sSM, /* FIN retransmitted after the close completed */
            [sLI] = sIV, /* no connection */
            [sSS] = sIV, /* a FIN before any SYN-ACK: no connection to close yet */
            [sSR] = sCW, /* RFC 793: FIN in SYN-RECEIVED → CLOSE-WAIT */
            [sES] = sCW, /* the peer closes first: passive close */
            [sF1] = sCG, /* simultaneous close: the peer's FIN before the ACK of ours */
            [sF2] = sTW, /* the peer's FIN after ours was acknowledged */
            [sCG] = sSM, /* FIN retransmitted */
            [sTW] = sSM, /* FIN retransmitted: it will ACK again */
            [sCW] = sSM, /* FIN retransmitted */
            [sLA] = sSM, /* FIN retransmitted */
        },
        [TCP_K_ACK] = { /* looked up only when the ACK covers all it sent (SYN/FIN included) */
            [sCL] = sSM, /* nothing outstanding */
            [sLI] = sIV, /* a listener has nothing to have acknowledged */
            [sSS] = sAO, /* its SYN acknowledged without a SYN-ACK we saw: one-sided capture
                          * (async_oneside) or invalid */
            [sSR] = sES, /* the handshake's last ACK: its SYN is acknowledged */
            [sES] = sSM, /* ordinary acknowledgment */
            [sF1] = sF2, /* its FIN acknowledged */
            [sF2] = sSM, /* already acknowledged */
            [sCG] = sTW, /* its FIN acknowledged after the peer's FIN arrived */
            [sTW] = sSM, /* nothing outstanding */
            [sCW] = sSM, /* ordinary acknowledgment */
            [sLA] = sCL, /* its FIN acknowledged: the end of a passive close */
        },
        [TCP_K_RST] = { /* only acceptable RSTs get here */
            [sCL] = sSM, /* already closed */
            [sLI] = sIV, /* RFC 793: a listener ignores RSTs (never acceptable, see window.c) */
            [sSS] = sCL, [sSR] = sCL, [sES] = sCL, [sF1] = sCL, [sF2] = sCL, [sCG] = sCL,
            [sTW] = sCL, [sCW] = sCL, [sLA] = sCL, /* reset: the connection is gone */
        },
        [TCP_K_NONE] = { /* dropped by every stack (see above) */
            [sCL] = sIV, [sLI] = sIV, [sSS] = sIV, [sSR] = sIV, [sES] = sIV, [sF1] = sIV,
            [sF2] = sIV, [sCG] = sIV, [sTW] = sIV, [sCW] = sIV, [sLA] = sIV,
        },
    },
};

enum tcp_kind tcp_kind_of(uint8_t fl)
{
    if (fl & MON_TH_RST)
        return TCP_K_RST; /* a RST is a RST whatever else is set */
    if ((fl & (MON_TH_SYN | MON_TH_FIN)) == (MON_TH_SYN | MON_TH_FIN))
        return TCP_K_NONE; /* SYN+FIN: no stack sends it; an evasion/scan, dropped */
    if (fl & MON_TH_SYN)
        return (fl & MON_TH_ACK) ? TCP_K_SYNACK : TCP_K_SYN;
    if (!(fl & MON_TH_ACK))
        return TCP_K_NONE; /* FIN or data without ACK: dropped in synchronized states */
    if (fl & MON_TH_FIN)
        return TCP_K_FIN;
    return TCP_K_ACK;
}

uint8_t tcp_next_state(enum tcp_dir d, enum tcp_kind k, uint8_t s)
{
    if ((unsigned)d >= TCP_DIR__COUNT || (unsigned)k >= TCP_K__COUNT || s >= MON_TCP__STATE_COUNT)
        return TCP_S_INV;
    return tcp_table[d][k][s];
}

static const char *const state_names[MON_TCP__STATE_COUNT] = {
    [MON_TCP_CLOSED] = "CLOSED",         [MON_TCP_LISTEN] = "LISTEN",
    [MON_TCP_SYN_SENT] = "SYN_SENT",     [MON_TCP_SYN_RCVD] = "SYN_RCVD",
    [MON_TCP_ESTABLISHED] = "ESTABLISHED", [MON_TCP_FIN_WAIT_1] = "FIN_WAIT_1",
    [MON_TCP_FIN_WAIT_2] = "FIN_WAIT_2", [MON_TCP_CLOSING] = "CLOSING",
    [MON_TCP_TIME_WAIT] = "TIME_WAIT",   [MON_TCP_CLOSE_WAIT] = "CLOSE_WAIT",
    [MON_TCP_LAST_ACK] = "LAST_ACK",
};

const char *mon_tcp_state_name(enum mon_tcp_state s)
{
    return (unsigned)s < MON_TCP__STATE_COUNT ? state_names[s] : "UNKNOWN";
}

const char *mon_tcp_event_name(enum mon_tcp_event e)
{
    static const char *const N[] = {
#define MON_X_NAME(e, name) name,
        MON_TCP_EVENTS(MON_X_NAME)
#undef MON_X_NAME
    };
    return (unsigned)e < MON_TE__COUNT ? N[e] : "?";
}
