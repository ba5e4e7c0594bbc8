/* ctx.c — a worker's context: creation, teardown, statistics, per-flow user pointer. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

int core_err(struct mon_ctx *ctx, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->errmsg, sizeof ctx->errmsg, fmt, ap);
    va_end(ap);
    return code;
}

struct mon_ctx *mon_ctx_create(struct mon_engine *eng, int worker_id)
{
    if (!eng || !ev_registry_frozen(eng->reg))
        return NULL; /* events must all be defined before workers start */
    struct mon_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->eng = eng;
    ctx->worker = worker_id;
    ctx->hook_now = -1;
    if (!eng->cfg.defrag_off && !(ctx->df = mon_defrag_create(&eng->cfg.defrag))) {
        free(ctx);
        return NULL;
    }
    ctx->ft = mon_flow_table_create(&eng->cfg.flow, core_flow_end, ctx);
    ctx->forests = ev_forests_create(eng->reg);
    ctx->runner = ev_runner_create(eng->reg);
    if (!ctx->ft || !ctx->forests || !ctx->runner) {
        mon_ctx_destroy(ctx);
        return NULL;
    }
    mon_decoder_init(&ctx->dec, &eng->cfg.decode, ctx->df);
    tcp_ctx_init(&ctx->tcp, &eng->cfg.tcp);
    return ctx;
}

void mon_ctx_destroy(struct mon_ctx *ctx)
{
    if (!ctx)
        return;
    if (ctx->ft) {
        mon_flush(ctx);
        mon_flow_table_destroy(ctx->ft);
        ctx->ft = NULL; /* state freed after this refunds nothing */
    }
    core_scope_clear(ctx);
    while (ctx->socks)
        mon_close(ctx, ctx->socks);
    ev_runner_destroy(ctx->runner);
    for (int i = 0; i < CORE_RUN_NEST; i++)
        ev_runner_destroy(ctx->nested[i]);
    ev_forests_destroy(ctx->forests);
    mon_defrag_destroy(ctx->df);
    free(ctx);
}

const char *mon_errmsg(const struct mon_ctx *ctx)
{
    return ctx->errmsg;
}

void mon_set_flow_end_cb(struct mon_ctx *ctx, mon_flow_end_cb cb, void *arg)
{
    ctx->end_cb = cb;
    ctx->end_arg = arg;
}

void mon_set_conn_closed_cb(struct mon_ctx *ctx, mon_flow_end_cb cb, void *arg)
{
    ctx->closed_cb = cb;
    ctx->closed_arg = arg;
}

void mon_set_midstream_orient_cb(struct mon_ctx *ctx, mon_flow_orient_fn fn, void *arg)
{
    if (ctx->tcp.cfg.midstream)
        mon_flow_set_orient_cb(ctx->ft, fn, arg);
}

void mon_set_uctx(struct mon_ctx *ctx, struct mon_flow *f, void *uctx)
{
    (void)ctx;
    f->uctx = uctx;
}

void *mon_get_uctx(struct mon_ctx *ctx, struct mon_flow *f)
{
    (void)ctx;
    return f->uctx;
}

int mon_uctx_slot_alloc(struct mon_engine *eng, mon_uctx_free_fn fn, void *arg)
{
    if (!eng)
        return MON_EINVAL;
    if (ev_registry_frozen(eng->reg))
        return MON_EFROZEN;
    if (eng->nslots == MON_UCTX_SLOTS)
        return MON_ENOMEM;
    eng->slot_free[eng->nslots] = fn;
    eng->slot_arg[eng->nslots] = arg;
    return (int)eng->nslots++;
}

int mon_set_uctx_slot(struct mon_ctx *ctx, struct mon_flow *f, int slot, void *val)
{
    if (!f || slot < 0 || (unsigned)slot >= ctx->eng->nslots)
        return core_err(ctx, MON_EINVAL, "no user slot %d", slot);
    if (!f->uslot) {
        if (!val)
            return MON_OK;
        /* allocated on a flow's first use only: flows nobody stores anything on pay nothing */
        if (!(f->uslot = calloc(ctx->eng->nslots, sizeof *f->uslot)))
            return core_err(ctx, MON_ENOMEM, "no memory for user slots");
        mon_ctx_charge(ctx, (int64_t)(ctx->eng->nslots * sizeof *f->uslot) + MON_MALLOC_OVERHEAD);
    }
    f->uslot[slot] = val;
    return MON_OK;
}

void *mon_get_uctx_slot(struct mon_ctx *ctx, const struct mon_flow *f, int slot)
{
    if (!f || !f->uslot || slot < 0 || (unsigned)slot >= ctx->eng->nslots)
        return NULL;
    return f->uslot[slot];
}

int mon_uctx_slot_find(const struct mon_ctx *ctx, mon_uctx_free_fn fn)
{
    for (unsigned i = 0; fn && i < ctx->eng->nslots; i++)
        if (ctx->eng->slot_free[i] == fn)
            return (int)i;
    return MON_ENOENT;
}

int mon_ctx_slot_set(struct mon_ctx *ctx, int slot, void *val)
{
    if (slot < 0 || (unsigned)slot >= ctx->eng->nslots)
        return core_err(ctx, MON_EINVAL, "no user slot %d", slot);
    ctx->slot_val[slot] = val;
    return MON_OK;
}

void *mon_ctx_slot_get(const struct mon_ctx *ctx, int slot)
{
    return slot >= 0 && (unsigned)slot < ctx->eng->nslots ? ctx->slot_val[slot] : NULL;
}

void core_free_slots(struct mon_ctx *ctx, struct mon_flow *f)
{
    if (!f->uslot)
        return;
    for (unsigned i = 0; i < ctx->eng->nslots; i++) {
        void *v = f->uslot[i];
        f->uslot[i] = NULL;
        if (v && ctx->eng->slot_free[i])
            ctx->eng->slot_free[i](ctx, f, v, ctx->eng->slot_arg[i]);
    }
    free(f->uslot);
    f->uslot = NULL;
    mon_ctx_charge(ctx, -(int64_t)(ctx->eng->nslots * sizeof *f->uslot) - MON_MALLOC_OVERHEAD);
}

const struct mon_decode_stats *mon_ctx_decode_stats(const struct mon_ctx *ctx)
{
    return &ctx->dec.stats;
}

void mon_ctx_charge(struct mon_ctx *ctx, int64_t bytes)
{
    if (ctx && ctx->ft)
        mon_flow_charge(ctx->ft, bytes);
}

const struct mon_defrag *mon_ctx_defrag(const struct mon_ctx *ctx)
{
    return ctx->df;
}

const struct mon_flow_table *mon_ctx_flows(const struct mon_ctx *ctx)
{
    return ctx->ft;
}

const struct mon_tcp_stats *mon_ctx_tcp_stats(const struct mon_ctx *ctx)
{
    return &ctx->tcp.stats;
}

const struct mon_event_stats *mon_ctx_event_stats(const struct mon_ctx *ctx)
{
    struct mon_ctx *c = (struct mon_ctx *)ctx; /* forest figures are read on demand */
    struct ev_forest_stats fs;
    ev_forests_stats(c->forests, &fs);
    c->evstats.forests = fs.alive;
    c->evstats.forests_created = fs.created;
    c->evstats.forest_bytes = fs.bytes;
    return &c->evstats;
}
