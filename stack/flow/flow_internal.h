/* flow_internal.h — what the flow table's files share; not part of the public API. */
#ifndef MON_FLOW_INTERNAL_H
#define MON_FLOW_INTERNAL_H

#include "mon_flow.h"

/* Records live in chunks so the table grows lazily up to the memcap without moving any
 * record; a flow is named by a 32-bit index (0 = none) to keep links small. */
#define FLOW_CHUNK_SHIFT 12
#define FLOW_CHUNK_SIZE (1u << FLOW_CHUNK_SHIFT)

/* The endpoints of a packet, in packet order. */
struct flow_key {
    struct mon_addr src, dst;
    uint16_t sport, dport;
    uint8_t proto, ipver;
};

/* A slot of the hash table: the flow's hash beside its index, so that probing past other
 * flows never touches their records (each would be a cache miss under a flood). idx 0: empty. */
struct flow_slot {
    uint32_t hash, idx;
};

struct flow_lru {
    uint32_t head, tail;  /* oldest first */
};

/* The clock idle timeouts run on (flow_clock.c): packet time plus the offset of the
 * segment it belongs to. */
struct flow_clock_seg {
    uint64_t offset;   /* added to packet times of this segment */
    uint64_t max;      /* latest packet time seen in it */
};
struct flow_clock {
    uint64_t now;      /* never goes back */
    struct flow_clock_seg cur, prev;
    bool started, has_prev;
};

struct mon_flow_table {
    struct mon_flow_cfg cfg;
    mon_flow_end_cb on_end;
    void *on_end_arg;
    mon_flow_orient_fn orient;  /* mon_flow_set_orient_cb; NULL: the sender is the client */
    void *orient_arg;
    uint64_t seed[2];
    uint64_t next_id;

    struct flow_slot *slot;  /* open addressing, linear probing (flow_table.c) */
    uint32_t slot_mask;

    struct mon_flow **chunk;  /* chunk[i] holds FLOW_CHUNK_SIZE records */
    uint32_t nchunks, max_chunks;
    uint32_t nrecords;        /* records allocated (index 0 is never used) */
    uint32_t max_records;     /* from the memcap */
    uint32_t free_head;       /* free records chained through hnext */

    struct flow_lru lru[MON_TC__COUNT];
    struct flow_clock clock;
    struct mon_flow_stats stats;
};

static inline struct mon_flow *flow_at(const struct mon_flow_table *t, uint32_t idx)
{
    return &t->chunk[idx >> FLOW_CHUNK_SHIFT][idx & (FLOW_CHUNK_SIZE - 1)];
}

/* flow_key.c */
bool flow_key_from_packet(const struct mon_packet *p, struct flow_key *k);
uint32_t flow_key_hash(const struct mon_flow_table *t, const struct flow_key *k);
/* 0 = same direction as the flow's client→server, 1 = reverse, -1 = another flow */
int flow_key_match(const struct mon_flow *f, const struct flow_key *k);

/* flow_timeout.c */
void flow_lru_append(struct mon_flow_table *t, uint32_t idx);
void flow_lru_remove(struct mon_flow_table *t, uint32_t idx);
void flow_update_state(struct mon_flow_table *t, uint32_t idx, const struct mon_packet *p, int dir);
uint32_t flow_oldest(const struct mon_flow_table *t);
bool flow_idle_expired(const struct mon_flow_table *t, const struct mon_flow *f, uint64_t now_us);

/* flow_table.c */
void flow_end(struct mon_flow_table *t, uint32_t idx, enum mon_flow_end why);

#endif
