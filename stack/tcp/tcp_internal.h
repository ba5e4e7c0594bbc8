/* tcp_internal.h — what the files of stack/tcp share, and nothing else sees.
 *
 * Sequence numbers are 32-bit and wrap; stream offsets are 64-bit and do not. An offset is
 * "bytes since the sender's ISN+1", so the first data byte is offset 0 whatever the ISN.
 * Converting a sequence number to an offset needs a nearby reference: the receiver's
 * rcv_off (where its in-order stream ends) and the sequence number that offset has. Any
 * segment within 2^31 of that point converts exactly, across any number of wraps.
 */
#ifndef MON_TCP_INTERNAL_H
#define MON_TCP_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "tcp_contract_internal.h"

/* ---- serial number arithmetic (RFC 1982), tcp_window.c ---------------------------------- */
static inline bool seq_lt(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }
static inline bool seq_leq(uint32_t a, uint32_t b) { return (int32_t)(a - b) <= 0; }
static inline bool seq_gt(uint32_t a, uint32_t b) { return (int32_t)(a - b) > 0; }
static inline bool seq_geq(uint32_t a, uint32_t b) { return (int32_t)(a - b) >= 0; }

/* The largest window a peer can advertise (65535 << 14): acks and segments further than this
 * from what we know are not believed. */
#define TCP_MAX_WIN (65535u << 14)
/* New-ISN SYNs one handshake takes before they are a SYN flood (Suricata's
 * stream.max-syn-queued default). */
#define TCP_MAX_SYN_QUEUED 10u
/* SYN-ACKs with another ISN one handshake takes before they are a flood (Suricata's
 * stream.max-synack-queued default). */
#define TCP_MAX_SYNACK_QUEUED 5u

/* Sequence number of stream offset off, for a sender whose ISN is isn. */
static inline uint32_t tcp_off_seq(uint32_t isn, uint64_t off)
{
    return isn + 1u + (uint32_t)off;
}

/* Stream offset of sequence number seq of the data rcv receives (sent with ISN isn), signed:
 * negative for sequence numbers before the stream's first byte. */
int64_t tcp_seq_off(const struct mon_tcp_side *rcv, uint32_t isn, uint32_t seq);

/* The receiver's next expected sequence number (in-order data, plus its peer's FIN if it got
 * it). */
uint32_t tcp_rcv_nxt(const struct mon_tcp_side *rcv, const struct mon_tcp_side *snd);

/* Scale applied to a side's advertised windows: its negotiated shift, or the maximum when
 * the handshake was not seen (a midstream pick-up), so that no valid data is refused. */
unsigned tcp_wscale(const struct mon_tcp_side *s);

/* Is this RST acceptable to its receiver (RFC 793 / RFC 5961 §3: in the receive window)? */
bool tcp_rst_acceptable(const struct mon_tcp_side *snd, const struct mon_tcp_side *rcv,
                        const struct mon_packet *p);

/* Stream offset just past the data rcv may accept (its right window edge), or INT64_MAX when
 * the receiver never advertised a window. */
int64_t tcp_window_end(const struct mon_tcp_side *snd, const struct mon_tcp_side *rcv);

/* ---- the state table, tcp_state_table.c ------------------------------------------------- */
enum tcp_dir { TCP_DIR_SND, TCP_DIR_RCV, TCP_DIR__COUNT };
enum tcp_kind { TCP_K_SYN, TCP_K_SYNACK, TCP_K_FIN, TCP_K_ACK, TCP_K_RST, TCP_K_NONE, TCP_K__COUNT };

/* Table entries beyond the states themselves. */
enum {
    TCP_S_SAME = MON_TCP__STATE_COUNT,  /* legal, state unchanged */
    TCP_S_INV,                          /* not legal here: the packet is ignored and counted */
    TCP_S_ASYNC,                        /* ESTABLISHED if cfg.async_oneside, else TCP_S_INV */
};

enum tcp_kind tcp_kind_of(uint8_t tcp_flags);
/* The next state of an endpoint in state s for a packet of kind k that it sent (TCP_DIR_SND)
 * or received (TCP_DIR_RCV): a state or one of TCP_S_*. */
uint8_t tcp_next_state(enum tcp_dir d, enum tcp_kind k, uint8_t s);

/* ---- Suricata's state-machine stream events, tcp_checks.c -------------------------------- */
/* Phase 1, before the packet moves any state: the stream events (mon_tcp.h) Suricata's
 * state machine would raise for it, into t->pkt_events. Reads the connection, changes only
 * f->tcp.marks and f->tcp.synack_new_isns. */
void tcp_state_checks(struct tcp_ctx *t, struct mon_flow *f, int snd, enum tcp_kind kind,
                      const struct mon_packet *p);

/* ---- connection helpers, tcp_conn.c -------------------------------------------------------- */
static inline uint32_t tcp_seg_len(const struct mon_packet *p)
{
    return p->payload_len + !!(p->tcp_flags & MON_TH_SYN) + !!(p->tcp_flags & MON_TH_FIN);
}
/* Infer a side's ISN from a packet it sent when its SYN was never seen. */
void tcp_infer_isn(struct mon_tcp_side *s, const struct mon_packet *p);
/* True when every endpoint still monitored is CLOSED or TIME_WAIT (and one is monitored). */
bool tcp_conn_done(const struct mon_flow *f);
/* Does the note describe p (of f)? */
bool tcp_note_is(const struct tcp_ctx *t, const struct mon_flow *f, const struct mon_packet *p);
void tcp_note_set(struct tcp_ctx *t, const struct mon_flow *f, const struct mon_packet *p,
                  enum tcp_verdict v);
/* Is p, arriving after CONN_END, still part of the connection (final ACK, FIN rexmit)? */
bool tcp_after_end_ok(const struct mon_flow *f, int snd, const struct mon_packet *p);

/* ---- reassembly, reasm*.c ------------------------------------------------------------------ */

/* One stored piece of out-of-order data: [off, off+len), owned by the segment that sent
 * [off - own_back, off - own_back + own_len) (its extent as sent: overlap policies compare
 * extents as sent, not as trimmed by earlier overlaps). */
struct reasm_piece {
    uint64_t off;
    uint32_t len;
    uint32_t own_back;
    uint32_t own_len;
};

/* A skipped hole inside the in-order region (kept until head passes it). */
struct reasm_gap {
    uint64_t at, end;
};
#define REASM_GAPS 8
#define REASM_INITIAL 4096  /* first ring size of a side; doubles up to its buffer size */
#define REASM_ACK_GROWTH 16 /* ack delivery: the ring may reach this many buffer sizes */

/* The receive stream of one side: a ring of `size` bytes holding stream offsets
 * [head, head + size) at ring index off % size. [head, tail) is in order less the gaps (sorted);
 * [read, tail) is what mon_peek has not returned; pieces hold out-of-order data above tail. */
struct mon_reasm {
    uint8_t *ring;
    uint32_t size;              /* bytes in the ring now */
    uint32_t max;               /* the side's buffer size: the ring doubles up to it on demand */
    uint32_t npc, cap;          /* pieces used / allocated */
    uint64_t head, read, tail;
    struct reasm_piece *pc;     /* sorted, disjoint, all above tail; grows by doubling */
    struct reasm_gap gap[REASM_GAPS];
    uint8_t ngap;
    bool overwritten;           /* the next peek returns MON_EOVERWRITTEN */
    bool holding;               /* on the context's list of holders (reasm_reclaim.c) */
    struct mon_reasm *hold_prev, *hold_next;
    bool on_ack;                /* cfg.ack_delivery: readers see [head, ready), not [head, tail) */
    uint64_t ready;             /* on_ack: end of the bytes readers may read (acknowledged, or
                                 * released at the end); <= tail */
    uint64_t said;              /* on_ack: end of the bytes CONN_NEW_DATA announced; <= ready */
    bool trigger;               /* on_ack: announce at the next packet whatever the chunk size
                                 * (MON_SO_RAW_TRIGGER) */
};

/* The end of what readers of r may see: the acknowledged part of the in-order bytes under
 * ack delivery (never below head: bytes evicted unread are an outrun), else all of them. */
static inline uint64_t reasm_lim(const struct mon_reasm *r)
{
    if (!r->on_ack)
        return r->tail;
    return r->ready < r->head ? r->head : r->ready > r->tail ? r->tail : r->ready;
}

/* What an operation on a stream did (bits). */
enum {
    RA_NEW_DATA = 1u << 0,  /* tail moved: new in-order bytes */
    RA_OUTRUN = 1u << 1,    /* unread bytes were overwritten */
    RA_GAP = 1u << 2,       /* a hole was skipped for good */
    RA_NOMEM = 1u << 3,     /* no memory for out-of-order metadata: data not stored */
};

/* A segment as sent: data for offsets [o, o + len). */
struct reasm_seg {
    uint64_t o;
    uint32_t len;
    const uint8_t *data;
};

struct mon_reasm *reasm_new(struct tcp_ctx *t, uint32_t size, uint64_t start);
void reasm_free(struct tcp_ctx *t, struct mon_reasm *r);
/* Change the ring's size; *ra gets RA_OUTRUN if unread bytes had to go. */
int reasm_resize(struct tcp_ctx *t, struct mon_reasm *r, uint32_t size, uint32_t *ra);

/* Store the part [s, e) of segment y (o <= s <= e <= o + len) under policy. Bytes below tail
 * are final and only compared. Returns RA_* bits. */
uint32_t reasm_insert(struct tcp_ctx *t, struct mon_reasm *r, enum mon_overlap_policy policy,
                      const struct reasm_seg *y, uint64_t s, uint64_t e, uint32_t max_frags);
/* Skip every hole below upto (its bytes will never come): tail reaches at least upto. */
uint32_t reasm_skip_to(struct tcp_ctx *t, struct mon_reasm *r, uint64_t upto);
/* Skip every hole (the stream ends): all held out-of-order data becomes readable. */
uint32_t reasm_flush(struct tcp_ctx *t, struct mon_reasm *r);

/* Runs of held bytes (MON_SO_FRAGS): writes at most max, returns how many there are. */
size_t reasm_frags(const struct mon_reasm *r, struct mon_frag *out, size_t max);
/* MON_SO_BUF_INFO's offsets and sizes (init_seq is the caller's). */
void reasm_info(const struct mon_reasm *r, struct mon_buf_info *bi);

/* reasm internals shared by reasm.c / reasm_insert.c / reasm_read.c */
void ring_write(struct mon_reasm *r, uint64_t off, const uint8_t *src, uint32_t n);
void ring_read(const struct mon_reasm *r, uint64_t off, uint8_t *dst, uint32_t n);
bool ring_differs(const struct mon_reasm *r, uint64_t off, const uint8_t *src, uint32_t n);
/* Move head up to new_head (<= tail): bytes below it are forgotten; unread ones are an outrun. */
uint32_t reasm_evict(struct tcp_ctx *t, struct mon_reasm *r, uint64_t new_head);
/* Move tail over a hole to `to` (a skip), then take in the pieces that now follow it. */
uint32_t reasm_skip_hole(struct tcp_ctx *t, struct mon_reasm *r, uint64_t to);
uint32_t reasm_absorb(struct mon_reasm *r);
uint32_t reasm_runs(const struct mon_reasm *r);
bool reasm_grow_pieces(struct tcp_ctx *t, struct mon_reasm *r, uint32_t need);
/* Charge bytes to the memcap for stream self (NULL: one being made). Over the memcap, the
 * held out-of-order data of other streams is reclaimed first (reasm_reclaim). */
bool tcp_mem_take(struct tcp_ctx *t, const struct mon_reasm *self, uint64_t bytes);
void tcp_mem_give(struct tcp_ctx *t, uint64_t bytes);

/* ---- reclaiming held out-of-order data under the memcap, reasm_reclaim.c ------------------ */
/* r just stored out-of-order data: it becomes the most recent holder. */
void reasm_hold_touch(struct tcp_ctx *t, struct mon_reasm *r);
/* r is freed: off the list. */
void reasm_hold_drop(struct tcp_ctx *t, struct mon_reasm *r);
/* Free the held out-of-order data of the least recently active holders other than self until
 * `bytes` more fit under the memcap; true when they do. */
bool reasm_reclaim(struct tcp_ctx *t, const struct mon_reasm *self, uint64_t bytes);

/* Held bytes of [a, z) that the policy/rexmit code can compare with: calls fn for each
 * contiguous held sub-range. Returns true as soon as fn does. */
typedef bool (*reasm_range_fn)(const struct mon_reasm *r, uint64_t a, uint64_t z, void *arg);
bool reasm_each_held(const struct mon_reasm *r, uint64_t a, uint64_t z, reasm_range_fn fn,
                     void *arg);

#endif
