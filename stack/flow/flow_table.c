/* flow_table.c — record pool, hash table and the per-packet lookup.
 *
 * The hash table is open addressing with linear probing over (hash, index) slots, at most
 * three quarters full: finding that a key is new (every packet of a SYN flood) reads one or
 * two cache lines of slots and no record, and removing a flow (eviction) reads the line of
 * its own slot — with hash chains through the records both walked records, one cache miss
 * each, and were a third of a flood's time. Removal shifts the following slots back
 * (no tombstones), so probes stay short however many flows come and go.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "flow_internal.h"

void mon_flow_cfg_defaults(struct mon_flow_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->memcap = 128ull << 20;
    cfg->hash_size = 65536;
    cfg->prealloc = 10000;
    /* Suricata's defaults, in seconds */
    cfg->timeout_s[MON_TC_TCP_NEW] = 60;
    cfg->timeout_s[MON_TC_TCP_EST] = 600;
    cfg->timeout_s[MON_TC_TCP_CLOSED] = 60;
    cfg->timeout_s[MON_TC_UDP_NEW] = 30;
    cfg->timeout_s[MON_TC_UDP_EST] = 300;
    cfg->timeout_s[MON_TC_ICMP_NEW] = 30;
    cfg->timeout_s[MON_TC_ICMP_EST] = 300;
    cfg->timeout_s[MON_TC_OTHER_NEW] = 30;
    cfg->timeout_s[MON_TC_OTHER_EST] = 300;
    cfg->timeout_s[MON_TC_OTHER_CLOSED] = 0;
}

static uint32_t pow2_at_least(uint32_t n)
{
    uint32_t v = 1;
    while (v < n && v < (1u << 30))
        v <<= 1;
    return v;
}

/* Allocate one more chunk of records and put them on the free list. */
static bool grow(struct mon_flow_table *t)
{
    if (t->nchunks == t->max_chunks)
        return false;
    /* state charged from outside takes room records would have had */
    if (t->nchunks && t->stats.memuse + t->stats.charged +
                          (uint64_t)FLOW_CHUNK_SIZE * sizeof(struct mon_flow) > t->cfg.memcap)
        return false;
    struct mon_flow *c = calloc(FLOW_CHUNK_SIZE, sizeof *c);
    if (!c)
        return false;
    uint32_t base = t->nchunks << FLOW_CHUNK_SHIFT;
    t->chunk[t->nchunks++] = c;
    for (uint32_t i = FLOW_CHUNK_SIZE; i-- > 0;) {
        uint32_t idx = base + i;
        if (idx == 0 || idx > t->max_records)
            continue; /* index 0 means "none"; beyond the memcap stays unused */
        c[i].hnext = t->free_head;
        t->free_head = idx;
        t->nrecords++;
    }
    t->stats.memuse += (uint64_t)FLOW_CHUNK_SIZE * sizeof *c;
    return true;
}

struct mon_flow_table *mon_flow_table_create(const struct mon_flow_cfg *cfg,
                                             mon_flow_end_cb on_end, void *arg)
{
    struct mon_flow_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->cfg = *cfg;
    t->on_end = on_end;
    t->on_end_arg = arg;
    if (cfg->hash_seed) {
        t->seed[0] = cfg->hash_seed;
        t->seed[1] = cfg->hash_seed * 0x9e3779b97f4a7c15ULL;
    } else if (getrandom(t->seed, sizeof t->seed, 0) != sizeof t->seed) {
        free(t);
        return NULL;
    }
    /* hash-size is a floor: slots for one and a half times the records the memcap allows
     * (rounded up to a power of two), and the records are capped to three quarters of the
     * slots, so probes stay short however full the table gets */
    uint64_t fill = cfg->memcap / (sizeof(struct mon_flow) + 3 * sizeof(struct flow_slot) / 2);
    fill += fill / 2 + 1;
    uint32_t want = cfg->hash_size ? cfg->hash_size : 1;
    if (fill > want)
        want = fill > (1u << 27) ? 1u << 27 : (uint32_t)fill;
    uint32_t ns = pow2_at_least(want);
    t->slot = calloc(ns, sizeof *t->slot);
    if (!t->slot) {
        free(t);
        return NULL;
    }
    t->slot_mask = ns - 1;
    t->stats.memuse = (uint64_t)ns * sizeof *t->slot;

    uint64_t room = cfg->memcap > t->stats.memuse ? cfg->memcap - t->stats.memuse : 0;
    uint64_t maxr = room / sizeof(struct mon_flow);
    if (maxr > (uint64_t)ns / 4 * 3)
        maxr = (uint64_t)ns / 4 * 3;
    t->max_records = (uint32_t)maxr;
    t->stats.max_flows = maxr;
    /* chunk count rounds down so records + slots never exceed the memcap */
    t->max_chunks = (uint32_t)(room / ((uint64_t)FLOW_CHUNK_SIZE * sizeof(struct mon_flow)));
    if (t->max_chunks == 0 && maxr > 0)
        t->max_chunks = 1; /* tiny memcaps still get one (partly used) chunk */
    if (t->max_chunks * (uint64_t)FLOW_CHUNK_SIZE - 1 < maxr) {
        t->max_records = t->max_chunks * FLOW_CHUNK_SIZE - 1;
        t->stats.max_flows = t->max_records;
    }
    t->chunk = calloc(t->max_chunks ? t->max_chunks : 1, sizeof *t->chunk);
    if (!t->chunk) {
        free(t->slot);
        free(t);
        return NULL;
    }
    t->stats.memuse += (uint64_t)t->max_chunks * sizeof *t->chunk;
    while ((uint64_t)t->nrecords < cfg->prealloc && grow(t))
        ;
    return t;
}

void mon_flow_table_destroy(struct mon_flow_table *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i < t->nchunks; i++)
        free(t->chunk[i]);
    free(t->chunk);
    free(t->slot);
    free(t);
}

/* Take idx's slot out, shifting back each following slot of the run that may move into the
 * hole (its home is not cyclically within (hole, it]). */
static void slot_remove(struct mon_flow_table *t, uint32_t idx, uint32_t hash)
{
    uint32_t m = t->slot_mask, i = hash & m;
    while (t->slot[i].idx != idx)
        i = (i + 1) & m;
    for (uint32_t j = (i + 1) & m; t->slot[j].idx; j = (j + 1) & m) {
        uint32_t home = t->slot[j].hash & m;
        bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            t->slot[i] = t->slot[j];
            i = j;
        }
    }
    t->slot[i] = (struct flow_slot){0, 0};
}

static void slot_insert(struct mon_flow_table *t, uint32_t idx, uint32_t hash)
{
    uint32_t m = t->slot_mask, i = hash & m;
    while (t->slot[i].idx)
        i = (i + 1) & m;
    t->slot[i] = (struct flow_slot){hash, idx};
}

/* The flow of key k (hash h), 0 if none; *dir its direction. */
static uint32_t slot_find(const struct mon_flow_table *t, const struct flow_key *k, uint32_t h,
                          int *dir)
{
    uint32_t m = t->slot_mask;
    for (uint32_t i = h & m; t->slot[i].idx; i = (i + 1) & m) {
        if (t->slot[i].hash != h)
            continue;
        int d = flow_key_match(flow_at(t, t->slot[i].idx), k);
        if (d >= 0) {
            *dir = d;
            return t->slot[i].idx;
        }
    }
    return 0;
}

/* Take idx out of the hash table, report its end, and return the record to the pool. */
void flow_end(struct mon_flow_table *t, uint32_t idx, enum mon_flow_end why)
{
    struct mon_flow *f = flow_at(t, idx);
    slot_remove(t, idx, f->hash);
    flow_lru_remove(t, idx);
    f->end = (uint8_t)why;
    t->stats.ended[why]++;
    t->stats.active--;
    if (t->on_end)
        t->on_end(f, t->on_end_arg);
    memset(f, 0, sizeof *f);
    f->hnext = t->free_head;
    t->free_head = idx;
}

static uint32_t alloc_record(struct mon_flow_table *t)
{
    /* Charged state over the memcap: the least recently seen flows go (their state is freed
     * by their end callbacks), a few per new flow so that no packet pays for many. */
    for (int n = 0; n < 4 && t->stats.memuse + t->stats.charged > t->cfg.memcap; n++) {
        uint32_t victim = flow_oldest(t);
        if (!victim)
            break;
        t->stats.memcap_hits++;
        t->stats.charge_evictions++;
        flow_end(t, victim, MON_FLOW_END_EVICTED);
    }
    if (!t->free_head && !grow(t)) {
        /* Full: evict the flow seen least recently. Its end is reported like any other. */
        uint32_t victim = flow_oldest(t);
        if (!victim) {
            t->stats.alloc_fail++;
            return 0;
        }
        t->stats.memcap_hits++;
        flow_end(t, victim, MON_FLOW_END_EVICTED);
        /* A flood evicts at every new flow: fetch the next victim's slot now, so that its
         * removal does not wait on memory (its record, next on the list, is usually near). */
        uint32_t next = flow_oldest(t);
        if (next)
            __builtin_prefetch(&t->slot[flow_at(t, next)->hash & t->slot_mask], 1);
    }
    uint32_t idx = t->free_head;
    t->free_head = flow_at(t, idx)->hnext;
    return idx;
}

static void init_flow(struct mon_flow_table *t, struct mon_flow *f, const struct flow_key *k,
                      const struct mon_packet *p, uint32_t hash)
{
    /* A first TCP SYN+ACK comes from the server: the capture missed the SYN. A first data
     * segment may too: the orientation callback reads it (midstream pick-up). */
    bool reversed = p->proto == 6 && (p->tcp_flags & (MON_TH_SYN | MON_TH_ACK)) ==
                                         (MON_TH_SYN | MON_TH_ACK);
    if (!reversed && t->orient && p->proto == 6 && p->payload_len &&
        !(p->tcp_flags & (MON_TH_SYN | MON_TH_RST)))
        reversed = t->orient(p, t->orient_arg);
    f->cli = reversed ? k->dst : k->src;
    f->srv = reversed ? k->src : k->dst;
    f->cport = reversed ? k->dport : k->sport;
    f->sport = reversed ? k->sport : k->dport;
    f->proto = k->proto;
    f->ipver = k->ipver;
    f->hash = hash;
    f->id = ++t->next_id;
    f->first_us = f->last_us = p->ts_us;
    f->ntunnels = p->ntunnels < MON_FLOW_MAX_TUNNELS ? p->ntunnels : MON_FLOW_MAX_TUNNELS;
    memcpy(f->tunnel, p->tunnel, f->ntunnels);
    f->state = MON_FLOW_NEW;
    t->stats.created++;
    if (++t->stats.active > t->stats.active_peak)
        t->stats.active_peak = t->stats.active;
    switch (k->proto) {
    case 6: t->stats.tcp++; break;
    case 17: t->stats.udp++; break;
    case 1: case 58: t->stats.icmp++; break;
    default: t->stats.other++; break;
    }
}

void mon_flow_set_orient_cb(struct mon_flow_table *t, mon_flow_orient_fn fn, void *arg)
{
    t->orient = fn;
    t->orient_arg = arg;
}

struct mon_flow *mon_flow_find(struct mon_flow_table *t, const struct mon_packet *p, int *dir)
{
    struct flow_key k;
    if (!flow_key_from_packet(p, &k))
        return NULL;
    uint32_t idx = slot_find(t, &k, flow_key_hash(t, &k), dir);
    return idx ? flow_at(t, idx) : NULL;
}

struct mon_flow *mon_flow_handle(struct mon_flow_table *t, const struct mon_packet *p, int *dir)
{
    struct flow_key k;
    if (!flow_key_from_packet(p, &k)) {
        t->stats.no_l4++;
        return NULL;
    }
    uint32_t hash = flow_key_hash(t, &k);
    int d = -1;
    uint32_t idx = slot_find(t, &k, hash, &d);
    uint64_t now = mon_flow_clock(t, p->ts_us);
    if (idx && flow_idle_expired(t, flow_at(t, idx), now)) {
        /* Expiry runs in batches, so a flow can be past its timeout when its next packet
         * comes: that packet starts a new flow, as it would had expiry run just before. */
        flow_end(t, idx, MON_FLOW_END_TIMEOUT);
        idx = 0;
    }
    if (!idx) {
        idx = alloc_record(t); /* may end an evicted flow: its slot goes, others move */
        if (!idx)
            return NULL;
        struct mon_flow *f = flow_at(t, idx);
        init_flow(t, f, &k, p, hash);
        slot_insert(t, idx, hash);
        d = flow_key_match(f, &k);
        f->tclass = MON_TC__COUNT; /* not in a list yet */
    }
    flow_update_state(t, idx, p, d);
    *dir = d;
    return flow_at(t, idx);
}

void mon_flow_end_now(struct mon_flow_table *t, struct mon_flow *f, enum mon_flow_end why)
{
    /* records are not told their own index; a chunk scan is fine for this rare call */
    for (uint32_t c = 0; c < t->nchunks; c++) {
        struct mon_flow *base = t->chunk[c];
        if (f >= base && f < base + FLOW_CHUNK_SIZE) {
            flow_end(t, (c << FLOW_CHUNK_SHIFT) | (uint32_t)(f - base), why);
            return;
        }
    }
}

void mon_flow_charge(struct mon_flow_table *t, int64_t bytes)
{
    if (bytes < 0 && 0 - (uint64_t)bytes > t->stats.charged)
        t->stats.charged = 0; /* a refund larger than the charges: a caller's bug, not ours */
    else
        t->stats.charged += (uint64_t)bytes;
    if (t->stats.charged > t->stats.charged_peak)
        t->stats.charged_peak = t->stats.charged;
}

const struct mon_flow_stats *mon_flow_stats(const struct mon_flow_table *t)
{
    return &t->stats;
}
