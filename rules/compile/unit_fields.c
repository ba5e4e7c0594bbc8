/* unit_fields.c — units on the parsers' fields beyond one comparison on any element:
 *
 * - field_index (ldap.responses.operation, .result_code, ldap.responses.count): a list field
 *   read by position — any element, all of them, the one at an index (from the first, or
 *   from the last when negative), or the number of elements. Its list grows by one element
 *   per event it runs under (LDAP: one per response), and Suricata matches a transaction
 *   once, at the first packet where it holds: the unit holds when the list with its newest
 *   element matches and the list without it did not.
 * - krb5_enc (krb5.ticket_encryption): a reply's ticket encryption type is weak (or not), or
 *   one of a list.
 * - field_set (sip_method, sip_stat_code): a field's value in one of a few ranges, or (negated)
 *   in none; absent: no match. */
#include "detect_int.h"
#include "intern.h"
#include "opt_eval.h"
#include "osprey_parsers.h"

#define FIDX_MAX 256 /* elements read (LDAP keeps 64 responses per transaction) */

/* Does x hold on the first n elements e[0..n) (negative: absent)? */
static bool fidx_holds(const struct opt_field_index *x, const int64_t *e, uint32_t n)
{
    if (x->mode == FIDX_COUNT)
        return cmp_match(&x->cm, n);
    int64_t v[FIDX_MAX];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (e[i] >= 0)
            v[k++] = e[i];
    switch (x->mode) {
    case FIDX_ANY:
        for (uint32_t i = 0; i < k; i++)
            if (cmp_match(&x->cm, v[i]))
                return true;
        return false;
    case FIDX_ALL:
        for (uint32_t i = 0; i < k; i++)
            if (!cmp_match(&x->cm, v[i]))
                return false;
        return k > 0;
    default: { /* FIDX_AT */
        int64_t at = x->index >= 0 ? x->index : (int64_t)k + x->index;
        return at >= 0 && at < k && cmp_match(&x->cm, v[at]);
    }
    }
}

static bool fidx_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                      int side)
{
    (void)side;
    const struct opt_field_index *x = u->fidx;
    if (!f)
        return false;
    int64_t e[FIDX_MAX];
    uint32_t n = 0;
    if (x->mode == FIDX_COUNT) { /* the count field itself: its value is n */
        int64_t c;
        if (!osprey_parsers_field_at(ctx, f, (uint16_t)x->field, 0, &c) || c < 1)
            return false;
        return cmp_match(&x->cm, c) && !cmp_match(&x->cm, c - 1);
    }
    while (n < FIDX_MAX && osprey_parsers_field_at(ctx, f, (uint16_t)x->field, n, &e[n]))
        n++;
    return n > 0 && fidx_holds(x, e, n) && !fidx_holds(x, e, n - 1);
}

static void fidx_key(struct buf *k, const struct det_unit *u)
{
    const struct opt_field_index *x = u->fidx;
    buf_put(k, &x->field, sizeof x->field);
    buf_put(k, &x->mode, sizeof x->mode);
    buf_put(k, &x->index, sizeof x->index);
    buf_put(k, &x->cm.op, sizeof x->cm.op);
    buf_put(k, &x->cm.lo, sizeof x->cm.lo);
    buf_put(k, &x->cm.hi, sizeof x->cm.hi);
}

const struct det_unit_ops det_unit_field_index = {
    .name = "parsers field by index", .eval = fidx_eval, .key = fidx_key};

static bool kenc_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                      int side)
{
    (void)side;
    const struct opt_krb5_enc *x = u->kenc;
    int64_t e, weak;
    if (!f || !osprey_parsers_field_at(ctx, f, (uint16_t)x->field, 0, &e))
        return false;
    if (x->weak >= 0 && osprey_parsers_field_at(ctx, f, (uint16_t)x->weak_field, 0, &weak) &&
        (weak != 0) == (x->weak != 0))
        return true;
    for (uint32_t i = 0; i < x->n; i++)
        if (x->etype[i] == e)
            return true;
    return false;
}

static void kenc_key(struct buf *k, const struct det_unit *u)
{
    const struct opt_krb5_enc *x = u->kenc;
    buf_put(k, &x->field, sizeof x->field);
    buf_put(k, &x->weak_field, sizeof x->weak_field);
    buf_put(k, &x->weak, sizeof x->weak);
    buf_put(k, &x->n, sizeof x->n);
    buf_put(k, x->etype, x->n * sizeof x->etype[0]);
}

const struct det_unit_ops det_unit_krb5_enc = {
    .name = "krb5 ticket encryption", .eval = kenc_eval, .key = kenc_key};

static bool fset_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                      int side)
{
    (void)side;
    const struct opt_field_set *x = u->fset;
    int64_t v;
    if (!f || x->field < 0 || !osprey_parsers_field_at(ctx, f, (uint16_t)x->field, 0, &v))
        return false;
    for (uint32_t i = 0; i < x->n; i++)
        if (v >= x->r[i].lo && v <= x->r[i].hi)
            return !x->neg;
    return x->neg;
}

static void fset_key(struct buf *k, const struct det_unit *u)
{
    const struct opt_field_set *x = u->fset;
    buf_put(k, &x->field, sizeof x->field);
    buf_put(k, &x->neg, sizeof x->neg);
    buf_put(k, &x->n, sizeof x->n);
    buf_put(k, x->r, x->n * sizeof x->r[0]);
}

const struct det_unit_ops det_unit_field_set = {
    .name = "parsers field in a set", .eval = fset_eval, .key = fset_key};
