/* threshold.c — the table behind threshold, detection_filter and rate_filter.
 *
 * Keyed by (rule, which option, tracked key: source, destination, both, the flow or nothing).
 * Fixed size, allocated with the compiled rules: no allocation on the packet path. A full
 * neighbourhood evicts its oldest entry, which at worst lets one more alert through. One
 * table for all workers, as Suricata's: a source's SYNs spread over the workers by flow hash
 * still count together. A mutex guards it; it is taken only for a match of a rule that has a
 * threshold, never per packet. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"
#include "opt_eval.h"

#define THR_SLOTS 65536u /* power of two */
#define THR_PROBE 16u

struct thr_entry_rt {
    uint64_t hash;           /* 0 = empty */
    uint8_t key[40];
    struct thr_state st;
};

struct det_thr_table {
    pthread_mutex_t lock;
    struct thr_entry_rt e[THR_SLOTS];
};

struct det_thr_table *det_thr_create(void)
{
    struct det_thr_table *t = calloc(1, sizeof *t);
    if (t && pthread_mutex_init(&t->lock, NULL) != 0) {
        free(t);
        return NULL;
    }
    return t;
}

void det_thr_free(struct det_thr_table *t)
{
    if (!t)
        return;
    pthread_mutex_destroy(&t->lock);
    free(t);
}

static uint64_t hash(const uint8_t *k, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ k[i]) * 1099511628211ull;
    return h | 1; /* never 0: 0 marks a free slot */
}

static struct thr_state *lookup(struct det_thr_table *t, const uint8_t *key)
{
    uint64_t h = hash(key, 40);
    struct thr_entry_rt *oldest = NULL;
    for (uint32_t i = 0; i < THR_PROBE; i++) {
        struct thr_entry_rt *e = &t->e[(h + i) & (THR_SLOTS - 1)];
        if (e->hash == h && !memcmp(e->key, key, 40))
            return &e->st;
        if (e->hash == 0 || !oldest || (oldest->hash && e->st.start_us < oldest->st.start_us))
            oldest = e;
        if (e->hash == 0)
            break;
    }
    oldest->hash = h;
    memcpy(oldest->key, key, 40);
    memset(&oldest->st, 0, sizeof oldest->st);
    return &oldest->st;
}

/* The table key of (rule, option k, the tracked addresses or flow). */
static void make_key(uint8_t key[40], const struct det_rule *dr, uint8_t k, uint8_t track,
                     const struct mon_packet *p, const struct mon_flow *f)
{
    memset(key, 0, 40);
    memcpy(key, &dr->rule_idx, 4); /* a rule's two chains count together */
    key[4] = k;
    switch (track) {
    case THR_BY_SRC: memcpy(key + 8, p->src.b, 16); break;
    case THR_BY_DST: memcpy(key + 8, p->dst.b, 16); break;
    case THR_BY_BOTH:
        memcpy(key + 8, p->src.b, 16);
        memcpy(key + 24, p->dst.b, 16);
        break;
    case THR_BY_FLOW:
        if (f)
            memcpy(key + 8, &f->id, sizeof f->id);
        break;
    default: break; /* by_rule: one counter */
    }
}

enum osprey_rule_action det_rate_action(struct det_thr_table *t, const struct det_rule *dr,
                                        const struct mon_packet *p, const struct mon_flow *f)
{
    const struct det_rate *r = dr->rate;
    if (!r || !t || !p)
        return dr->rule->action;
    uint8_t key[40];
    make_key(key, dr, 2, r->track, p, f);
    enum osprey_rule_action act = dr->rule->action;
    pthread_mutex_lock(&t->lock);
    struct thr_state *st = lookup(t, key);
    uint64_t now = p->ts_us;
    if (st->since_us && now - st->since_us <= (uint64_t)r->timeout * 1000000u) {
        act = r->new_action; /* still within the timeout */
    } else {
        st->since_us = 0;
        if (st->count && now - st->start_us < (uint64_t)r->seconds * 1000000u) {
            if (++st->count > r->count) {
                st->since_us = now ? now : 1;
                act = r->new_action;
            }
        } else {
            st->start_us = now;
            st->count = 1;
        }
    }
    pthread_mutex_unlock(&t->lock);
    return act;
}

bool det_thr_allow(struct det_thr_table *t, const struct det_rule *dr,
                   const struct mon_packet *p, const struct mon_flow *f)
{
    bool ok = true;
    for (uint32_t k = 0; k < 2; k++) {
        const struct opt_threshold *th = dr->thr[k];
        if (!th || !t)
            continue;
        uint8_t key[40];
        make_key(key, dr, (uint8_t)k, th->track, p, f);
        /* every option counts the event, even when an earlier one already suppressed it */
        pthread_mutex_lock(&t->lock);
        ok &= threshold_event(th, lookup(t, key), p->ts_us);
        pthread_mutex_unlock(&t->lock);
    }
    return ok;
}
