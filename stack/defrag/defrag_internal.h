/* defrag_internal.h — the structures behind struct mon_defrag, shared by the files of
 * stack/defrag/ only.
 *
 * Model. A tracker keeps, for one datagram, the fragments it stored and a list of "pieces":
 * disjoint byte ranges of the fragmentable part, sorted by offset, each owned by the stored
 * fragment whose bytes the target host would keep there. A new fragment takes over the
 * parts of the pieces it overlaps where the overlap policy says it beats their owner
 * (defrag_insert.c), and fills the gaps between them. When the last fragment has been seen
 * and the pieces cover [0, end) the datagram is complete, and the output is copied piece by
 * piece. Piece boundaries are always the start or end of some fragment, so a tracker never
 * holds more than 2 * fragments - 1 pieces.
 */
#ifndef MON_DEFRAG_INTERNAL_H
#define MON_DEFRAG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mon_defrag.h"
#include "mon_packet.h"

/* Reassembled datagrams handed out per packet. A packet can complete one datagram per IP
 * layer, and the decoder stops at MON_MAX_TUNNELS encapsulations, so this is never short. */
#define DF_OUTPUTS (MON_MAX_TUNNELS + 1)

/* Fragment blocks come in a few size classes kept on free lists, so a steady stream of
 * fragments does not call malloc; bigger fragments (jumbo frames) get an exact allocation. */
#define DF_BLOCK_CLASSES 3
#define DF_BLOCK_SPARE_MAX 128   /* free blocks kept per class */
#define DF_TRACKER_SPARE_MAX 64  /* free trackers kept for reuse */

/* The IPv4 datagram may be 65535 bytes including a header of at least 20 bytes; the IPv6
 * payload length field holds at most 65535. */
#define DF_IPV4_MAX_PAYLOAD (65535u - 20u)
#define DF_IPV6_MAX_PAYLOAD 65535u

struct df_key {
    struct mon_addr src, dst;
    uint32_t id;    /* 16-bit IPv4 identification or 32-bit IPv6 identification */
    uint8_t ipver;
    uint8_t proto;  /* IPv4 protocol; 0 for IPv6, whose key has no protocol (RFC 8200) */
    uint8_t pad[2]; /* zero: the key is hashed and compared as bytes */
};

/* One stored fragment. Header bytes (offset-0 fragments only) and data share the block. */
struct df_frag {
    uint32_t off, end;     /* range in the fragmentable part as sent, before any overlap */
    uint32_t hdr_len;      /* bytes of header before the data; 0 unless off == 0 */
    uint32_t prev_nh_off;  /* IPv6: offset in the header of the byte naming the Fragment hdr */
    uint32_t cap;          /* bytes[] capacity */
    uint8_t cls;           /* size class, DF_BLOCK_CLASSES = exact allocation */
    uint8_t nh;            /* IPv6: the Fragment header's next header */
    struct df_frag *next_free;
    uint8_t bytes[];       /* hdr_len bytes of header, then end - off bytes of data */
};

struct df_piece {
    uint32_t off, end;
    uint32_t frag;  /* index into the tracker's frags[] */
};

struct df_tracker {
    struct df_key key;
    uint32_t hash;
    struct df_tracker *hnext;          /* hash chain */
    struct df_tracker *older, *newer;  /* age list, oldest first */
    uint64_t first_ts_us;              /* timeouts count from the first fragment */
    uint8_t policy;                    /* enum mon_overlap_policy, by destination */
    bool seen_last;
    uint32_t end;                      /* fragmentable length, known once seen_last */
    uint32_t nseen;                    /* fragments received, for max_frags */
    struct df_frag **frags;            /* stored fragments by arrival; NULL = freed */
    uint32_t nfrags, frags_cap;
    struct df_piece *pieces;
    uint32_t npieces, pieces_cap;
    size_t mem;                        /* bytes charged to the memcap for this tracker */
};

struct df_out {
    uint8_t *buf;
    uint32_t cap;
};

struct mon_defrag {
    struct mon_defrag_cfg cfg;
    struct mon_host_policy *policy_entries;  /* our copy of cfg.policy.entries */
    struct mon_defrag_stats stats;
    uint64_t hash_key[2];

    struct df_tracker **buckets;
    uint32_t nbuckets;  /* power of two */
    struct df_tracker *oldest, *newest;

    struct df_tracker *spare_trackers;  /* linked through hnext */
    uint32_t nspare_trackers;
    struct df_frag *spare_blocks[DF_BLOCK_CLASSES];
    uint32_t nspare_blocks[DF_BLOCK_CLASSES];

    struct df_piece *scratch;    /* the next piece list is built here */
    uint32_t scratch_cap;
    uint32_t *refs;              /* pieces per fragment, while pruning */
    uint32_t refs_cap;

    struct df_out out[DF_OUTPUTS];
    uint32_t nout;
};

/* A fragment as parsed by defrag_ipv4.c / defrag_ipv6.c, handed to the common path. */
struct df_input {
    struct df_key key;
    const uint8_t *hdr;     /* header to keep when off == 0 */
    uint32_t hdr_len;
    uint32_t prev_nh_off;   /* IPv6 only */
    uint8_t nh;             /* IPv6 only */
    const uint8_t *data;
    uint32_t off, len;
    bool more;
    uint64_t ts_us;
};

/* Outcome of df_feed: the completed tracker is left for the caller to build its output. */
enum df_result {
    DF_KEPT,      /* stored or dropped with an anomaly counted: return 0 */
    DF_INVALID,   /* invalid fragment, anomaly counted: return -1 */
    DF_COMPLETE,  /* the tracker holds a whole datagram: build it, then df_tracker_drop */
};

static inline void df_event(struct mon_decode_stats *st, enum mon_decode_event e)
{
    if (st)
        st->event[e]++;
}

/* defrag.c */
void df_mem_add(struct mon_defrag *df, struct df_tracker *t, size_t n);
void df_mem_sub(struct mon_defrag *df, struct df_tracker *t, size_t n);
bool df_mem_fits(const struct mon_defrag *df, size_t n, bool new_datagram);
uint8_t *df_out_acquire(struct mon_defrag *df, uint32_t len);
struct df_frag *df_block_get(struct mon_defrag *df, uint32_t need);
void df_block_put(struct mon_defrag *df, struct df_frag *f);
size_t df_block_cost(uint32_t need);           /* charge of a block for need bytes */
size_t df_block_charge(const struct df_frag *f);

/* defrag_table.c */
bool df_table_init(struct mon_defrag *df);
void df_table_fini(struct mon_defrag *df);
struct df_tracker *df_tracker_find(struct mon_defrag *df, const struct df_key *k, uint32_t h);
struct df_tracker *df_tracker_new(struct mon_defrag *df, const struct df_key *k, uint32_t h,
                                  uint64_t ts_us);
void df_tracker_drop(struct mon_defrag *df, struct df_tracker *t);
uint32_t df_key_hash(const struct mon_defrag *df, const struct df_key *k);
/* Drop trackers older than the timeout, oldest first, at most max of them (0 = all). */
void df_expire_some(struct mon_defrag *df, uint64_t now_us, uint32_t max,
                    struct mon_decode_stats *st);
bool df_tracker_stale(const struct mon_defrag *df, const struct df_tracker *t, uint64_t now_us);

/* defrag_insert.c */
enum df_result df_feed(struct mon_defrag *df, const struct df_input *in,
                       struct mon_decode_stats *st, struct df_tracker **done);
/* Copy the reassembled fragmentable part (t->end bytes) to dst. */
void df_copy_payload(const struct df_tracker *t, uint8_t *dst);
/* The stored fragment that owns byte 0: its header heads the output. */
const struct df_frag *df_first_frag(const struct df_tracker *t);

#endif
