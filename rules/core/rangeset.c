/* rangeset.c — union and difference of sorted range lists (see rangeset.h). */
#include "rangeset.h"

#include <stdlib.h>
#include <string.h>

int rset_add(struct arena *a, struct rset *s, u128 lo, u128 hi)
{
    if (s->n == s->cap) {
        /* Arena memory cannot grow in place; the old copy is scratch and goes with the rule. */
        uint32_t cap = s->cap ? s->cap * 2 : 8;
        struct osprey_ip_range *r = arena_alloc(a, cap * sizeof *r);
        if (r == NULL)
            return -1;
        if (s->n)
            memcpy(r, s->r, s->n * sizeof *r);
        s->r = r;
        s->cap = cap;
    }
    s->r[s->n].lo = lo;
    s->r[s->n].hi = hi;
    s->n++;
    return 0;
}

static int by_lo(const void *x, const void *y)
{
    const struct osprey_ip_range *a = x, *b = y;
    return u128_cmp(a->lo, b->lo);
}

void rset_normalize(struct rset *s)
{
    if (s->n < 2)
        return;
    qsort(s->r, s->n, sizeof *s->r, by_lo);
    uint32_t w = 0;
    for (uint32_t i = 1; i < s->n; i++) {
        struct osprey_ip_range *cur = &s->r[w];
        const struct osprey_ip_range *nx = &s->r[i];
        /* Adjacent ranges merge too: [1,5] and [6,9] are [1,9]. */
        if (u128_is_max(cur->hi) || u128_cmp(nx->lo, u128_inc(cur->hi)) <= 0) {
            if (u128_cmp(nx->hi, cur->hi) > 0)
                cur->hi = nx->hi;
        } else {
            s->r[++w] = *nx;
        }
    }
    s->n = w + 1;
}

int rset_union(struct arena *ar, const struct rset *a, const struct rset *b, struct rset *out)
{
    struct rset s = {0};
    for (uint32_t i = 0; i < a->n; i++)
        if (rset_add(ar, &s, a->r[i].lo, a->r[i].hi) < 0)
            return -1;
    for (uint32_t i = 0; i < b->n; i++)
        if (rset_add(ar, &s, b->r[i].lo, b->r[i].hi) < 0)
            return -1;
    rset_normalize(&s);
    *out = s;
    return 0;
}

int rset_subtract(struct arena *ar, const struct rset *a, const struct rset *b, struct rset *out)
{
    struct rset s = {0};
    uint32_t j = 0;
    for (uint32_t i = 0; i < a->n; i++) {
        u128 lo = a->r[i].lo, hi = a->r[i].hi;
        bool empty = false;
        /* Skip b's ranges wholly below this one; they cannot cut later ones either. */
        while (j < b->n && u128_cmp(b->r[j].hi, lo) < 0)
            j++;
        for (uint32_t k = j; k < b->n && u128_cmp(b->r[k].lo, hi) <= 0; k++) {
            if (u128_cmp(b->r[k].lo, lo) > 0 &&
                rset_add(ar, &s, lo, u128_dec(b->r[k].lo)) < 0)
                return -1;
            if (u128_cmp(b->r[k].hi, hi) >= 0) {
                empty = true;
                break;
            }
            lo = u128_inc(b->r[k].hi);
        }
        if (!empty && rset_add(ar, &s, lo, hi) < 0)
            return -1;
    }
    *out = s;
    return 0;
}

int rset_full(struct arena *ar, struct rset *s, u128 lo, u128 hi)
{
    memset(s, 0, sizeof *s);
    return rset_add(ar, s, lo, hi);
}
