/* plan_payload.c — the plan functions of the payload options (content, pcre, isdataat,
 * entropy, base64_decode, byte_*, asn1): each becomes an item of a payload run (struct
 * det_pitem); a relative one joins the run before it, and so does every option of a rule
 * with byte variables, a multi-buffer's list, base64_data's options. */
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "opt_eval.h"
#include "pkt_units.h"
#include "plan.h"

/* Number the byte variables pi's option names (defined earlier: the parser checked that)
 * and the one it defines. NULL, or why the rule cannot be compiled. */
static const char *bind_vars(struct det_pitem *pi, const char **vnames, uint32_t *nvars)
{
    const char *names[BYTE_VAR_FIELDS];
    if (pi->type == PI_CONTENT)
        content_var_names(pi->arg, names);
    else if (pi->type == PI_ISDATAAT)
        isdataat_var_names(pi->arg, names);
    else if (pi->type == PI_PCRE || pi->type == PI_BASE64 || pi->type == PI_ENTROPY ||
             pi->type == PI_ASN1 || pi->type == PI_BER)
        return NULL;
    else
        byte_var_names(pi->arg, names);
    for (int f = 0; f < BYTE_VAR_FIELDS; f++) {
        if (!names[f])
            continue;
        uint32_t v = 0;
        while (v < *nvars && strcmp(vnames[v], names[f]))
            v++;
        if (v == *nvars)
            return "a byte variable defined outside the payload options";
        pi->var[f] = (uint8_t)(v + 1);
    }
    if (pi->type == PI_BYTE_EXTRACT || pi->type == PI_BYTE_MATH) {
        const char *name = ((const struct opt_byte *)pi->arg)->name;
        uint32_t v = 0;
        while (v < *nvars && strcmp(vnames[v], name))
            v++;
        if (v == BYTE_MAX_VARS)
            return "more than 8 byte variables";
        if (v == *nvars)
            vnames[(*nvars)++] = name;
        pi->def = (uint8_t)(v + 1);
    }
    return NULL;
}

/* base64_data options join the run of the base64_decode before them (they read its decoded
 * bytes); other options never join a run that has one. NULL, or why not compiled. */
static const char *b64_join(struct plan *pl, bool decoded, struct unit_plan **last, bool *join)
{
    struct unit_plan *b64 = NULL;
    for (uint32_t u = pl->nunits; u > 0 && !b64; u--)
        for (uint32_t i = 0;
             pl->units[u - 1].u.ops == &det_unit_payload && i < pl->units[u - 1].u.n; i++)
            if (pl->units[u - 1].u.items[i].type == PI_BASE64)
                b64 = &pl->units[u - 1];
    if (decoded) {
        if (!b64 || b64->u.items + b64->u.n != &pl->items[pl->nitems])
            return "base64_data options apart from their base64_decode";
        *last = b64;
        *join = true;
    } else if (*last && *last == b64) {
        *join = false; /* the decoded bytes end that run */
    }
    return NULL;
}

/* pi's variables must be defined in its own run (unit u); it defines its own there. NULL, or
 * why the rule cannot be compiled. */
static const char *var_in_run(const struct det_pitem *pi, uint32_t u,
                              uint32_t var_unit[BYTE_MAX_VARS])
{
    for (int f = 0; f < BYTE_VAR_FIELDS; f++)
        if (pi->var[f] && var_unit[pi->var[f] - 1] != u)
            return "a byte variable used in another buffer than the one that defines it";
    if (pi->def)
        var_unit[pi->def - 1] = u;
    return NULL;
}

/* Add the option's item pi (why: its compile check's verdict) to the plan's payload runs. */
static int add_item(struct plan_ctx *ctx, struct det_pitem pi, const char *why)
{
    struct plan *pl = ctx->pl;
    const struct osprey_rule_option *o = ctx->o;
    if (!pi.arg) {
        pl->why = "option not compiled yet";
        return 0;
    }
    pl->why = why ? why : bind_vars(&pi, ctx->vnames, &ctx->nvars);
    pi.decoded = o->buffer == BUF_BASE64;
    int hdr_ob = det_hdr_buffer_of(o->buffer);
    ctx->packet_only |= hdr_ob >= 0; /* a packet header: packets only */
    if (pl->why)
        return 0;
    /* a relative option joins the run of the payload options before it (wherever that run
     * sits among the match options: order between units does not matter) */
    uint16_t ob = 0;
    const struct det_xform *xf = NULL;
    if (hdr_ob >= 0)
        ob = (uint16_t)hdr_ob;
    else if (det_base_is_app(ctx->app_base) && plan_app_buffer(ctx, &ob, &xf) < 0)
        return -1;
    struct unit_plan *last = NULL;
    for (uint32_t u = pl->nunits; u > 0 && !last; u--)
        if (pl->units[u - 1].u.ops == &det_unit_payload && pl->units[u - 1].u.ob == ob &&
            pl->units[u - 1].u.xf == xf)
            last = &pl->units[u - 1];
    pl->items[pl->nitems] = pi;
    /* on a multi-buffer the whole list holds within one element: one run (one instance: the
     * sticky buffer not named again in between) */
    bool join = pi.relative || ctx->has_vars ||
                (det_app_multi(ctx->d, ob) && last && det_multi_same_instance(ctx->r, last->last_opt,
                                                                      ctx->i));
    if ((pl->why = b64_join(pl, pi.decoded, &last, &join)))
        return 0;
    if (join && last && last->u.items + last->u.n == &pl->items[pl->nitems]) {
        last->u.n++;
        last->last_opt = ctx->i;
    } else {
        plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_payload, .n = 1,
                                             .items = &pl->items[pl->nitems], .ob = ob,
                                             .xf = xf});
        last = &pl->units[pl->nunits - 1];
    }
    pl->nitems++;
    /* a byte variable lives in the run that defines it (ipv4.hdr then tcp.hdr are two) */
    pl->why = var_in_run(&pi, (uint32_t)(last - pl->units), ctx->var_unit);
    return 0;
}

int plan_content(struct plan_ctx *ctx) /* content, uricontent */
{
    const struct opt_content *a = ctx->o->arg;
    /* Suricata inspects each packet of a TCP rule whose payload content has a depth or an
     * offset (they rarely hold in a stream chunk), not only the stream */
    if (a && (ctx->o->buffer == BUF_PKT || ctx->o->buffer == BUF_RAW) &&
        ((a->has & (CONTENT_DEPTH | CONTENT_OFFSET)) || a->startswith))
        ctx->pl->pkt_required = true;
    return add_item(ctx,
                    (struct det_pitem){.type = PI_CONTENT, .relative = content_is_relative(a),
                                       .arg = a},
                    content_compile_check(a));
}

int plan_pcre(struct plan_ctx *ctx)
{
    const struct opt_pcre *pc = ctx->o->arg;
    return add_item(ctx, (struct det_pitem){.type = PI_PCRE, .relative = pc->relative, .arg = pc},
                    pcre_compile_check(pc));
}

int plan_isdataat(struct plan_ctx *ctx)
{
    const struct opt_isdataat *d = ctx->o->arg;
    return add_item(ctx,
                    (struct det_pitem){.type = PI_ISDATAAT, .relative = d->relative, .arg = d},
                    isdataat_compile_check(d));
}

/* bufferlen:<cmp>,relative (Snort 3): the bytes left after the previous match, compared —
 * as relative isdataat items of the run before it (isdataat:N,relative holds with at least N
 * bytes left): >=N is isdataat:N, <N its negation, =N both ends, a range its two ends. */
int plan_bufferlen_relative(struct plan_ctx *ctx)
{
    const struct opt_cmp *cm = ctx->o->arg;
    int64_t at_least = -1, fewer_than = -1; /* isdataat:at_least; !isdataat:fewer_than */
    switch (cm->op) {
    case CMP_GE: at_least = cm->lo; break;
    case CMP_GT: at_least = cm->lo + 1; break;
    case CMP_LT: fewer_than = cm->lo; break;
    case CMP_LE: fewer_than = cm->lo + 1; break;
    case CMP_EQ: at_least = cm->lo, fewer_than = cm->lo + 1; break;
    case CMP_RANGE: at_least = cm->lo + 1, fewer_than = cm->hi; break;
    case CMP_RANGE_INCL: at_least = cm->lo, fewer_than = cm->hi + 1; break;
    default:
        ctx->pl->why = "bufferlen,relative with this comparison";
        return 0;
    }
    if (ctx->pl->nitems + 2 > ctx->r->nopts + 1u) {
        ctx->pl->why = "bufferlen,relative in a rule of payload options only";
        return 0;
    }
    for (int k = 0; k < 2; k++) {
        int64_t n = k ? fewer_than : at_least;
        if (n < 0)
            continue;
        struct opt_isdataat *d = calloc(1, sizeof *d);
        if (det_own(ctx->d, d) < 0) /* (it frees d when it cannot keep it) */
            return -1;
        *d = (struct opt_isdataat){.negated = k == 1, .relative = true, .n = n};
        if (add_item(ctx, (struct det_pitem){.type = PI_ISDATAAT, .relative = true, .arg = d},
                     NULL) < 0)
            return -1;
        if (ctx->pl->why)
            return 0;
    }
    return 0;
}

/* ber_data / ber_skip: always from the cursor (the run before it) */
int plan_ber(struct plan_ctx *ctx)
{
    return add_item(ctx, (struct det_pitem){.type = PI_BER, .relative = true,
                                            .arg = ctx->o->arg}, NULL);
}

int plan_entropy(struct plan_ctx *ctx)
{
    return add_item(ctx, (struct det_pitem){.type = PI_ENTROPY, .arg = ctx->o->arg}, NULL);
}

int plan_base64_decode(struct plan_ctx *ctx)
{
    const struct opt_base64 *b = ctx->o->arg;
    return add_item(ctx, (struct det_pitem){.type = PI_BASE64, .relative = b->relative, .arg = b},
                    NULL);
}

int plan_byte(struct plan_ctx *ctx) /* byte_test, byte_jump, byte_extract, byte_math */
{
    const struct opt_byte *b = ctx->o->arg;
    char c = ctx->name[5];
    uint8_t t = c == 't' ? PI_BYTE_TEST : c == 'j' ? PI_BYTE_JUMP
              : c == 'e' ? PI_BYTE_EXTRACT : PI_BYTE_MATH;
    return add_item(ctx,
                    (struct det_pitem){.type = t, .relative = (b->flags & BYTE_RELATIVE) != 0,
                                       .arg = b},
                    byte_compile_check(b));
}

int plan_asn1(struct plan_ctx *ctx) /* relative_offset: joins the run before it */
{
    const struct opt_asn1 *a = ctx->o->arg;
    return add_item(ctx,
                    (struct det_pitem){.type = PI_ASN1, .relative = a->has_relative, .arg = a},
                    NULL);
}

uint32_t plan_fp_maxend(const struct plan *pl)
{
    const struct opt_content *ct = pl->fp;
    int64_t bound = INT64_MAX, start, end;
    if (ct && !content_is_relative(ct) && !ct->offset_var && !ct->depth_var &&
        (ct->startswith || (ct->has & CONTENT_DEPTH)) && content_window(ct, 0, INT64_MAX, &start, &end))
        bound = end;
    for (uint32_t u = 0; pl->kind == DK_PKT && u < pl->nunits; u++) {
        const struct det_unit *du = &pl->units[u].u;
        if (du->ops != &det_unit_dsize || du->cmp->var)
            continue;
        const struct opt_cmp *q = du->cmp; /* the largest payload it takes, if it has one */
        int64_t most = q->op == CMP_EQ || q->op == CMP_LE ? q->lo
                       : q->op == CMP_LT                   ? q->lo - 1
                       : q->op == CMP_RANGE                ? q->hi - 1
                       : q->op == CMP_RANGE_INCL           ? q->hi
                                                           : INT64_MAX;
        if (most >= 0 && most < bound)
            bound = most;
    }
    return bound >= 0 && bound < UINT32_MAX ? (uint32_t)bound : UINT32_MAX;
}
