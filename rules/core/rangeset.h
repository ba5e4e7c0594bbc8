/* rangeset.h — sets of 128-bit numbers as sorted ranges: the algebra behind addresses and ports.
 *
 * Why one type for both: an address expression and a port expression have the same grammar
 * (lists, negation, variables) and the same meaning (union of the positives minus the union of
 * the negatives), so both are evaluated over 128-bit values — a port p is the value p.
 * Vectors live in an arena (the per-rule scratch arena while evaluating).
 */
#ifndef RULES_RANGESET_H
#define RULES_RANGESET_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "osprey_rules.h"

typedef struct osprey_ip u128;

struct rset {
    struct osprey_ip_range *r;
    uint32_t n, cap;
};

static inline int u128_cmp(u128 a, u128 b)
{
    if (a.hi != b.hi)
        return a.hi < b.hi ? -1 : 1;
    if (a.lo != b.lo)
        return a.lo < b.lo ? -1 : 1;
    return 0;
}

static inline u128 u128_inc(u128 a)
{
    if (++a.lo == 0)
        a.hi++;
    return a;
}

static inline u128 u128_dec(u128 a)
{
    if (a.lo-- == 0)
        a.hi--;
    return a;
}

static inline bool u128_is_max(u128 a)
{
    return a.hi == UINT64_MAX && a.lo == UINT64_MAX;
}

/* Append [lo, hi] (lo <= hi) unnormalised. -1 when out of memory. */
int rset_add(struct arena *a, struct rset *s, u128 lo, u128 hi);
/* Sort and merge overlapping or adjacent ranges. */
void rset_normalize(struct rset *s);
/* out = a ∪ b, out = a − b (inputs normalised, output normalised). */
int rset_union(struct arena *ar, const struct rset *a, const struct rset *b, struct rset *out);
int rset_subtract(struct arena *ar, const struct rset *a, const struct rset *b, struct rset *out);
/* Whole-space set [lo, hi]. */
int rset_full(struct arena *ar, struct rset *s, u128 lo, u128 hi);

#endif
