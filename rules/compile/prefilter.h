/* prefilter.h — what runs before a rule's options: the fast-pattern matchers (mpm.c, their
 * protocol classes and port filters mpm_group.c, their on-disk cache mpm_cache.c), the header
 * dispatchers of rules without a fast pattern (filters.c, hdx_index.c) and the per-rule
 * profiling wrapped around option units (profile.c). Internal to rules/compile; included by
 * detect_int.h, which embeds these structures. */
#ifndef OSPREY_DETECT_PREFILTER_H
#define OSPREY_DETECT_PREFILTER_H

#include <hs/hs.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mon.h"
#include "osprey_detect.h"
#include "osprey_rules.h"

struct det_xform;
struct det_header;
struct det_side;
struct det_unit;

/* Port groups of a packet or stream kind's fast patterns (mpm_group.c), after Suricata's
 * signature group heads: a buffer is scanned only with the patterns of rules whose protocol
 * and flow direction can match it, and a pattern found is raised only when some rule using it
 * can match the buffer's ports. Per group (protocol class × direction), one database holds
 * the patterns of the group; the weak ones (short, so they occur nearly everywhere) that only
 * port-restricted rules use sit in a second database, scanned only on the ports those rules
 * name. */
enum det_mclass { DMC_TCP, DMC_UDP, DMC_OTHER, DMC__N };
/* A group is a protocol class and a direction: `flow:to_server` rules' patterns are not looked
 * for in what the server sends (most bytes of most flows), nor `to_client` ones in requests.
 * Rules without a direction are in both of their class's groups. */
#define DMG__N (DMC__N * 2)
static inline uint8_t det_mgroup(uint8_t cls, bool to_server)
{
    return (uint8_t)(cls * 2 + (to_server ? 0 : 1));
}
/* A rule's directions (plan.flow_dirs): bit 0 to the server, bit 1 to the client. */
enum { DET_DIR_TS = 1, DET_DIR_TC = 2, DET_DIR_BOTH = 3 };
#define DET_MPM_GROUP_MAX 2 /* class (or class + weak), weak */
#define DET_MPM_STREAM_DBS 2
/* A block-scanned pattern whose rules can only match it ending in the buffer's first bytes
 * (an absolute content's depth, dsize) carries that bound into its database (Hyperscan's
 * max_offset, mpm.c): looked for only there, in the same pass as the others. */enum { DMR_DPORT, DMR_SPORT };
struct det_mpm_place {     /* pattern id is wanted in group cls when the role's port is in [lo, hi] */
    uint32_t id;
    uint8_t cls, role;
    uint16_t lo, hi;
};
struct det_mpm_group {     /* how one buffer is scanned */
    const hs_database_t *db[DET_MPM_GROUP_MAX];
    uint8_t n;
    uint8_t cls;           /* the group (det_mgroup), DMG__N: not grouped */
    bool weak;             /* the weak port-bound patterns are looked for too */
    uint16_t sp, dp;
};

/* The multi-event filter of one buffer kind: Hyperscan databases over the fast patterns of
 * every rule inspecting that buffer (one, or port groups); pattern id i raises child event
 * ev[i] whichever database found it. */
struct det_mpm {
    uint8_t kind;
    uint16_t base, ob;     /* DK_APP: the base event and parser buffer it scans */
    const struct det_xform *xf;
    uint32_t n, cap;
    const uint8_t **pat;   /* pattern bytes (the AST's) */
    uint32_t *len;
    bool *nocase;
    uint32_t *maxend;      /* block-scanned kinds (not DK_STREAM): the furthest a match of the
                              pattern can end in the buffer and still serve a rule (its fast
                              pattern's depth, a packet rule's dsize), UINT32_MAX anywhere;
                              Hyperscan then stops looking for it past that (mpm.c, up to
                              DET_MPM_BOUND_MAX) */
    mon_event_t *ev;       /* child events, allocated under `self` */
    uint32_t *hidx;        /* compile time: pattern ids by hash of (bytes, nocase), open
                              addressing, 0 empty, else id + 1; hcap a power of two */
    uint32_t hcap;
    uint32_t maxlen;
    mon_event_t self;      /* the filter's own UDE (under the base event) */
    bool defined;
    bool streaming;        /* DK_STREAM only: db is HS_MODE_STREAM, fed per flow side */
    const char *cache;     /* directory of compiled databases kept between runs, or NULL */
    bool grouped;          /* DK_PKT, DK_STREAM: per class and port (mpm_group.c) */
    bool ready;            /* compiled, with some database to scan */
    hs_database_t *db;     /* not grouped: every pattern */
    uint8_t *gen;          /* grouped, per pattern: bit g = wanted in group g at any port */
    struct det_mpm_place *place; /* grouped: where the others are wanted, sorted by id */
    uint32_t nplace, cap_place;
    uint32_t *place_at;    /* per pattern: its first place (n + 1 entries) */
    hs_database_t *gdb[DMG__N]; /* per group: its patterns but the weak port-bound ones */
    hs_database_t *wdb[DMG__N]; /* per group: the weak port-bound ones */
    hs_database_t *cdb[DMG__N]; /* per group: both in one, for the ports where both would be
                                   scanned (one pass over the bytes instead of two) */
    uint64_t *wports[DMG__N][2]; /* per group and role: bitmap of the ports wdb serves */
    /* DK_STREAM under ack delivery: a connection packet's own payload is inspected on arrival
     * for the packet twins Suricata runs on every packet (pkt_required, runtime.c
     * arrival_twins). Their patterns alone, per group, in block mode with their bounds: one
     * small pass per packet, not the whole stream database again */
    bool *arrival;              /* per pattern: a pkt_required packet twin uses it */
    hs_database_t *adb[DMG__N];
    /* DK_PKT, with a stream matcher that has arrival patterns: per TCP group, its class
     * database (mgdb) and its class + weak one (mcdb) with the stream matcher's arrival
     * patterns added, as ids arr_base + their stream id. A TCP connection packet's payload is
     * then scanned once for the packet rules and the arrival twins, not twice
     * (det_mpm_arrival_scan, filters.c) */
    hs_database_t *mgdb[DMG__N], *mcdb[DMG__N];
    uint32_t arr_base;
    /* DK_APP on the payload (an application rule's plain contents): on TCP its patterns are
     * found by the stream matcher `via` as the stream arrives (sid: their ids there), so an
     * application event raises them from the side's record instead of scanning the window
     * again (mpm.c det_mpm_via_stream) */
    const struct det_mpm *via;
    uint32_t *sid;
    int32_t *from_stream;  /* per stream pattern id: this matcher's, or -1 */
    /* The patterns that are one byte repeated, found by the run scanner (mpm_runs.c) and left
     * out of the streaming (DK_STREAM), packet and application databases; runs sorted by byte
     * then length, byte c's at runs[run_at[c] .. run_at[c + 1]) */
    bool *is_run;
    uint32_t *runs, nruns;
    uint32_t run_at[257];
    uint32_t run_min[256]; /* the shortest run pattern of each byte, UINT32_MAX: none */
    uint32_t *run_bound;   /* block kinds, per runs[k]: its end bound (det_mpm_bound_of), 0 none */
    uint32_t run_reach;    /* block kinds: the bytes a run can start in and serve (all bounded:
                              the largest bound), UINT32_MAX: all */
    /* DK_STREAM, streaming: the patterns whose every rule wants them ending in a stream's first
     * bytes (maxend, at most DET_MPM_BOUND_MAX), left out of the streaming databases and found
     * by one bounded block pass per group over a side's first head_reach bytes (mpm_heads.c) */
    bool *is_head;
    uint32_t nheads, head_reach;
    hs_database_t *hdb[DMG__N];
    /* DK_STREAM, streaming: per group, every pattern in one block database with the block
     * bounds, for a payload inspected as the only bytes of a side (an orphan's,
     * det_mpm_orphan_scan): one pass instead of opening, feeding and closing a stream */
    hs_database_t *odb[DMG__N];
};

/* The header dispatcher of one base event: rules without a fast pattern hang below it, one
 * child event per distinct header. Which headers a flow direction matches never changes, so
 * the filter works it out once per flow direction and then only re-raises (per-flow cache). */
struct det_hdx_bucket {   /* headers alike but for their ports: one address check for all */
    const struct det_header *key;
    uint32_t *idx;        /* indexes into det_hdx.hdr, ascending */
    uint32_t n, cap;
};
struct det_addr_index {   /* address → buckets naming it: pieces [cut[i], cut[i+1]) */
    struct osprey_ip *cut;
    uint32_t ncut;
    uint32_t *start;      /* piece i's buckets: bk[start[i] .. start[i+1]) */
    uint32_t *bk;
};
struct det_hdx {
    uint8_t kind;
    uint16_t base;
    uint16_t slot;        /* its per-flow cache: det_flow.hc[slot] (hdx defined in order) */
    uint32_t n, cap;
    const struct det_header **hdr;
    mon_event_t *ev;
    mon_event_t self;
    bool defined;
    /* hdx_index.c: the headers by kind, protocol, direction and addresses; buckets whose
     * addresses are lists of hosts and small networks are found through an address index,
     * the others (any, $HOME_NET …) always looked at */
    struct det_hdx_bucket *bk;
    uint32_t nbk;
    struct det_addr_index by[2]; /* [0] by source, [1] by destination address */
    uint32_t *always;
    uint32_t nalways;
    /* the always-looked-at buckets name few distinct address sets ($HOME_NET,
     * $EXTERNAL_NET, any …): each is searched once per call, its result shared (aset_of:
     * each always bucket's source and destination set; NULL past HDX_MEMO_MAX sets) */
    const struct osprey_ip_set **aset;
    uint32_t naset;
    uint16_t (*aset_of)[2];
};
#define HDX_MEMO_MAX 64
/* A worker's memo of which always sets an address is in (hdx_index.c), kept across flows:
 * hosts recur from flow to flow, and each flow direction would search the sets again.
 * Direct-mapped by (dispatcher, address); an entry holds the sets searched so far. */
struct det_hdx_ipmemo {
    const struct det_hdx *x;
    struct osprey_ip ip;
    uint64_t known, in; /* bit i: set x->aset[i] searched, and the address in it */
};
#define HDX_IPMEMO_N 256
struct det_hcache;
/* Per-rule profiling (profile.c). */
struct det_prof_unit {
    const struct det_unit *u;
    mon_event_t parent;
    uint32_t id;
};
struct det_prof_count {
    uint64_t calls, ns;
};
bool det_unit_prof_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                          void *arg);
const struct det_prof_unit *det_prof_unit_of(struct osprey_detect *d, mon_event_t parent,
                                             const struct det_unit *u);
void det_prof_free(struct osprey_detect *d);
void det_prof_enter(struct osprey_detect_worker *w);
/* Group a header dispatcher's headers, once all rules are in (hdx_index.c). */
int det_hdx_index(struct det_hdx *x);
void det_hdx_index_free(struct det_hdx *x);
/* The headers of x a flow direction matches, ascending, into c (hdx_index.c); im: the
 * worker's HDX_IPMEMO_N address memos, or NULL. */
int det_hdx_headers(const struct det_hdx *x, const struct mon_packet *p,
                    const struct mon_flow *f, int side, struct det_hcache *c,
                    struct det_hdx_ipmemo *im);
/* Header checks (filters.c). */
bool det_header_match(const struct det_header *h, const struct mon_packet *p,
                      const struct mon_flow *f, int side);
void det_header_addrs(const struct det_header *h, const struct mon_packet *p,
                      const struct mon_flow *f, int side, struct osprey_ip *src,
                      uint16_t *sp, struct osprey_ip *dst, uint16_t *dp);
bool det_in_ipset(const struct osprey_ip_set *s, struct osprey_ip ip);
/* A header's check in two steps, for headers that differ only in their ports (hdx_index.c's
 * buckets): the protocol and the addresses once (false: no way matches), then each one's ports. */
struct det_ways {
    bool fwd, rev;      /* the addresses match as written / the other way round (<>) */
    uint16_t sp, dp;
};
bool det_header_ways(const struct det_header *h, const struct mon_packet *p,
                     const struct mon_flow *f, int side, struct det_ways *w);
/* det_header_ways with the protocol (ICMPv6 as 1) and the addresses and ports of the
 * header's kind and base already worked out (det_header_addrs; ip[0] source, ip[1]
 * destination): the header dispatcher checks its buckets with one computation. */
bool det_header_ways_at(const struct det_header *h, uint8_t proto, const struct osprey_ip ip[2],
                        uint16_t sp, uint16_t dp, struct det_ways *w);
bool det_header_ports(const struct det_header *h, const struct det_ways *w);
struct osprey_ip det_to_ip(const struct mon_addr *a, uint8_t ipver);

/* Hyperscan (mpm.c). */
int det_mpm_add(struct det_mpm *m, const uint8_t *p, uint32_t len, bool nocase, uint32_t *id);
/* One more rule uses pattern id, whose match must end by byte maxend of the buffer to serve it
 * (UINT32_MAX: anywhere); a pattern's bound is the loosest of its rules'. */
void det_mpm_bound(struct det_mpm *m, uint32_t id, uint32_t maxend);
int det_mpm_compile(struct det_mpm *m, FILE *diag);
/* Compile one database over patterns ids[0..n) of m (mpm.c); det_mpm_compile_block: in block
 * mode with end offsets reported and bounds, whatever m's kind (the arrival databases). */
int det_mpm_compile_db(const struct det_mpm *m, const uint32_t *ids, uint32_t n,
                       hs_database_t **db, FILE *diag);
int det_mpm_compile_block(const struct det_mpm *m, const uint32_t *ids, uint32_t n,
                          hs_database_t **db, FILE *diag);
/* The packet matcher pk's merged databases (mgdb, mcdb) with stream matcher st's arrival
 * patterns, once both are compiled. */
int det_mpm_compile_merged(struct det_mpm *pk, const struct det_mpm *st, FILE *diag);
/* A pkt_required packet twin uses stream pattern id (the arrival databases hold it). */
void det_mpm_arrival(struct det_mpm *m, uint32_t id);
/* Scan connection packet p's payload for the arrival patterns of the receiving side rcv's
 * group into s (its seen list, offsets from the payload's start); false when the stream
 * matcher cannot. Where the packet matcher has a merged database for the packet's group, the
 * one pass also finds the packet rules' patterns, kept in w for det_mpm_filter to raise
 * (filters.c). */
struct osprey_detect_worker;
bool det_mpm_arrival_scan(struct osprey_detect_worker *w, struct det_side *s,
                          const struct mon_flow *f, int rcv, const struct mon_packet *p);
/* Scan the payload of a TCP packet no connection takes, as the receiving side rcv's only
 * bytes, into s (offsets from the payload's start) with the stream matcher's orphan database;
 * false when it has none for the group (the caller feeds a stream instead) (filters.c). */
bool det_mpm_orphan_scan(struct osprey_detect_worker *w, struct det_side *s,
                         const struct mon_flow *f, int rcv, const struct mon_packet *p);
/* The on-disk database cache (mpm_cache.c): 0 and *db when this exact database is there. */
int det_mpm_cache_load(const struct det_mpm *m, const uint32_t *ids, const unsigned *flags,
                       const uint32_t *bound, uint32_t n, unsigned mode, hs_database_t **db);
void det_mpm_cache_store(const struct det_mpm *m, const uint32_t *ids, const unsigned *flags,
                         const uint32_t *bound, uint32_t n, unsigned mode,
                         const hs_database_t *db);
void det_mpm_cache_prune(const char *dir, double max_age);
/* Have stream matcher `stream` find payload pattern id of app matcher m as well (mpm.c). */
int det_mpm_via_stream(struct det_mpm *m, struct det_mpm *stream, uint32_t id);
/* Grouped kinds: record that pattern id serves a rule with header h and flow directions
 * dirs (DET_DIR_*) (mpm_group.c). */
int det_mpm_place(struct det_mpm *m, uint32_t id, const struct det_header *h, uint8_t dirs);
/* Grouped kinds: compile the class databases (mpm_group.c). */
int det_mpm_compile_groups(struct det_mpm *m, FILE *diag);
/* Is pattern id one byte repeated (|00 00 00 00 00|, "AAAA"; any length)? (mpm_runs.c) */
bool det_mpm_one_byte(const struct det_mpm *m, uint32_t id);
/* Has m's database of this mode left its run patterns to the run scanner? A streaming
 * database's and every packet or application one's; the stream matcher's block databases
 * (arrival, detect.stream-mpm: block) keep them. compile_db and scan_group both ask. */
static inline bool det_mpm_runs_left_out(const struct det_mpm *m, bool block)
{
    return m->nruns && (m->kind != DK_STREAM || !block);
}
/* Mark the patterns of one repeated byte, which the run scanner finds instead of the streaming,
 * packet and application databases (mpm_runs.c); 0, or -1 out of memory. */
int det_mpm_find_runs(struct det_mpm *m);
/* Let the run scanner step with AVX2 where the CPU has it (on, the default) or with SSE2 alone
 * (tests cover both); returns whether it uses AVX2 now (mpm_runs.c). */
bool det_mpm_runs_avx2(bool on);
/* Block kinds: call found(id, arg) once for each run pattern a run in p[0..n) holds within its
 * bound, as a block database with HS_FLAG_SINGLEMATCH reports it (mpm_runs.c). */
void det_mpm_scan_runs(const struct det_mpm *m, const uint8_t *p, size_t n,
                       void (*found)(uint32_t id, void *arg), void *arg);
/* Patterns bounded to end in a buffer's first bytes carry the bound into Hyperscan up to this
 * many bytes (mpm.c). */
#define DET_MPM_BOUND_MAX 256
/* Streaming stream matcher: mark the patterns only a stream's first bytes can serve, which its
 * streaming databases leave to the head pass (mpm_heads.c); 0, or -1 out of memory. After
 * det_mpm_find_runs (a run pattern stays the run scanner's). */
int det_mpm_find_heads(struct det_mpm *m);
/* Is pattern id left out of a database of this mode for the head pass? Only the streaming
 * ones of the stream matcher; its block databases (arrival) keep them. */
static inline bool det_mpm_head_left_out(const struct det_mpm *m, uint32_t id, bool block)
{
    return m->nheads && !block && m->is_head[id];
}
/* A pattern's end bound in a block database (mpm.c), 0: none. */
uint32_t det_mpm_bound_of(const struct det_mpm *m, uint32_t id, bool block);
/* The databases a buffer of this protocol, direction and ports is scanned with (to_server:
 * the buffer goes to the server, or has no flow). */
void det_mpm_select(const struct det_mpm *m, uint8_t proto, bool to_server, uint16_t sp,
                    uint16_t dp, struct det_mpm_group *g);
/* May pattern id found in a buffer scanned with g raise its rules (some can match the ports)? */
bool det_mpm_wanted(const struct det_mpm *m, const struct det_mpm_group *g, uint32_t id);
/* Size a worker's scratch for every database of m. */
int det_mpm_scratch(const struct det_mpm *m, hs_scratch_t **scratch);
/* A stream side's ports as its headers see them (sender → receiver). */
void det_side_ports(const struct mon_flow *f, int side, uint16_t *sp, uint16_t *dp);
void det_mpm_free(struct det_mpm *m);

#endif
