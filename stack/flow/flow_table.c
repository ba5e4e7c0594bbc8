/* flow_table.c — record pool, hash chains and the per-packet lookup. */
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
    /* hash-size is a floor: at least one bucket per two records the memcap allows, so chains
     * stay short however full the table gets (a SYN flood filled 65,536 buckets with 500k
     * flows: lookups and unlinks walked chains of eight, and time grew with the square) */
    uint64_t fill = cfg->memcap / (2 * sizeof(struct mon_flow) + sizeof(uint32_t));
    uint32_t want = cfg->hash_size ? cfg->hash_size : 1;
    if (fill > want)
        want = fill > (1u << 26) ? 1u << 26 : (uint32_t)fill;
    uint32_t nb = pow2_at_least(want);
    t->bucket = calloc(nb, sizeof *t->bucket);
    if (!t->bucket) {
        free(t);
        return NULL;
    }
    t->bucket_mask = nb - 1;
    t->stats.memuse = (uint64_t)nb * sizeof *t->bucket;

    uint64_t room = cfg->memcap > t->stats.memuse ? cfg->memcap - t->stats.memuse : 0;
    uint64_t maxr = room / sizeof(struct mon_flow);
    if (maxr > 0xfffffff0u)
        maxr = 0xfffffff0u;
    t->max_records = (uint32_t)maxr;
    t->stats.max_flows = maxr;
    /* chunk count rounds down so records + buckets never exceed the memcap */
    t->max_chunks = (uint32_t)(room / ((uint64_t)FLOW_CHUNK_SIZE * sizeof(struct mon_flow)));
    if (t->max_chunks == 0 && maxr > 0)
        t->max_chunks = 1; /* tiny memcaps still get one (partly used) chunk */
    if (t->max_chunks * (uint64_t)FLOW_CHUNK_SIZE - 1 < maxr) {
        t->max_records = t->max_chunks * FLOW_CHUNK_SIZE - 1;
        t->stats.max_flows = t->max_records;
    }
    t->chunk = calloc(t->max_chunks ? t->max_chunks : 1, sizeof *t->chunk);
    if (!t->chunk) {
        free(t->bucket);
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
    free(t->bucket);
    free(t);
}

/* Unlink idx from its hash chain, report its end, and return the record to the pool. */
void flow_end(struct mon_flow_table *t, uint32_t idx, enum mon_flow_end why)
{
    struct mon_flow *f = flow_at(t, idx);
    uint32_t *link = &t->bucket[f->hash & t->bucket_mask];
    while (*link != idx)
        link = &flow_at(t, *link)->hnext;
    *link = f->hnext;
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
    if (!t->free_head && !grow(t)) {
        /* Full: evict the flow seen least recently. Its end is reported like any other. */
        uint32_t victim = flow_oldest(t);
        if (!victim) {
            t->stats.alloc_fail++;
            return 0;
        }
        t->stats.memcap_hits++;
        flow_end(t, victim, MON_FLOW_END_EVICTED);
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
    uint32_t hash = flow_key_hash(t, &k);
    for (uint32_t idx = t->bucket[hash & t->bucket_mask]; idx; idx = flow_at(t, idx)->hnext) {
        struct mon_flow *f = flow_at(t, idx);
        int d;
        if (f->hash == hash && (d = flow_key_match(f, &k)) >= 0) {
            *dir = d;
            return f;
        }
    }
    return NULL;
}

struct mon_flow *mon_flow_handle(struct mon_flow_table *t, const struct mon_packet *p, int *dir)
{
    struct flow_key k;
    if (!flow_key_from_packet(p, &k)) {
        t->stats.no_l4++;
        return NULL;
    }
    uint32_t hash = flow_key_hash(t, &k);
    uint32_t *head = &t->bucket[hash & t->bucket_mask];
    uint32_t idx = *head;
    int d = -1;
    for (; idx; idx = flow_at(t, idx)->hnext) {
        struct mon_flow *f = flow_at(t, idx);
        if (f->hash == hash && (d = flow_key_match(f, &k)) >= 0)
            break;
    }
    uint64_t now = mon_flow_clock(t, p->ts_us);
    if (idx && flow_idle_expired(t, flow_at(t, idx), now)) {
        /* Expiry runs in batches, so a flow can be past its timeout when its next packet
         * comes: that packet starts a new flow, as it would had expiry run just before. */
        flow_end(t, idx, MON_FLOW_END_TIMEOUT);
        idx = 0;
    }
    if (!idx) {
        idx = alloc_record(t);
        if (!idx)
            return NULL;
        head = &t->bucket[hash & t->bucket_mask]; /* eviction may have changed the chain */
        struct mon_flow *f = flow_at(t, idx);
        init_flow(t, f, &k, p, hash);
        f->hnext = *head;
        *head = idx;
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

const struct mon_flow_stats *mon_flow_stats(const struct mon_flow_table *t)
{
    return &t->stats;
}
