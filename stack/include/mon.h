/* mon.h — libmon: a reusable monitoring-socket stack for flow-monitoring middleboxes.
 *
 * After mOS (Jamshed et al., NSDI'17). An application describes *what it wants to know*
 * about traffic as events and handlers; libmon does the rest: it decodes packets, reassembles
 * IP fragments, tracks flows, follows the TCP state of BOTH endpoints as a middlebox infers
 * them, reassembles each direction's byte stream, and raises events in a fixed, documented
 * order.
 *
 * Objects
 *   mon_engine  one per process: configuration and the event definitions (the d-forest).
 *               Define events, then mon_engine_freeze(); after that it is immutable and
 *               shared by all workers without locks.
 *   mon_ctx     one per worker thread, created from a frozen engine: its flow table,
 *               decoder, defrag state, invocation forests and sockets. Nothing in a
 *               context is touched by another thread.
 *   mon_sock    a passive monitoring socket (stream or raw) bound to a traffic scope given
 *               as a BPF expression (compiled with libpcap). Flows in scope inherit its
 *               registered (event, handler) pairs.
 *   mon_flow    an active monitoring socket: one per flow (mon_flow.h). Handlers receive it;
 *               registering on it changes only that flow (its invocation forest is swapped
 *               for a shared one in O(1)).
 *
 * Sides. MON_SIDE_CLI is the client's TCP stack, MON_SIDE_SVR the server's. Data a client
 * sends is *received* by the server side: mon_peek(ctx, f, MON_SIDE_SVR, ...) reads the
 * client→server byte stream, as in mOS.
 *
 * Packet processing order for one TCP packet (mOS §4.1–4.2):
 *   1. sender-side TCP update, then the events it raised, on MON_HK_SND handlers
 *      (which may modify the packet with mon_setlastpkt or drop it with mon_drop);
 *   2. REXMIT, if the packet retransmits data, still before the receiver update (so a
 *      sender-side handler may drop a malicious retransmission);
 *   3. receiver-side TCP update and reassembly, then its events, on MON_HK_RCV handlers.
 * Within a phase, raised built-in events are run by priority:
 *   DECODE_EVENT → PKT_IN / ORPHAN → CONN_START → TCP_STATE_CHANGE → CONN_NEW_DATA → ERROR / DEPTH /
 *   ONE_SIDED → TIMEOUT → CONN_END,
 * and each event's invocation tree is walked breadth-first: a node whose filter returns
 * false is pruned with its subtree; a node that passes runs its handlers, then its
 * children are queued. UDEs inherit the priority of their root built-in event.
 *
 * Errors: functions return a negative MON_E* code (never exit); mon_strerror() names it.
 */
#ifndef MON_H
#define MON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "mon_decode.h"
#include "mon_defrag.h"
#include "mon_flow.h"
#include "mon_packet.h"
#include "mon_policy.h"
#include "mon_tcp.h"

#pragma GCC visibility push(default) /* libmon exports what include/ declares: stack/README.md */

/* ---- error codes ---------------------------------------------------------------------- */
enum {
    MON_OK = 0,
    MON_EINVAL = -1,    /* a bad argument */
    MON_ENOMEM = -2,    /* out of memory or over a memcap */
    MON_ENOENT = -3,    /* no such event, socket, registration or data */
    MON_EFROZEN = -4,   /* the engine is frozen: events can no longer be defined */
    MON_ENOTFROZEN = -5,/* a context needs a frozen engine */
    MON_EBPF = -6,      /* the scope expression does not compile (mon_errmsg says why) */
    MON_EOVERWRITTEN = -7, /* mon_peek: data was overwritten since the last read (once) */
    MON_ENOBUF = -8,    /* this side has no reassembly buffer (size 0 or no data yet) */
    MON_ESTATE = -9,    /* not allowed now (e.g. mon_setlastpkt from a receiver-side hook) */
    MON_ERANGE = -10,   /* an offset or length outside what is available */
};
const char *mon_strerror(int err);

/* ---- events ----------------------------------------------------------------------------- */
typedef uint32_t mon_event_t;

/* Built-in events. Their numeric order is NOT their priority; see the header comment. */
enum {
    MON_ON_PKT_IN,           /* an in-flow packet arrived (raw sockets: every packet) */
    MON_ON_CONN_START,       /* a connection began (first SYN; first packet of a midstream pick-up) */
    MON_ON_REXMIT,           /* this packet retransmits bytes already seen */
    MON_ON_TCP_STATE_CHANGE, /* this side's TCP state changed */
    MON_ON_CONN_NEW_DATA,    /* new in-order bytes are readable on this side */
    MON_ON_CONN_END,         /* the connection ended (close, reset, timeout, eviction, flush) */
    MON_ON_ORPHAN,           /* a packet that belongs to no tracked connection */
    MON_ON_ERROR,            /* buffer outrun, memcap, or a gap: mon_getsockopt MON_SO_ERROR */
    MON_ON_DEPTH,            /* this side reached its inspection depth; reassembly stops */
    MON_ON_ONE_SIDED,        /* only one direction of the flow has been seen */
    MON_ON_TIMEOUT,          /* the flow was idle past its timeout (raised before CONN_END) */
    MON_ON_DECODE_EVENT,     /* the packet carries a decoder anomaly or note (p->anomaly,
                                p->decode_notes): raised once per such packet, first, on the
                                sockets whose scope takes it, with its flow when it has one */
    MON_EV_BUILTIN_COUNT
};

/* Where a handler runs: after the sender's update (may modify or drop the packet), or after
 * the receiver's (sees reassembled data). MON_HK_ANY lets libmon choose: receiver-side for
 * data events, sender-side otherwise. */
enum mon_hook { MON_HK_SND = 0, MON_HK_RCV = 1, MON_HK_ANY = 2 };

enum mon_side { MON_SIDE_CLI = 0, MON_SIDE_SVR = 1 };

struct mon_ctx;
struct mon_engine;
struct mon_sock;

/* A filter decides whether a UDE fires; it must be cheap and free of side effects other than
 * mon_raise_event(). A handler reacts. Both get the flow (NULL for a raw socket's packet that
 * has no flow) and the side whose stack raised the event. */
typedef bool (*mon_filter_fn)(struct mon_ctx *ctx, struct mon_flow *f, int side,
                              mon_event_t ev, void *filter_arg);
typedef void (*mon_handler_fn)(struct mon_ctx *ctx, struct mon_flow *f, int side,
                               mon_event_t ev, void *handler_arg);

/* ---- engine ------------------------------------------------------------------------------ */
struct mon_engine_cfg {
    struct mon_decode_cfg decode;
    struct mon_defrag_cfg defrag;
    struct mon_flow_cfg flow;
    struct mon_tcp_cfg tcp;  /* reassembly buffers, depth, midstream, overlap policies */
    bool defrag_off;         /* do not reassemble IP fragments (they are counted, not tracked) */
};
void mon_engine_cfg_defaults(struct mon_engine_cfg *cfg);

/* cfg (including policy tables) is copied. NULL on allocation failure. */
struct mon_engine *mon_engine_create(const struct mon_engine_cfg *cfg);
/* After freezing, no more events can be defined; contexts can be created. */
int mon_engine_freeze(struct mon_engine *eng);
/* Destroy after every context made from it. */
void mon_engine_destroy(struct mon_engine *eng);

/* A user-defined event: fires when `base` fires and filter(…, arg) returns true. Defining
 * the same (base, filter, arg) again returns the same event: this is what lets many rules
 * share a prefix. Returns the event (>= MON_EV_BUILTIN_COUNT) or a negative error. */
int64_t mon_define_event(struct mon_engine *eng, mon_event_t base, mon_filter_fn filter, void *arg);
/* As mon_define_event, for a UDE walked last: in a walk that reaches it (its base fired), it
 * is evaluated after every other event the walk reaches, at any depth, instead of where
 * breadth-first order meets it — a commit point for everything its tree decided. Defining
 * the same (base, filter, arg) both ways is MON_EINVAL. */
int64_t mon_define_last_event(struct mon_engine *eng, mon_event_t base, mon_filter_fn filter,
                              void *arg);
/* A child event for a multi-event filter: it fires only when a filter evaluating `parent`'s
 * children calls mon_raise_event() for it. */
int64_t mon_alloc_event(struct mon_engine *eng, mon_event_t parent);
/* Called from inside a filter: raise `child` (allocated with mon_alloc_event under the event
 * being filtered) for this flow and side. Several children may be raised at once. */
int mon_raise_event(struct mon_ctx *ctx, mon_event_t child);

/* Run a UDE's subtree now, synchronously, as if it had just fired for this flow and side:
 * its handlers, then its descendants breadth-first (their filters decide as usual); its own
 * filter is not asked. For UDE libraries that raise an event once per application message
 * from inside their own filter or handler: three pipelined requests in one segment run the
 * request event's subtree three times, each with that request's data current. Runs the
 * event's tree of each hook that has it (SND, then RCV) in the flow's current forest; may be
 * nested 4 levels deep (a handler of the run event may call it again). mon_raise_event
 * inside it raises children of the filter being evaluated by this run. Returns the number of
 * hooks that had the event (0: nobody waits for it on this flow), or MON_EINVAL (no flow or
 * forest), MON_ENOENT (not a UDE), MON_ESTATE (nested too deep), MON_ENOMEM. f may be NULL
 * in a handler of a packet that has no flow (ORPHAN, DECODE_EVENT): the subtree then runs in
 * the forest being walked (the socket's), its filters and handlers given no flow. */
int mon_run_event(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev);
/* The hook of the walk running now (MON_HK_SND or MON_HK_RCV), -1 outside any: lets a
 * filter that sits in both hooks' trees (PKT_IN) act once per packet. */
int mon_hook_now(const struct mon_ctx *ctx);

/* Number of events defined (built-in + UDE), for diagnostics and --dump-chains. */
size_t mon_engine_event_count(const struct mon_engine *eng);

/* ---- worker context ---------------------------------------------------------------------- */
struct mon_ctx *mon_ctx_create(struct mon_engine *eng, int worker_id);
void mon_ctx_destroy(struct mon_ctx *ctx);  /* ends every flow (CONN_END) first */
const char *mon_errmsg(const struct mon_ctx *ctx);  /* detail of the last error */

/* Feed one captured frame (p->frame, caplen, wirelen, linktype, ts_us, num filled by a
 * source). Decodes it and runs every event it causes. Returns the decode outcome.
 * After the call, p->flags & MON_PKT_DROPPED tells whether a handler dropped it. */
enum mon_decode_outcome mon_process(struct mon_ctx *ctx, struct mon_packet *p);
/* Advance time without a packet (idle capture / live source): expire flows and fragments. */
void mon_tick(struct mon_ctx *ctx, uint64_t now_us);
/* End every flow now (end of input): CONN_END for each, reason shutdown. */
void mon_flush(struct mon_ctx *ctx);

/* Move a context onto another frozen engine (a rule reload), between two mon_process calls
 * on the context's own thread. Kept: the flow table and every flow in it, both endpoints'
 * TCP state and reassembly buffers, defrag, the decoder, counters, the flow-end callback.
 * Released: the context's sockets (open new ones on the new engine), its forests, per-worker
 * slot values (mon_ctx_slot_set), and each flow's event state — fn(ctx, f, arg) is called
 * first for every live flow so the application frees its per-flow context (f->uctx is then
 * cleared), then the flow's user slots go through the OLD engine's destructors. A flow's
 * next packet gives it the forest of the new sockets whose scope that packet matches (so a
 * direction-dependent scope is judged on whichever side speaks first after the rebind).
 * A flow that had no watcher before keeps no reassembly buffer. The new engine must come
 * from the same configuration (defrag on/off must match: MON_EINVAL); destroy the old one
 * after every context left it. Errors: MON_ENOTFROZEN, MON_ESTATE (called from a handler),
 * MON_ENOMEM (the context is unchanged). */
typedef void (*mon_rebind_flow_fn)(struct mon_ctx *ctx, struct mon_flow *f, void *arg);
int mon_ctx_rebind(struct mon_ctx *ctx, struct mon_engine *eng, mon_rebind_flow_fn fn,
                   void *arg);

/* Called once for each flow as it is released (after its CONN_END handlers): record output. */
void mon_set_flow_end_cb(struct mon_ctx *ctx, mon_flow_end_cb cb, void *arg);

/* Called once when a TCP connection has closed (FIN both ways or RST: CONN_END raised by a
 * packet), after every event of that packet ran: nothing more arrives in its streams, so the
 * application may release what it kept per stream. The flow itself lives on until it times
 * out (late ACKs, its record). libmon then releases the connection's reassembly buffers. */
void mon_set_conn_closed_cb(struct mon_ctx *ctx, mon_flow_end_cb cb, void *arg);

/* Charge bytes of per-flow state the application or a library keeps outside libmon
 * (detection's and parsers' flow state) to the flow table's memcap: positive when it is
 * allocated, negative when freed (the caller keeps charges and refunds equal). While records,
 * hash slots and charged state together exceed flow.memcap, each new flow evicts the least
 * recently seen ones first (flow_table.c), so that state stays within the memcap too. */
void mon_ctx_charge(struct mon_ctx *ctx, int64_t bytes);
/* What the allocator keeps beside each block (glibc: a 16-byte header, rounded): charge it
 * with every allocation, so that the memcap bounds resident memory, not just sizes. */
#define MON_MALLOC_OVERHEAD 16

/* With stream.midstream on: fn decides, from the first data segment of a connection picked up
 * midstream, whether its sender is the server (the flow is then oriented the other way round,
 * as Suricata reverses such a flow when protocol detection recognises a server's message in
 * it: a response seen first). Ignored with midstream off (no such connection is picked up). */
void mon_set_midstream_orient_cb(struct mon_ctx *ctx, mon_flow_orient_fn fn, void *arg);

/* Statistics of the context's layers. */
const struct mon_decode_stats *mon_ctx_decode_stats(const struct mon_ctx *ctx);
const struct mon_defrag *mon_ctx_defrag(const struct mon_ctx *ctx);
const struct mon_flow_table *mon_ctx_flows(const struct mon_ctx *ctx);
const struct mon_tcp_stats *mon_ctx_tcp_stats(const struct mon_ctx *ctx);
const struct mon_event_stats *mon_ctx_event_stats(const struct mon_ctx *ctx);

struct mon_event_stats {
    uint64_t raised[MON_EV_BUILTIN_COUNT]; /* built-in events raised */
    uint64_t filters_run;                  /* UDE filter evaluations */
    uint64_t handlers_run;
    uint64_t forests;                      /* distinct invocation forests alive */
    uint64_t forests_created;
    uint64_t forest_bytes;                 /* memory in forests */
};

/* ---- sockets ----------------------------------------------------------------------------- */
enum mon_sock_type {
    MON_SOCK_STREAM,  /* flows: TCP state, reassembly, all built-in events */
    MON_SOCK_RAW,     /* packets: only MON_ON_PKT_IN, for every packet in scope */
};

/* A passive socket; scope is a BPF expression ("tcp port 80", NULL or "" = everything),
 * matched against the innermost IP datagram of a flow's first packet (stream) or of each
 * packet (raw). NULL on error (mon_errmsg). */
struct mon_sock *mon_socket(struct mon_ctx *ctx, enum mon_sock_type type, const char *scope);
int mon_close(struct mon_ctx *ctx, struct mon_sock *s);
/* Build now the invocation forests the first flows would otherwise build as they come: each
 * stream socket's, and that of a flow every stream socket takes. Call it once the sockets
 * have their handlers (startup); with a large ruleset each can take milliseconds. A later
 * registration on a socket still rebuilds lazily. MON_OK, or MON_ENOMEM. */
int mon_ctx_prepare(struct mon_ctx *ctx);

/* Register or deregister handler(arg) for ev on a passive socket (flows created from then on
 * inherit it) or on one flow (that flow only; O(1) when the resulting forest exists). The
 * same event may have several handlers; registering the same (ev, hook, handler, arg) twice
 * is MON_EINVAL. */
int mon_register(struct mon_ctx *ctx, struct mon_sock *s, mon_event_t ev, enum mon_hook hook,
                 mon_handler_fn handler, void *arg);
int mon_deregister(struct mon_ctx *ctx, struct mon_sock *s, mon_event_t ev, enum mon_hook hook,
                   mon_handler_fn handler, void *arg);
int mon_register_flow(struct mon_ctx *ctx, struct mon_flow *f, mon_event_t ev,
                      enum mon_hook hook, mon_handler_fn handler, void *arg);
int mon_deregister_flow(struct mon_ctx *ctx, struct mon_flow *f, mon_event_t ev,
                        enum mon_hook hook, mon_handler_fn handler, void *arg);

/* Per-flow user context. */
void mon_set_uctx(struct mon_ctx *ctx, struct mon_flow *f, void *uctx);
void *mon_get_uctx(struct mon_ctx *ctx, struct mon_flow *f);

/* Per-flow slots for UDE libraries, beside the application's uctx (which they leave alone).
 * A library takes a slot on the unfrozen engine, with a destructor that libmon calls for
 * each flow whose slot is non-NULL when the flow is released: after its CONN_END handlers
 * and the flow-end callback (both may still read the slot). Returns the slot (0, 1, …) or
 * MON_EFROZEN, MON_ENOMEM (all MON_UCTX_SLOTS taken), MON_EINVAL. */
#define MON_UCTX_SLOTS 8
typedef void (*mon_uctx_free_fn)(struct mon_ctx *ctx, struct mon_flow *f, void *val, void *arg);
int mon_uctx_slot_alloc(struct mon_engine *eng, mon_uctx_free_fn fn, void *arg);
/* MON_OK, MON_EINVAL (no such slot), MON_ENOMEM (the flow's slot array: made on first set). */
int mon_set_uctx_slot(struct mon_ctx *ctx, struct mon_flow *f, int slot, void *val);
void *mon_get_uctx_slot(struct mon_ctx *ctx, const struct mon_flow *f, int slot);
/* The slot whose destructor is fn, or MON_ENOENT: a library finds its own slot from a
 * context alone (no global state), e.g. in an accessor that gets only (ctx, f). */
int mon_uctx_slot_find(const struct mon_ctx *ctx, mon_uctx_free_fn fn);
/* One pointer per slot per context, for the library's per-worker object (NULL until set):
 * its filters get the context and find their worker here. */
int mon_ctx_slot_set(struct mon_ctx *ctx, int slot, void *val);
void *mon_ctx_slot_get(const struct mon_ctx *ctx, int slot);

/* ---- the packet being processed ------------------------------------------------------------ */
/* The packet that raised the current event (valid inside filters and handlers). */
const struct mon_packet *mon_getlastpkt(struct mon_ctx *ctx);
/* Ack delivery (mon_tcp_cfg.ack_delivery): the bytes a packet acknowledged in its sender's
 * receive stream are readable from its sender-side events on, and an application may consume
 * them there on behalf of their own direction. With on, mon_getlastpkt gives the packet seen
 * from that direction (a copy: addresses and ports swapped, no payload, MON_PKT_ACK_VIEW) until
 * mon_ack_view(ctx, false). MON_EINVAL outside a packet's events or when already so. */
int mon_ack_view(struct mon_ctx *ctx, bool on);
/* Whether the context's engine delivers streams on ACKs (mon_tcp_cfg.ack_delivery). */
bool mon_ack_delivery(const struct mon_ctx *ctx);
/* Where mon_setlastpkt's offset counts from. */
enum mon_anchor { MON_AT_FRAME, MON_AT_IP, MON_AT_L4, MON_AT_PAYLOAD };
/* Overwrite len bytes of the current packet at offset from anchor (sender-side hooks only;
 * the bytes must lie inside the captured frame). The packet is marked modified. */
int mon_setlastpkt(struct mon_ctx *ctx, enum mon_anchor anchor, size_t offset,
                   const void *data, size_t len);
/* Drop the current packet (sender-side hooks only): inline modes will not forward it, and it
 * does not reach the receiver's stack. */
int mon_drop(struct mon_ctx *ctx);

/* ---- reassembled data -------------------------------------------------------------------- */
/* Read up to len new in-order bytes of side's stream from the read pointer and advance it.
 * Returns bytes read (0 = nothing new), MON_EOVERWRITTEN once after a buffer outrun (the read
 * pointer has jumped to the oldest byte still held), or another negative error. */
ssize_t mon_peek(struct mon_ctx *ctx, struct mon_flow *f, int side, void *buf, size_t len);
/* Read len bytes at stream offset off (bytes from the initial sequence number + 1), in order
 * or out of order, without moving the read pointer. Returns bytes copied (only contiguous
 * held bytes from off), or a negative error (MON_ERANGE: not held). */
ssize_t mon_ppeek(struct mon_ctx *ctx, struct mon_flow *f, int side, void *buf, size_t len,
                  uint64_t off);

/* ---- socket options ------------------------------------------------------------------------ */
enum mon_sockopt {
    MON_SO_TCP_STATE,       /* get: int, enum mon_tcp_state of `side` */
    MON_SO_BUF_INFO,        /* get: struct mon_buf_info for `side` */
    MON_SO_FRAGS,           /* get: struct mon_frag[] (optlen in/out = bytes) of `side` */
    MON_SO_BUF_SIZE,        /* get/set: uint32_t reassembly buffer size of `side`; 0 = none */
    MON_SO_DEPTH,           /* get/set: uint32_t inspection depth of `side`; 0 = unlimited */
    MON_SO_STOP_MONITOR,    /* set: (no value) stop monitoring `side`: no events, no updates */
    MON_SO_POLICY,          /* get/set: int, enum mon_overlap_policy of `side`'s reassembly */
    MON_SO_ERROR,           /* get: uint32_t MON_ERR_* bits seen on `side` since last get */
    MON_SO_RAW_TRIGGER,     /* set: (no value) ack delivery: announce `side`'s acknowledged
                               bytes at the next packet of their direction even if fewer than
                               its chunk size (Suricata's app-layer raw reassembly trigger) */
};

struct mon_buf_info {
    uint64_t init_seq;    /* initial sequence number (of the sender feeding this side) */
    uint64_t head_off;    /* stream offset of the oldest byte held */
    uint64_t read_off;    /* stream offset of the next byte mon_peek returns */
    uint64_t tail_off;    /* stream offset just past the last in-order byte */
    uint32_t size;        /* buffer capacity in bytes (0 = no buffer) */
    uint32_t held;        /* bytes held, in-order and out-of-order */
};

struct mon_frag {         /* one contiguous run of held bytes */
    uint64_t off;
    uint32_t len;
};

enum {
    MON_ERR_OUTRUN = 1u << 0,  /* unread bytes were overwritten */
    MON_ERR_MEMCAP = 1u << 1,  /* no memory for a buffer */
    MON_ERR_GAP = 1u << 2,     /* bytes were skipped for good (hole never filled) */
};

int mon_getsockopt(struct mon_ctx *ctx, struct mon_flow *f, int side, enum mon_sockopt opt,
                   void *val, size_t *len);
int mon_setsockopt(struct mon_ctx *ctx, struct mon_flow *f, int side, enum mon_sockopt opt,
                   const void *val, size_t len);

/* ---- names ------------------------------------------------------------------------------ */
const char *mon_event_name(mon_event_t ev);  /* built-ins: "PKT_IN"...; UDEs: "UDE" */

#pragma GCC visibility pop

#endif
