/* mon_flow.h — the per-worker flow table.
 *
 * Both directions of a conversation find the same flow: the hash is keyed (a secret seed per
 * table, so nobody can aim packets at one bucket) and symmetric (computed over the two
 * endpoints in a canonical order). The client is the side that sent the first packet, except
 * that a first TCP SYN+ACK makes its sender the server (a capture that missed the SYN).
 * For tunnelled traffic the key is the innermost 5-tuple.
 *
 * Flows end on idle timeout (per protocol and state), on memcap eviction (the least recently
 * seen flow goes first), or when the table is flushed; each end is reported once through the
 * end callback, after which the record is reused. One table per worker: no locks.
 */
#ifndef MON_FLOW_H
#define MON_FLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mon_packet.h"
#include "mon_tcp.h"

#pragma GCC visibility push(default) /* libmon exports what include/ declares: stack/README.md */

struct ev_forest;

/* Coarse state, enough for timeouts; the TCP layer refines it per side. */
enum mon_flow_state { MON_FLOW_NEW, MON_FLOW_ESTABLISHED, MON_FLOW_CLOSED };

enum mon_flow_end { MON_FLOW_END_TIMEOUT, MON_FLOW_END_EVICTED, MON_FLOW_END_SHUTDOWN };

/* Timeout classes: one idle timeout each. */
enum mon_flow_tclass {
    MON_TC_TCP_NEW, MON_TC_TCP_EST, MON_TC_TCP_CLOSED,
    MON_TC_UDP_NEW, MON_TC_UDP_EST,
    MON_TC_ICMP_NEW, MON_TC_ICMP_EST,
    MON_TC_OTHER_NEW, MON_TC_OTHER_EST, MON_TC_OTHER_CLOSED,
    MON_TC__COUNT
};

#define MON_FLOW_TO_SERVER 0
#define MON_FLOW_TO_CLIENT 1
#define MON_FLOW_MAX_TUNNELS 5

struct mon_flow {
    struct mon_tcp_conn tcp;    /* both endpoints' TCP state and receive streams (TCP only) */
    struct ev_forest *forest;   /* its invocation forest, shared with flows of the same set */
    void *uctx;                 /* the application's per-flow pointer (mon_set_uctx) */
    void **uslot;               /* libraries' per-flow slots (mon_set_uctx_slot), lazily made */
    struct mon_addr cli, srv;   /* client and server addresses */
    uint64_t id;                /* flow_id: unique in this table's lifetime */
    uint64_t first_us, last_us;
    uint64_t idle_us;           /* the table's clock at its last packet: idle timeouts count
                                   from it (mon_flow_clock), records use first_us/last_us */
    uint64_t bytes[2];          /* indexed by MON_FLOW_TO_SERVER / _TO_CLIENT */
    uint32_t pkts[2];
    uint32_t hnext;             /* next free record (index, 0 = none) while free */
    uint32_t lprev, lnext;      /* neighbours in the timeout-class list (index, 0 = none) */
    uint32_t hash;
    uint16_t cport, sport;      /* client and server ports (ICMP: see flow_key.c) */
    uint8_t proto, ipver;
    uint8_t state;              /* enum mon_flow_state */
    uint8_t tclass;             /* enum mon_flow_tclass */
    uint8_t tcp_flags[2];       /* TCP flags seen per direction */
    uint8_t icmp_type[2], icmp_code[2]; /* first ICMP type/code seen per direction */
    uint8_t ntunnels;
    uint8_t tunnel[MON_FLOW_MAX_TUNNELS]; /* encapsulation of the first packet */
    uint8_t fin_seen;           /* bit per direction */
    uint8_t end;                /* enum mon_flow_end, set when it ends */
    uint8_t mon_flags;          /* libmon core bookkeeping (stack/core) */
};

struct mon_flow_cfg {
    uint64_t memcap;         /* bytes for flow records + hash slots; default 128 MiB */
    uint32_t hash_size;      /* least hash slots (rounded up to a power of two); default 65536 */
    uint32_t prealloc;       /* records allocated up front; default 10000 */
    uint64_t hash_seed;      /* 0 = random */
    uint32_t timeout_s[MON_TC__COUNT];
};

struct mon_flow_stats {
    uint64_t created;
    uint64_t ended[3];       /* by enum mon_flow_end */
    uint64_t active;
    uint64_t active_peak;
    uint64_t tcp, udp, icmp, other;
    uint64_t no_l4;          /* IP packets without a usable transport header: not tracked */
    uint64_t memcap_hits;    /* a new flow had to evict an old one */
    uint64_t alloc_fail;     /* no memory even after eviction: packet not tracked */
    uint64_t memuse;         /* bytes in records + hash slots now */
    uint64_t max_flows;      /* capacity implied by the memcap (with nothing charged) */
    uint64_t charged;        /* bytes of per-flow state kept outside (mon_flow_charge) now */
    uint64_t charged_peak;
    uint64_t charge_evictions; /* of memcap_hits: evicted because charged state was over it */
};

typedef void (*mon_flow_end_cb)(struct mon_flow *f, void *arg);

struct mon_flow_table;

void mon_flow_cfg_defaults(struct mon_flow_cfg *cfg);
struct mon_flow_table *mon_flow_table_create(const struct mon_flow_cfg *cfg,
                                             mon_flow_end_cb on_end, void *arg);
void mon_flow_table_destroy(struct mon_flow_table *t);

/* Which end of a new TCP flow is the client when its first packet does not say (no SYN, no
 * SYN/ACK, no RST, a payload: a connection picked up midstream): fn returns true when the
 * packet's sender is the server. Without it (the default), the sender is the client. */
typedef bool (*mon_flow_orient_fn)(const struct mon_packet *p, void *arg);
void mon_flow_set_orient_cb(struct mon_flow_table *t, mon_flow_orient_fn fn, void *arg);

/* Find or create the flow of a decoded IP packet and account it. *dir receives
 * MON_FLOW_TO_SERVER or MON_FLOW_TO_CLIENT. NULL when the packet can't be tracked (not IP,
 * no transport header, or no memory), counted in the stats. */
struct mon_flow *mon_flow_handle(struct mon_flow_table *t, const struct mon_packet *p, int *dir);

/* Advance the table's idle clock with a packet (or wall) time and return it: the packet
 * time while time goes forward; a jump back (concatenated captures) continues from where it
 * stood, so idle timeouts keep running (flow_clock.c). mon_flow_handle and mon_flow_expire
 * call it themselves. */
uint64_t mon_flow_clock(struct mon_flow_table *t, uint64_t ts_us);

/* End every flow idle past its timeout at now_us (packet time, through mon_flow_clock).
 * Cheap: O(classes) when nothing is due. */
void mon_flow_expire(struct mon_flow_table *t, uint64_t now_us);

/* End every flow (end of input). */
void mon_flow_flush(struct mon_flow_table *t);

/* The packet's flow if there is one, without creating or accounting anything. */
struct mon_flow *mon_flow_find(struct mon_flow_table *t, const struct mon_packet *p, int *dir);

/* End one flow now (e.g. a closed TCP connection whose ports are reused by a new SYN). */
void mon_flow_end_now(struct mon_flow_table *t, struct mon_flow *f, enum mon_flow_end why);

/* Per-flow state kept outside the records, charged to the memcap (mon_ctx_charge). */
void mon_flow_charge(struct mon_flow_table *t, int64_t bytes);

const struct mon_flow_stats *mon_flow_stats(const struct mon_flow_table *t);

/* Call fn for every live flow (any order). fn must not end or create flows. */
void mon_flow_each(struct mon_flow_table *t, void (*fn)(struct mon_flow *f, void *arg), void *arg);

/* Symmetric keyed hash of a packet's flow key (exposed for unit tests). */
uint32_t mon_flow_hash_packet(const struct mon_flow_table *t, const struct mon_packet *p);

#pragma GCC visibility pop

#endif
