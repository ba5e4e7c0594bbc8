/* tcp_contract_internal.h — the contract between libmon's core (stack/core) and its TCP
 * layer (stack/tcp). Internal: applications use mon.h.
 *
 * The core calls, for each TCP packet of a flow, in this order (mOS §4.1):
 *   ev = tcp_sender_update(...)      the sender's state; returns built-in event bits
 *   rx = tcp_is_rexmit(...)          does the packet retransmit bytes the receiver holds/has had?
 *   ev = tcp_receiver_update(...)    the receiver's state and reassembly; returns event bits
 * and runs the events of each phase between the calls. Event bits are (1u << MON_ON_*).
 * The sender side index is `snd`, the receiver `snd ^ 1`. A side flagged MON_TCPF_STOPPED
 * is not updated: the core skips its phase (and these functions return 0 for it too).
 *
 * Which phase moves which endpoint is in tcp_state_table.c (one table, each transition
 * commented); stack/tcp/README.md has the summary and the overlap policies.
 */
#ifndef MON_TCP_CONTRACT_INTERNAL_H
#define MON_TCP_CONTRACT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "mon.h"

#define TCP_EV(e) (1u << (e))

/* What phase 1 decided about the packet in flight, so that phases 2 and 3 neither judge it
 * differently nor count it twice. Matched by flow, packet and header fields: a stale note
 * (a packet dropped between phases) never applies to the next packet. */
enum tcp_verdict { TCP_PKT_OK, TCP_PKT_ORPHAN, TCP_PKT_INVALID, TCP_PKT_RST_IGNORED };
struct tcp_note {
    const struct mon_flow *f;
    const struct mon_packet *p;
    uint32_t seq, ack, len;
    uint8_t tcp_flags;
    uint8_t verdict;  /* enum tcp_verdict */
};

/* Per-context TCP state: configuration, statistics and the reassembly memory account
 * (stats.reasm_memuse, checked against cfg.memcap). Owns no memory itself: every buffer
 * belongs to a flow and is released by tcp_conn_free. */
struct tcp_ctx {
    struct mon_tcp_cfg cfg;
    struct mon_tcp_stats stats;
    struct tcp_note note;
    uint64_t pkt_events;  /* 1 << enum mon_tcp_event of the packet being updated (sender side) */
    /* streams holding out-of-order data, least recently stored to first (reasm_reclaim.c) */
    struct mon_reasm *hold_first, *hold_last;
};

void tcp_ctx_init(struct tcp_ctx *t, const struct mon_tcp_cfg *cfg);

/* Set up a new flow's connection from its first packet. dir is the packet's direction
 * (MON_FLOW_TO_SERVER / _TO_CLIENT). Returns event bits: CONN_START when the packet opens a
 * connection (a SYN without ACK, or — with cfg.midstream — any packet but a RST), ORPHAN
 * (counted in stats.orphans) when it cannot. Every field of f->tcp is (re)initialised: the
 * record may be a reused one. Policies are looked up here, once per connection. */
uint32_t tcp_conn_init(struct tcp_ctx *t, struct mon_flow *f, int dir, const struct mon_packet *p);

/* Phase 1: the sender's endpoint (snd = MON_SIDE_CLI when the client sent p). Updates its
 * state from the packet's flags/seq/ack/window and the peer's acknowledged sequence. Returns
 * TCP_STATE_CHANGE when the sender's state changed; ORPHAN when the packet belongs to no live
 * connection (after a RST, or after a close other than the final ACK / a retransmitted FIN);
 * CONN_END only when the receiver is stopped (no phase 3 will come) and this packet ends the
 * connection. Invalid packets (stats.invalid_state) and RSTs outside the receiver's window
 * (stats.rst_out_of_window) change nothing and return 0. */
uint32_t tcp_sender_update(struct tcp_ctx *t, struct mon_flow *f, int snd, const struct mon_packet *p);

/* Phase 2: true when p carries bytes (or a SYN/FIN) the receiver already had: its range
 * intersects what the receiver received in order or holds out of order. Counts stats.rexmit,
 * and stats.rexmit_diff when held bytes differ from the packet's. */
bool tcp_is_rexmit(struct tcp_ctx *t, struct mon_flow *f, int snd, const struct mon_packet *p);

/* Phase 3: the receiver's endpoint: state (e.g. CLOSE_WAIT on FIN), window checks, and
 * reassembly of p's payload into the receiver's stream under its overlap policy. Returns
 * TCP_STATE_CHANGE, CONN_NEW_DATA (new in-order bytes readable), ERROR (outrun, memcap,
 * gap; bits kept for MON_SO_ERROR), DEPTH (depth reached, once), CONN_END (both endpoints
 * closed or an in-window RST; once). Data outside the receiver's window is not reassembled and
 * is counted. */
uint32_t tcp_receiver_update(struct tcp_ctx *t, struct mon_flow *f, int snd, const struct mon_packet *p);

/* A flow ends (timeout, eviction, end of input) while its connection has not: what side's
 * stream holds after its holes becomes readable, as at a close. Returns CONN_NEW_DATA and
 * ERROR (gap) as phase 3 would, or 0 when nothing was held. */
uint32_t tcp_conn_flush(struct tcp_ctx *t, struct mon_flow *f, int side);

/* Ack delivery (cfg.ack_delivery), after phase 1 of a packet snd sent: the bytes its ack
 * covers in snd's own receive stream become readable (mon_ppeek, mon_peek, MON_SO_BUF_INFO),
 * unannounced: CONN_NEW_DATA comes with the next packet of their direction (phase 3), as
 * Suricata parses a direction's data at the ACK and inspects it with that direction's next
 * packet. An application may look at them meanwhile (the parsers tell the protocol). */
void tcp_ack_ready(struct tcp_ctx *t, struct mon_flow *f, int snd);

/* Ack delivery (cfg.ack_delivery): the connection ended (CONN_END on the other side): side's
 * in-order bytes not yet acknowledged are delivered. Returns CONN_NEW_DATA when there were
 * any, else 0 (always 0 on arrival delivery). */
uint32_t tcp_conn_release(struct tcp_ctx *t, struct mon_flow *f, int side);

/* Release a flow's buffers (flow end). */
void tcp_conn_free(struct tcp_ctx *t, struct mon_flow *f);

/* Reading and options for mon.h's calls; same return conventions as there. */
ssize_t tcp_peek(struct tcp_ctx *t, struct mon_flow *f, int side, void *buf, size_t len);
ssize_t tcp_ppeek(struct tcp_ctx *t, struct mon_flow *f, int side, void *buf, size_t len, uint64_t off);
int tcp_getsockopt(struct tcp_ctx *t, struct mon_flow *f, int side, enum mon_sockopt opt,
                   void *val, size_t *len);
int tcp_setsockopt(struct tcp_ctx *t, struct mon_flow *f, int side, enum mon_sockopt opt,
                   const void *val, size_t len);

#endif
