/* plan_ctx.c — what the keyword plan functions share (plan.h): adding a unit to the plan and
 * finding the option's parser buffer and transforms. A leaf below the planner and the plan
 * functions: it calls neither, so make_plan → plan_table → plan_* → here runs one way. */
#include "plan.h"

/* Option i's parser buffer and transforms (interned). -1: out of memory. */
static int app_buffer_of(struct osprey_detect *d, const struct osprey_rule *r, uint32_t i,
                         bool to_client, uint16_t app, uint16_t *ob,
                         const struct det_xform **xf)
{
    const struct osprey_rule_option *o = &r->opts[i];
    uint16_t base;
    *xf = NULL;
    to_client = det_app_opt_to_client(r, i, to_client);
    if (det_app_buffer_of_in(o->buffer, to_client, app, ob, &base) < 0) {
        *ob = DET_OB_RAW; /* the packet/stream, under the application event */
        return 0;
    }
    if (!o->nxforms)
        return 0;
    uint16_t kw[32];
    const char *val[32];
    const void *arg[32];
    uint32_t n = o->nxforms < 32 ? o->nxforms : 32;
    for (uint32_t k = 0; k < n; k++) {
        kw[k] = r->opts[o->xform_at + k].kw;
        val[k] = r->opts[o->xform_at + k].value;
        arg[k] = r->opts[o->xform_at + k].arg;
    }
    return (*xf = det_xform_intern(d, kw, val, arg, n)) ? 0 : -1;
}

void plan_add_unit(struct plan_ctx *ctx, struct det_unit u)
{
    struct unit_plan *up = &ctx->pl->units[ctx->pl->nunits++];
    up->u = u;
    up->first_opt = up->last_opt = ctx->i;
}

int plan_app_buffer(struct plan_ctx *ctx, uint16_t *ob, const struct det_xform **xf)
{
    return app_buffer_of(ctx->d, ctx->r, ctx->i, ctx->to_client, ctx->pl->buf_app, ob, xf);
}
