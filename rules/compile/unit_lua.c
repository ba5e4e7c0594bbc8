/* unit_lua.c — the lua unit: a Lua rule's script (rules/lua/) run on what the rule inspects
 * (the sticky buffer, else the packet/stream, and through the suricata.* modules the packet,
 * the flow and its transaction). Each worker has its own lua_State per script, made on its
 * first run; the flow variables the script reads and writes are the flow's own (captures.c,
 * xstate.c). The states themselves and luaxform's runs are lua_states.c. Also plan_lua. */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"
#include "intern.h"
#include "plan.h"

/* ---- the flow variables, for the suricata.flowvar / flowint modules ---- */
static const uint8_t *h_fv_get(void *a, const char *name, uint32_t *len)
{
    return det_flowvar_get(a, name, len);
}
static bool h_fv_set(void *a, const char *name, const uint8_t *v, uint32_t len)
{
    return det_flowvar_set(a, name, v, len);
}
static bool h_fi_get(void *a, const char *name, int64_t *out)
{
    struct det_flow *df = a;
    uint32_t id;
    return det_flowint_find(df->w->d, name, &id) && det_flowint_get(df, id, out);
}
static bool h_fi_set(void *a, const char *name, int64_t v)
{
    struct det_flow *df = a;
    uint32_t id;
    return det_flowint_find(df->w->d, name, &id) && det_flowint_set(df, id, v);
}
static const struct rlua_host HOST = {h_fv_get, h_fv_set, h_fi_get, h_fi_set};

static bool lua_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f, int side)
{
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    if (!df)
        return false;
    struct osprey_detect_worker *w = df->w;
    struct det_lua_entry *e = det_lua_entry(w, u->lua->script);
    if (!e)
        return false; /* out of memory: the script does not match */
    const struct mon_packet *p = mon_getlastpkt(ctx);
    if (p && e->rule == u->lua_rule && e->pkt == p->num)
        return e->res;
    uint32_t len = 0;
    uint64_t origin = 0;
    const uint8_t *buf = u->kind == DK_APP
                             ? det_app_buffer(w, ctx, f, u->base, u->ob, u->xf, 1, &len, &origin)
                             : det_buffer(ctx, f, side, u->kind, &len, &origin);
    struct rlua_input in = {.ctx = ctx, .f = f, .p = p, .buf = buf,
                            .len = len, .to_server = det_to_server(side, u->base),
                            .rule = u->lua_rule, .host = &HOST, .host_arg = df,
                            .scratch = &w->lua_scratch};
    int m = rlua_match(e->st, &in, &w->lua_stats);
    /* a failed run never matches, negated or not */
    bool res = m >= 0 && (m == 1) != u->lua->negated;
    if (p) {
        e->rule = u->lua_rule;
        e->pkt = p->num;
        e->res = res;
    }
    return res;
}

static void lua_key(struct buf *k, const struct det_unit *u)
{
    /* one unit per rule: suricata.rule reads the rule, a script may keep per-rule state */
    buf_put(k, &u->lua, sizeof u->lua);
    buf_put(k, &u->lua_rule, sizeof u->lua_rule);
}

/* not gate_safe: a run may set flow variables, and the state it keeps changes */
const struct det_unit_ops det_unit_lua = {.name = "lua", .eval = lua_eval, .key = lua_key};

int plan_lua(struct plan_ctx *ctx)
{
    const struct opt_lua *a = ctx->o->arg;
    const struct rlua_script *s = a->script;
    /* the script's flowint names are variables of the ruleset, as the flowint keyword's */
    for (uint32_t i = 0; i < s->nflowints; i++) {
        uint32_t id;
        if (det_flowint_id(ctx->d, s->flowints[i], &id) < 0)
            return -1;
    }
    uint16_t ob = 0;
    const struct det_xform *xf = NULL;
    if (plan_app_buffer(ctx, &ob, &xf) < 0)
        return -1;
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_lua, .lua = a, .lua_rule = ctx->r,
                                         .ob = ob, .xf = xf});
    return 0;
}
