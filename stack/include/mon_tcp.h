/* mon_tcp.h — TCP as a middlebox sees it: the state of BOTH endpoints, and each endpoint's
 * receive stream. Types only; the stack's TCP code is in stack/tcp/. */
#ifndef MON_TCP_H
#define MON_TCP_H

#include <stdbool.h>
#include <stdint.h>

#include "mon_policy.h"

#pragma GCC visibility push(default) /* libmon exports what include/ declares: stack/README.md */

/* One endpoint's state as inferred from what it sends and receives (RFC 793 names). */
enum mon_tcp_state {
    MON_TCP_CLOSED, MON_TCP_LISTEN, MON_TCP_SYN_SENT, MON_TCP_SYN_RCVD, MON_TCP_ESTABLISHED,
    MON_TCP_FIN_WAIT_1, MON_TCP_FIN_WAIT_2, MON_TCP_CLOSING, MON_TCP_TIME_WAIT,
    MON_TCP_CLOSE_WAIT, MON_TCP_LAST_ACK,
    MON_TCP__STATE_COUNT
};
const char *mon_tcp_state_name(enum mon_tcp_state s);  /* "ESTABLISHED", ... */

/* What the byte an urgent pointer marks is (RFC 6093: the last urgent byte, before
 * seq + urgent pointer), as Suricata's stream.reassembly.urgent.policy. */
enum mon_urgent_policy {
    MON_URG_INLINE, /* part of the stream, like any byte (what most stacks deliver) */
    MON_URG_OOB,    /* out of band: taken out, the bytes around it join up */
    MON_URG_GAP,    /* out of band, and a hole in the stream where it was */
};

struct mon_tcp_cfg {
    uint32_t buf_size;        /* reassembly buffer per side (bytes); 0 = no reassembly; default 65536 */
    uint32_t depth;           /* inspection depth per side (bytes of stream); 0 = unlimited; default 1 MiB */
    uint64_t memcap;          /* all reassembly buffers of a context; default 256 MiB */
    bool midstream;           /* pick up connections whose handshake was not seen; default false */
    bool async_oneside;       /* accept flows where only one direction is seen; default false */
    bool ack_delivery;        /* a side's in-order bytes reach the stream's readers (CONN_NEW_DATA,
                                 mon_peek, mon_ppeek, MON_SO_BUF_INFO's tail) only once that side
                                 acknowledged them, at the next packet its peer sends — Suricata's
                                 IDS mode (stream.inline: no); the connection's end, a flow's end
                                 and a one-sided (async) stream deliver what is held; default
                                 false: on arrival (Suricata's inline mode) */
    uint32_t ack_chunk[2];    /* ack delivery: CONN_NEW_DATA announces a side's acknowledged
                                 bytes once this many wait ([0] the server's receive stream: to
                                 the server; [1] the client's), or a trigger (MON_SO_RAW_TRIGGER),
                                 the depth or the connection's end comes — Suricata's raw stream
                                 chunks (stream.reassembly.toserver/toclient-chunk-size);
                                 0: at every ACK; default 0 */
    uint32_t one_sided_pkts;  /* ONE_SIDED after this many packets one way with none back; default 10 */
    uint32_t max_frags;       /* out-of-order runs held per side before ERROR; default 1024 */
    uint8_t urgent_policy;    /* enum mon_urgent_policy; default MON_URG_INLINE */
    bool inline_mode;         /* the packets pass through us and may be dropped (IPS): only the
                                 stream events Suricata raises in inline mode change
                                 (3whs_ack_in_wrong_dir, 3whs_ack_data_inject: a passive sensor
                                 may have missed the handshake's ACK); default false */
    bool checksum_validation; /* a packet whose TCP checksum was validated and found wrong
                                 (MON_PKT_BAD_L4_CSUM) changes no connection: no start, no
                                 state, no reassembly (it is still PKT_IN); default false */
    struct mon_policy_table policy; /* overlap policy chosen by the receiving host's address */
};
void mon_tcp_cfg_defaults(struct mon_tcp_cfg *cfg);

/* The receive stream of one side: opaque, allocated only once the side carries data. */
struct mon_reasm;

/* One endpoint. "Sends" refers to this endpoint as a sender; rbuf holds what it receives.
 * Kept at 48 bytes: the flow record must stay within 256 bytes before buffers. */
struct mon_tcp_side {
    struct mon_reasm *rbuf;  /* bytes this endpoint receives, lazily allocated */
    uint64_t rcv_off;        /* stream offset (bytes since the peer's ISN+1) of the next byte it
                              * expects in order: what it has received, as far as we saw */
    uint32_t isn;            /* initial sequence number this endpoint sends with */
    uint32_t snd_nxt;        /* sequence just past the highest byte (or SYN/FIN) it sent */
    uint32_t snd_una;        /* highest acknowledgment the peer sent for it */
    uint32_t rcv_wnd;        /* window it advertised, scaled (bytes) */
    uint32_t buf_size;       /* its receive buffer size (from config or setsockopt) */
    uint32_t depth;          /* inspection depth of its receive stream (bytes); 0 = unlimited */
    uint16_t flags;          /* MON_TCPF_* */
    uint8_t state;           /* enum mon_tcp_state */
    uint8_t wscale;          /* its window scale (0..14), 0xff = unknown */
    uint8_t policy;          /* overlap policy of its receive stream */
    uint8_t err_bits;        /* MON_ERR_* not yet fetched */
};

enum {
    MON_TCPF_ISN_KNOWN = 1u << 0,   /* its SYN (or first packet, midstream) was seen */
    MON_TCPF_SACK = 1u << 1,
    MON_TCPF_TS = 1u << 2,
    MON_TCPF_STOPPED = 1u << 3,     /* MON_SO_STOP_MONITOR: no updates, no events */
    MON_TCPF_DEPTH = 1u << 4,       /* its receive stream reached its depth */
    MON_TCPF_FIN_SENT = 1u << 5,
    MON_TCPF_SEEN = 1u << 6,        /* it sent at least one packet */
    MON_TCPF_LIVE = 1u << 7,        /* the connection started (SYN or midstream pick-up) */
    MON_TCPF_ENDED = 1u << 8,       /* CONN_END was returned for the connection */
    MON_TCPF_PICKUP = 1u << 9,      /* midstream pick-up: becomes ESTABLISHED at its next update */
    MON_TCPF_GOT_SYN = 1u << 10,    /* it received the peer's SYN */
    MON_TCPF_GOT_FIN = 1u << 11,    /* it received the peer's FIN */
    MON_TCPF_WSCALE = 1u << 12,     /* its SYN carried a window scale option */
    MON_TCPF_NOMEM = 1u << 13,      /* its buffer could not be allocated (memcap): ERROR was raised */
    MON_TCPF_RESET = 1u << 14,      /* the connection was reset (an acceptable RST) */
    MON_TCPF_MIDSTREAM = 1u << 15,  /* the connection was picked up midstream (cfg.midstream):
                                       its handshake was never seen; stays set, unlike PICKUP */
};

struct mon_tcp_conn {
    struct mon_tcp_side side[2];    /* [MON_SIDE_CLI], [MON_SIDE_SVR] */
    uint32_t syn_tsval[2];          /* TSvals of the client's first and latest SYN; 0 = none */
    uint16_t syn_new_isns;          /* client SYNs with a new ISN while it waited (SYN_SENT) */
    uint8_t rst_by;                 /* 1 + the side whose acceptable RST reset the connection,
                                       until it sends again (suspected_rst_inject); 0: none */
    uint8_t marks;                  /* MON_TCPM_*: what the stream-event checks remember */
    uint8_t synack_new_isns;        /* server SYN-ACKs with another ISN before the handshake's
                                       ACK (3whs_synack_flood) */
};

enum {
    MON_TCPM_3WHS_CONFIRMED = 1u << 0, /* the server sent a packet (no SYN) once both were
                                          ESTABLISHED: a later SYN-ACK is est_synack_resend */
};

/* TCP anomalies a packet's updates found, named as Suricata's stream events
 * (stream-event:NAME). They are recorded per packet in mon_packet.tcp_events (bit 1 << e):
 * the sender-side ones before the packet's SND-hook events run, the receiver-side ones
 * (REASM_*) after the receiver update, before its RCV-hook events.
 * X(ENUM_SUFFIX, "name") — add new events here only. */
#define MON_TCP_EVENTS(X)                                                                  \
    X(SYNACK_TO_SERVER, "3whs_synack_in_wrong_direction") /* the client answers its own SYN */ \
    X(EST_SYN_DIFF_SEQ, "est_syn_resend_diff_seq")   /* established: client SYN, new ISN */    \
    X(EST_SYNACK_DIFF_SEQ, "est_synack_resend_with_diff_seq") /* ... server SYN/ACK, new ISN */ \
    X(BAD_TIMESTAMP, "pkt_invalid_timestamp")         /* 3WHS: the server echoes a TSval the \
                                                        client's SYN did not send: ignored */ \
    X(SYN_FLOOD, "3whs_syn_flood")                   /* a client SYN with a new ISN beyond \
                                                        TCP_MAX_SYN_QUEUED in one handshake */ \
    X(REASM_GAP, "reassembly_seq_gap")               /* receiver: bytes given up for good */   \
    X(REASM_OVERLAP_DIFF, "reassembly_overlap_different_data") /* receiver: held bytes differ */ \
    X(REASM_DEPTH, "reassembly_depth_reached")       /* receiver: its stream reached depth */ \
    X(REASM_RECLAIM, "reassembly_memcap_reclaim")   /* the memcap was hit: other streams' held \
                                                        out-of-order data was freed for this one */ \
    X(RST_INJECT, "suspected_rst_inject")            /* a packet (no RST) from the endpoint  \
                                                        whose acceptable RST reset the       \
                                                        connection: the RST was likely forged */ \
    /* Suricata's state-machine checks (tcp_checks.c), judged in phase 1 from the state     \
     * before the packet; "S" is the packet's sender, "R" its receiver. */                  \
    X(SYNACK_WRONG_ACK, "3whs_synack_with_wrong_ack")   /* SYN-ACK not acking the SYN */     \
    X(ASYNC_WRONG_SEQ, "3whs_async_wrong_seq")   /* async_oneside: the client's ACK after its \
                                                    SYN is not at ISN+1 */                  \
    X(SYNACK_TOSERVER_SYN_RECV, "3whs_synack_toserver_on_syn_recv") /* client SYN-ACK after \
                                                    the server's */                         \
    X(SYNACK_RESEND_DIFF_ACK, "3whs_synack_resend_with_different_ack") /* server SYN-ACK   \
                                                    again, another ack */                   \
    X(SYNACK_FLOOD, "3whs_synack_flood")       /* ... another ISN, beyond TCP_MAX_SYNACK_QUEUED \
                                                    of them (Suricata queues them) */        \
    X(SYN_TOCLIENT_SYN_RECV, "3whs_syn_toclient_on_syn_recv") /* server SYN after its SYN-ACK */ \
    X(SYN_RESEND_DIFF_SEQ_SYN_RECV, "3whs_syn_resend_diff_seq_on_syn_recv") /* client SYN, \
                                                    new ISN, after the SYN-ACK */           \
    X(ACK_IN_WRONG_DIR, "3whs_ack_in_wrong_dir") /* inline_mode: any other server ACK before \
                                                    the handshake's ACK */                   \
    X(RIGHT_SEQ_WRONG_ACK, "3whs_right_seq_wrong_ack_evasion") /* handshake ACK at the right \
                                                    seq acking something else */            \
    X(WRONG_SEQ_WRONG_ACK, "3whs_wrong_seq_wrong_ack") /* handshake ACK, seq and ack wrong */ \
    X(4WHS_SYNACK_WRONG_ACK, "4whs_synack_with_wrong_ack") /* SYN, SYN, then the client's  \
                                                    SYN-ACK not acking the server's SYN */  \
    X(4WHS_SYNACK_WRONG_SYN, "4whs_synack_with_wrong_syn") /* ... not at the client's ISN */ \
    X(4WHS_WRONG_SEQ, "4whs_wrong_seq")         /* ... then the server's ACK not at its next seq */ \
    X(4WHS_INVALID_ACK, "4whs_invalid_ack")     /* ... or acking outside the client's window */ \
    X(ACK_DATA_INJECT, "3whs_ack_data_inject")  /* inline_mode: server data before the       \
                                                    handshake's ACK, at its next seq, acking  \
                                                    the client's SYN */                       \
    X(EST_SYNACK_TOSERVER, "est_synack_toserver")   /* established: SYN-ACK from the client */ \
    X(EST_SYNACK_DIFF_ACK, "est_synack_resend_with_different_ack") /* ... server SYN-ACK   \
                                                    acking other than the client's last ack */ \
    X(EST_SYNACK_RESEND, "est_synack_resend")       /* ... server SYN-ACK after the server  \
                                                    spoke (3WHS confirmed) */               \
    X(EST_SYN_TOCLIENT, "est_syn_toclient")         /* ... a SYN from the server */          \
    X(EST_SYN_RESEND, "est_syn_resend")             /* ... the client's SYN again */         \
    X(EST_INVALID_ACK, "est_invalid_ack")           /* ... ack outside R's window */         \
    X(EST_BEFORE_LAST_ACK, "est_pkt_before_last_ack") /* ... data wholly before S's last ack */ \
    X(EST_OUT_OF_WINDOW, "est_packet_out_of_window") /* ... data past S's right window edge */ \
    X(PKT_INVALID_ACK, "pkt_invalid_ack")           /* any state: ack outside R's window */  \
    X(BAD_WINDOW_UPDATE, "pkt_bad_window_update")   /* an ACK shrinking S's window by more  \
                                                    than it moved the ack (Suricata bug 1238) */ \
    X(RST_INVALID_ACK, "rst_invalid_ack")           /* a RST+ACK whose ack is invalid */     \
    X(FIN_INVALID_ACK, "fin_invalid_ack")           /* the first FIN, ack invalid */         \
    X(FIN_OUT_OF_WINDOW, "fin_out_of_window")       /* ... seq outside S's window */         \
    X(FIN_SYN, "fin_syn")                           /* ... with SYN set */                   \
    X(PKT_REXMIT, "pkt_retransmission")             /* after a FIN: data S sent before */   \
    X(SHUTDOWN_SYN_RESEND, "shutdown_syn_resend")   /* after a FIN: a SYN */                 \
    X(FIN1_FIN_WRONG_SEQ, "fin1_fin_wrong_seq")     /* server FIN unacked: FIN out of window */ \
    X(FIN1_ACK_WRONG_SEQ, "fin1_ack_wrong_seq")     /* ... data past S's right window edge */ \
    X(FIN1_INVALID_ACK, "fin1_invalid_ack")         /* ... ack invalid */                    \
    X(FIN2_FIN_WRONG_SEQ, "fin2_fin_wrong_seq")     /* server FIN acked: likewise */         \
    X(FIN2_ACK_WRONG_SEQ, "fin2_ack_wrong_seq")                                              \
    X(FIN2_INVALID_ACK, "fin2_invalid_ack")                                                  \
    X(CLOSING_ACK_WRONG_SEQ, "closing_ack_wrong_seq") /* both FINs, neither acked: an ACK   \
                                                    not at S's next seq */                  \
    X(CLOSING_INVALID_ACK, "closing_invalid_ack")                                            \
    X(CLOSEWAIT_FIN_OUT_OF_WINDOW, "closewait_fin_out_of_window") /* client FIN seen: a FIN \
                                                    outside S's window */                   \
    X(CLOSEWAIT_ACK_OUT_OF_WINDOW, "closewait_ack_out_of_window") /* ... an ACK past it */  \
    X(CLOSEWAIT_BEFORE_LAST_ACK, "closewait_pkt_before_last_ack") /* ... data wholly acked */ \
    X(CLOSEWAIT_INVALID_ACK, "closewait_invalid_ack")                                        \
    X(LASTACK_ACK_WRONG_SEQ, "lastack_ack_wrong_seq") /* both FINs, the server's last: an   \
                                                    ACK beyond S's next seq */              \
    X(LASTACK_INVALID_ACK, "lastack_invalid_ack")                                            \
    X(TIMEWAIT_ACK_WRONG_SEQ, "timewait_ack_wrong_seq") /* the last FIN arrived: an ACK not \
                                                    at S's next seq */                      \
    X(TIMEWAIT_INVALID_ACK, "timewait_invalid_ack")

enum mon_tcp_event {
#define MON_X_ENUM(e, name) MON_TE_##e,
    MON_TCP_EVENTS(MON_X_ENUM)
#undef MON_X_ENUM
    MON_TE__COUNT
};
_Static_assert(MON_TE__COUNT <= 64, "mon_packet.tcp_events holds 64 events");
const char *mon_tcp_event_name(enum mon_tcp_event e);

struct mon_tcp_stats {
    uint64_t sessions;            /* connections started (SYN or midstream pick-up) */
    uint64_t midstream;           /* of which picked up midstream */
    uint64_t orphans;             /* TCP packets that belong to no connection */
    uint64_t invalid_state;       /* packets the state table rejects (e.g. data before SYN-ACK) */
    uint64_t out_of_window;       /* data outside the receiver's window: not reassembled */
    uint64_t rst_out_of_window;   /* RSTs ignored: not in window */
    uint64_t rexmit;              /* retransmissions (full or partial) */
    uint64_t rexmit_diff;         /* ... that carried bytes different from the first copy */
    uint64_t overlaps;            /* segments overlapping held data */
    uint64_t overlap_diff;        /* ... with different bytes */
    uint64_t outruns;             /* buffer outruns (unread bytes overwritten) */
    uint64_t gaps;                /* holes skipped for good */
    uint64_t depth_reached;       /* sides that reached their depth */
    uint64_t memcap_hits;         /* buffers not allocated for the memcap */
    uint64_t invalid_checksum;    /* packets left out for a bad checksum (checksum_validation) */
    uint64_t reasm_memuse;        /* bytes in reassembly buffers now */
    uint64_t reasm_memuse_peak;
    uint64_t reclaims;            /* streams whose held out-of-order data was freed (memcap) */
    uint64_t reclaimed_bytes;     /* ... bytes of memory that gave back */
};

#pragma GCC visibility pop

#endif
