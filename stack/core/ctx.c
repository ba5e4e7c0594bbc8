/* ctx.c — a worker's context: creation, teardown, statistics, per-flow user pointer. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

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
    }
    core_scope_clear(ctx);
    while (ctx->socks)
        mon_close(ctx, ctx->socks);
    ev_runner_destroy(ctx->runner);
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

const struct mon_decode_stats *mon_ctx_decode_stats(const struct mon_ctx *ctx)
{
    return &ctx->dec.stats;
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
