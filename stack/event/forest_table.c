/* forest_table.c — a context's live forests: found by 128-bit id in O(1), shared, counted.
 *
 * mOS §4.2: a flow (or passive socket) holds a pointer to its forest. Registering or
 * deregistering one pair computes the new id as old ^ h(pair) and looks it up; only when no
 * live forest has that id is one built. A forest is never modified once built, so a flow that
 * changes never disturbs the others sharing its old forest (nor a walk in progress on it).
 * When the last reference goes, the forest is freed. The empty forest is built with the
 * table and cached for its lifetime (the table's own reference).
 *
 * Buckets are chained through the forest header (no extra allocation per entry) and doubled
 * when the table holds more forests than buckets. */
#include <stdlib.h>

#include "event_internal.h"

struct ev_forests {
    const struct ev_registry *reg;
    struct ev_forest **bucket;
    uint32_t mask;
    struct ev_forest *empty;
    struct ev_fpair *scratch;  /* pair lists being assembled for a build */
    uint32_t scratch_cap;
    uint64_t alive, created, bytes;
};

static uint32_t bucket_of(const struct ev_forests *fs, struct ev_id id)
{
    return (uint32_t)(id.a ^ (id.a >> 32)) & fs->mask;
}

static struct ev_forest *lookup(const struct ev_forests *fs, struct ev_id id, uint32_t npairs)
{
    for (struct ev_forest *f = fs->bucket[bucket_of(fs, id)]; f; f = f->next)
        if (ev_id_eq(f->id, id) && f->npairs == npairs)
            return f;
    return NULL;
}

static void grow_buckets(struct ev_forests *fs)
{
    uint32_t nsize = (fs->mask + 1) * 2;
    struct ev_forest **nb = calloc(nsize, sizeof *nb);
    if (!nb)
        return;  /* longer chains, still correct */
    uint32_t omask = fs->mask;
    struct ev_forest **ob = fs->bucket;
    fs->bucket = nb;
    fs->mask = nsize - 1;
    for (uint32_t i = 0; i <= omask; i++) {
        for (struct ev_forest *f = ob[i], *nx; f; f = nx) {
            nx = f->next;
            uint32_t j = bucket_of(fs, f->id);
            f->next = nb[j];
            nb[j] = f;
        }
    }
    free(ob);
}

/* Build from a pair list in registration order, and publish with one reference. */
static int build_and_insert(struct ev_forests *fs, const struct ev_fpair *pairs, uint32_t n,
                            struct ev_id id, struct ev_forest **out)
{
    struct ev_forest *f;
    int err = forest_build(fs->reg, pairs, n, id, &f);
    if (err)
        return err;
    if (fs->alive + 1 > (uint64_t)fs->mask + 1)
        grow_buckets(fs);
    uint32_t j = bucket_of(fs, id);
    f->next = fs->bucket[j];
    fs->bucket[j] = f;
    f->refs = 1;
    fs->alive++;
    fs->created++;
    fs->bytes += f->bytes;
    *out = f;
    return MON_OK;
}

static void unpublish_and_free(struct ev_forests *fs, struct ev_forest *f)
{
    struct ev_forest **pp = &fs->bucket[bucket_of(fs, f->id)];
    while (*pp && *pp != f)
        pp = &(*pp)->next;
    if (*pp)
        *pp = f->next;
    fs->alive--;
    fs->bytes -= f->bytes;
    free(f);
}

static int scratch_reserve(struct ev_forests *fs, uint32_t n)
{
    if (n <= fs->scratch_cap)
        return MON_OK;
    uint32_t cap = fs->scratch_cap ? fs->scratch_cap : 16;
    while (cap < n)
        cap *= 2;
    struct ev_fpair *s = realloc(fs->scratch, (size_t)cap * sizeof *s);
    if (!s)
        return MON_ENOMEM;
    fs->scratch = s;
    fs->scratch_cap = cap;
    return MON_OK;
}

struct ev_forests *ev_forests_create(const struct ev_registry *r)
{
    if (!r)
        return NULL;
    struct ev_forests *fs = calloc(1, sizeof *fs);
    if (!fs)
        return NULL;
    fs->reg = r;
    fs->mask = 63;
    fs->bucket = calloc(fs->mask + 1, sizeof *fs->bucket);
    if (!fs->bucket || build_and_insert(fs, NULL, 0, (struct ev_id){0, 0}, &fs->empty)) {
        ev_forests_destroy(fs);
        return NULL;
    }
    return fs;
}

void ev_forests_destroy(struct ev_forests *fs)
{
    if (!fs)
        return;
    if (fs->bucket) {
        for (uint32_t i = 0; i <= fs->mask; i++) {
            for (struct ev_forest *f = fs->bucket[i], *nx; f; f = nx) {
                nx = f->next;
                free(f);
            }
        }
    }
    free(fs->bucket);
    free(fs->scratch);
    free(fs);
}

struct ev_forest *ev_forest_empty(struct ev_forests *fs)
{
    fs->empty->refs++;
    return fs->empty;
}

void ev_forest_retain(struct ev_forest *f)
{
    if (f)
        f->refs++;
}

void ev_forest_release(struct ev_forests *fs, struct ev_forest *f)
{
    if (!f || !f->refs)
        return;
    if (--f->refs == 0)
        unpublish_and_free(fs, f);  /* never the empty forest: the table holds one */
}

static int check_pair(const struct ev_forests *fs, const struct ev_pair *p)
{
    if (!p || !p->handler || p->hook > MON_HK_RCV)
        return MON_EINVAL;
    if (!ev_exists(fs->reg, p->ev))
        return MON_ENOENT;
    return MON_OK;
}

int ev_forest_change(struct ev_forests *fs, struct ev_forest *from, const struct ev_pair *pair,
                     bool add, struct ev_forest **out)
{
    if (!fs || !from || !out)
        return MON_EINVAL;
    int err = check_pair(fs, pair);
    if (err)
        return err;
    struct ev_id pid = ev_pair_id(pair);
    int32_t at = forest_find_pair(from, pair, pid);
    if (add == (at >= 0))
        return MON_EINVAL;  /* adding a pair already there, or removing one that is not */

    struct ev_id nid = ev_id_xor(from->id, pid);
    uint32_t n = add ? from->npairs + 1 : from->npairs - 1;
    struct ev_forest *f = lookup(fs, nid, n);
    if (f) {  /* the common case: O(1) */
        f->refs++;
        *out = f;
        return MON_OK;
    }

    if (scratch_reserve(fs, n))
        return MON_ENOMEM;
    /* add appends (registration order); remove keeps the others' order */
    struct ev_fpair *s = fs->scratch;
    uint32_t k = 0;
    for (uint32_t i = 0; i < from->npairs; i++)
        if ((int32_t)i != at)
            s[k++] = from->pair[i];
    if (add)
        s[k++] = (struct ev_fpair){*pair, pid};
    return build_and_insert(fs, s, n, nid, out);
}

int ev_forest_union(struct ev_forests *fs, struct ev_forest *a, struct ev_forest *b,
                    struct ev_forest **out)
{
    if (!fs || !a || !b || !out)
        return MON_EINVAL;
    if (a == b || b->npairs == 0 || a->npairs == 0) {
        struct ev_forest *f = a->npairs ? a : b;
        f->refs++;
        *out = f;
        return MON_OK;
    }
    if (scratch_reserve(fs, a->npairs + b->npairs))
        return MON_ENOMEM;
    /* a's pairs, then b's that a lacks: O(|a| + |b|) with a's membership index */
    struct ev_fpair *s = fs->scratch;
    struct ev_id id = a->id;
    uint32_t k = 0;
    for (uint32_t i = 0; i < a->npairs; i++)
        s[k++] = a->pair[i];
    for (uint32_t j = 0; j < b->npairs; j++) {
        if (forest_find_pair(a, &b->pair[j].p, b->pair[j].id) >= 0)
            continue;
        s[k++] = b->pair[j];
        id = ev_id_xor(id, b->pair[j].id);
    }
    struct ev_forest *f = lookup(fs, id, k);
    if (f) {
        f->refs++;
        *out = f;
        return MON_OK;
    }
    return build_and_insert(fs, s, k, id, out);
}

int ev_forest_from_pairs(struct ev_forests *fs, const struct ev_pair *pairs, size_t n,
                         struct ev_forest **out)
{
    if (!fs || !out || (n && !pairs) || n >= UINT32_MAX)
        return MON_EINVAL;
    int err = scratch_reserve(fs, (uint32_t)n);
    if (err)
        return err;
    struct ev_fpair *s = fs->scratch;
    struct ev_id id = {0, 0};
    for (size_t i = 0; i < n; i++) {
        if ((err = check_pair(fs, &pairs[i])))
            return err;
        s[i] = (struct ev_fpair){pairs[i], ev_pair_id(&pairs[i])};
        id = ev_id_xor(id, s[i].id);
    }
    /* a duplicate cancels out of the XOR, but then the pair count differs: no false hit */
    struct ev_forest *f = lookup(fs, id, (uint32_t)n);
    if (f) {
        f->refs++;
        *out = f;
        return MON_OK;
    }
    return build_and_insert(fs, s, (uint32_t)n, id, out);  /* MON_EINVAL on a duplicate */
}

size_t ev_forest_npairs(const struct ev_forest *f)
{
    return f ? f->npairs : 0;
}

uint32_t ev_forest_roots(const struct ev_forest *f, int hook)
{
    return f && (hook == MON_HK_SND || hook == MON_HK_RCV) ? f->roots[hook] : 0;
}

uint32_t ev_forest_refs(const struct ev_forest *f)
{
    return f ? f->refs : 0;
}

size_t ev_forest_nodes(const struct ev_forest *f, int hook)
{
    return f && (hook == MON_HK_SND || hook == MON_HK_RCV) ? f->hook_nodes[hook] : 0;
}

bool ev_forest_has(const struct ev_forest *f, const struct ev_pair *pair)
{
    return f && pair && forest_find_pair(f, pair, ev_pair_id(pair)) >= 0;
}

void ev_forests_stats(const struct ev_forests *fs, struct ev_forest_stats *out)
{
    out->alive = fs->alive;
    out->created = fs->created;
    out->bytes = fs->bytes;
}
