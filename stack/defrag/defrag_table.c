/* defrag_table.c — the tracker hash table, the age list and timeouts.
 *
 * Trackers hang off a chained hash table keyed with SipHash under a per-defragmenter random
 * key: fragment keys (addresses, IP id) are chosen by the sender, so a predictable hash would
 * let an attacker pile every tracker into one chain. The age list holds trackers in creation
 * order, so expiry only looks at the oldest ones.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "defrag_internal.h"
#include "siphash_internal.h"

static uint32_t pow2_at_least(uint32_t n)
{
    uint32_t v = 1;
    while (v < n && v < (1u << 30))
        v <<= 1;
    return v;
}

bool df_table_init(struct mon_defrag *df)
{
    uint32_t want = df->cfg.max_trackers / 2;
    if (want < 256)
        want = 256;
    if (want > (1u << 20))
        want = 1u << 20;
    df->nbuckets = pow2_at_least(want);
    df->buckets = calloc(df->nbuckets, sizeof *df->buckets);
    if (!df->buckets)
        return false;
    if (getrandom(df->hash_key, sizeof df->hash_key, GRND_NONBLOCK) != sizeof df->hash_key) {
        /* No entropy yet (early boot): fall back to something that differs per process
         * rather than fail; the table still works, it is only less flood-resistant. */
        df->hash_key[0] = (uint64_t)(uintptr_t)df ^ 0x9e3779b97f4a7c15ull;
        df->hash_key[1] = (uint64_t)(uintptr_t)df->buckets ^ 0xc2b2ae3d27d4eb4full;
    }
    return true;
}

static void tracker_free(struct df_tracker *t)
{
    free(t->frags);
    free(t->pieces);
    free(t);
}

void df_table_fini(struct mon_defrag *df)
{
    while (df->oldest)
        df_tracker_drop(df, df->oldest);
    while (df->spare_trackers) {
        struct df_tracker *t = df->spare_trackers;
        df->spare_trackers = t->hnext;
        tracker_free(t);
    }
    df->nspare_trackers = 0;
    free(df->buckets);
    df->buckets = NULL;
}

uint32_t df_key_hash(const struct mon_defrag *df, const struct df_key *k)
{
    uint64_t h = mon_siphash24(df->hash_key, k, sizeof *k);
    return (uint32_t)(h ^ (h >> 32));
}

struct df_tracker *df_tracker_find(struct mon_defrag *df, const struct df_key *k, uint32_t h)
{
    for (struct df_tracker *t = df->buckets[h & (df->nbuckets - 1)]; t; t = t->hnext)
        if (t->hash == h && memcmp(&t->key, k, sizeof *k) == 0)
            return t;
    return NULL;
}

bool df_tracker_stale(const struct mon_defrag *df, const struct df_tracker *t, uint64_t now_us)
{
    uint64_t limit = (uint64_t)df->cfg.timeout_s * 1000000u;
    return now_us > t->first_ts_us && now_us - t->first_ts_us > limit;
}

void df_expire_some(struct mon_defrag *df, uint64_t now_us, uint32_t max,
                    struct mon_decode_stats *st)
{
    /* Creation order is timestamp order for a capture read in order; when timestamps step
     * back, a younger tracker may sit before an older one and the older waits its turn. */
    uint32_t n = 0;
    while (df->oldest && df_tracker_stale(df, df->oldest, now_us) && (max == 0 || n < max)) {
        df_tracker_drop(df, df->oldest);
        df->stats.timeouts++;
        df_event(st, MON_DE_FRAG_TIMEOUT);
        n++;
    }
}

static size_t tracker_charge(const struct df_tracker *t)
{
    return sizeof *t + (size_t)t->frags_cap * sizeof *t->frags +
           (size_t)t->pieces_cap * sizeof *t->pieces;
}

struct df_tracker *df_tracker_new(struct mon_defrag *df, const struct df_key *k, uint32_t h,
                                  uint64_t ts_us)
{
    struct df_tracker *t = df->spare_trackers;
    size_t charge = t ? tracker_charge(t) : sizeof *t;
    if (df->stats.trackers_active >= df->cfg.max_trackers || !df_mem_fits(df, charge, true))
        return NULL;
    if (t) {
        df->spare_trackers = t->hnext;
        df->nspare_trackers--;
    } else {
        t = calloc(1, sizeof *t);
        if (!t)
            return NULL;
    }
    t->key = *k;
    t->hash = h;
    t->first_ts_us = ts_us;
    t->policy = (uint8_t)mon_policy_lookup(&df->cfg.policy, k->ipver, &k->dst);
    t->seen_last = false;
    t->end = 0;
    t->nseen = 0;
    t->nfrags = 0;
    t->npieces = 0;
    t->mem = 0;
    df_mem_add(df, t, charge);

    struct df_tracker **b = &df->buckets[h & (df->nbuckets - 1)];
    t->hnext = *b;
    *b = t;
    t->older = df->newest;
    t->newer = NULL;
    if (df->newest)
        df->newest->newer = t;
    else
        df->oldest = t;
    df->newest = t;
    df->stats.trackers_active++;
    return t;
}

void df_tracker_drop(struct mon_defrag *df, struct df_tracker *t)
{
    struct df_tracker **pp = &df->buckets[t->hash & (df->nbuckets - 1)];
    while (*pp != t)
        pp = &(*pp)->hnext;
    *pp = t->hnext;
    if (t->older)
        t->older->newer = t->newer;
    else
        df->oldest = t->newer;
    if (t->newer)
        t->newer->older = t->older;
    else
        df->newest = t->older;

    for (uint32_t i = 0; i < t->nfrags; i++) {
        if (t->frags[i]) {
            df_mem_sub(df, t, df_block_charge(t->frags[i]));
            df_block_put(df, t->frags[i]);
        }
    }
    df_mem_sub(df, t, t->mem); /* the tracker itself and its arrays */
    df->stats.trackers_active--;

    if (df->nspare_trackers < DF_TRACKER_SPARE_MAX) {
        t->hnext = df->spare_trackers;
        df->spare_trackers = t;
        df->nspare_trackers++;
    } else {
        tracker_free(t);
    }
}
