/* plan_state.c — the plan functions of the keywords that are not units of the chain: they
 * change the rule's state at its commit or describe it (flowbits, xbits, hostbits, flowint,
 * threshold, detection_filter, noalert, alert), or have nothing to evaluate (msg, sid … and tag,
 * which compile.c starts when the rule alerts). */
#include <stdlib.h>
#include <string.h>

#include "opt_eval.h"
#include "plan.h"

int plan_meta(struct plan_ctx *ctx)
{
    (void)ctx;
    return 0;
}

int plan_threshold(struct plan_ctx *ctx) /* threshold, detection_filter */
{
    if ((ctx->pl->why = threshold_compile_check(ctx->o->arg)))
        return 0;
    ctx->pl->thr[ctx->name[0] == 'd'] = ctx->o->arg; /* the parser allows each once */
    return 0;
}

int plan_noalert(struct plan_ctx *ctx)
{
    ctx->pl->noalert = true; /* Suricata's keyword: match, change state, never alert */
    return 0;
}

int plan_alert(struct plan_ctx *ctx)
{
    /* Suricata 8's keyword: a pass rule alerts as well (its alert's action is "allowed");
     * every other action alerts anyway */
    ctx->pl->pass_alerts = true;
    return 0;
}

/* The bit of a flowbit name: names are numbered in order of first use, across all rules. */
static int bit_ids(struct osprey_detect *d, const struct opt_bits *b, uint32_t **out)
{
    uint32_t *ids = malloc((b->n ? b->n : 1) * sizeof *ids);
    if (!ids || det_own(d, ids) < 0)
        return -1;
    for (uint32_t i = 0; i < b->n; i++) {
        uint32_t k = 0;
        while (k < d->nbit_names && strcmp(d->bit_names[k], b->names[i]))
            k++;
        if (k == d->nbit_names) {
            if (d->nbit_names == d->cap_bit_names) {
                uint32_t cap = d->cap_bit_names ? d->cap_bit_names * 2 : 64;
                const char **n = realloc(d->bit_names, cap * sizeof *n);
                if (!n)
                    return -1;
                d->bit_names = n;
                d->cap_bit_names = cap;
            }
            d->bit_names[d->nbit_names++] = b->names[i];
        }
        ids[i] = k;
    }
    *out = ids;
    return 0;
}

/* flowbits / xbits: refuse what the compiler cannot run (0, pl->why set), note noalert (1 with
 * *ids NULL), else intern the bit names (1 with *ids set); -1 when out of memory. */
static int plan_bits(struct plan_ctx *ctx, const char *(*check)(const void *),
                     uint32_t **ids)
{
    const struct opt_bits *b = ctx->o->arg;
    *ids = NULL;
    if ((ctx->pl->why = check(b)))
        return 0;
    if (b->op == BITS_NOALERT) {
        ctx->pl->noalert = true;
        return 1;
    }
    return bit_ids(ctx->d, b, ids) < 0 ? -1 : 1;
}

int plan_flowbits(struct plan_ctx *ctx)
{
    const struct opt_bits *b = ctx->o->arg;
    struct plan *pl = ctx->pl;
    uint32_t *ids;
    int k = plan_bits(ctx, flowbits_compile_check, &ids);
    if (k <= 0 || !ids) /* (!ids: noalert) */
        return k < 0 ? -1 : 0;
    if (b->op == BITS_ISSET || b->op == BITS_ISNOTSET) {
        /* tested when the packet's matches are committed, after its setters */
        pl->conds[pl->nconds++] = (struct det_bits_action){b, ids};
    } else {
        pl->bits[pl->nbits++] = (struct det_bits_action){b, ids};
    }
    return 0;
}

int plan_xbits(struct plan_ctx *ctx) /* xbits, hostbits */
{
    const struct opt_bits *b = ctx->o->arg;
    uint32_t *ids;
    int k = plan_bits(ctx, xbits_compile_check, &ids);
    if (k <= 0 || !ids) /* (!ids: noalert) */
        return k < 0 ? -1 : 0;
    ctx->pl->xbits[ctx->pl->nxbits++] = (struct det_bits_action){b, ids};
    ctx->d->has_xbits = true;
    return 0;
}

/* The variable number of a flowint name (numbered in order of first use, across rules and
 * Lua scripts). */
int det_flowint_id(struct osprey_detect *d, const char *name, uint32_t *id)
{
    uint32_t k = 0;
    while (k < d->nint_names && strcmp(d->int_names[k], name))
        k++;
    if (k == d->nint_names) {
        if (d->nint_names == d->cap_int_names) {
            uint32_t cap = d->cap_int_names ? d->cap_int_names * 2 : 16;
            const char **n = realloc(d->int_names, cap * sizeof *n);
            if (!n)
                return -1;
            d->int_names = n;
            d->cap_int_names = cap;
        }
        d->int_names[d->nint_names++] = name;
    }
    *id = k;
    return 0;
}

int plan_flowint(struct plan_ctx *ctx)
{
    const struct opt_flowint *fi = ctx->o->arg;
    struct det_flowint x = {fi, 0, 0};
    if (det_flowint_id(ctx->d, fi->name, &x.id) < 0 ||
        (fi->value_var && det_flowint_id(ctx->d, fi->value_var, &x.value_id) < 0))
        return -1;
    ctx->pl->ints[ctx->pl->nints++] = x;
    return 0;
}
