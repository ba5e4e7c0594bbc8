/* rebind.c — move a worker's context onto another frozen engine (a rule reload), keeping its
 * flows.
 *
 * What a context holds splits in two. Traffic state — the flow table, both endpoints' TCP
 * state and reassembly buffers, defrag trackers, the decoder and every counter — does not
 * depend on the events defined, so it stays. Event state — passive sockets (their pairs name
 * the old engine's events), invocation forests, the walk runners (sized from the old
 * registry), the flows' user context and user slots (made by handlers of the old events) —
 * is released. Each live flow is left on the new registry's empty forest and marked
 * FF_RESCOPE: its next packet finds the new sockets' forest from the scopes, as a new flow's
 * first packet does, so sockets opened after the rebind reach the flows already running.
 */
#include <string.h>

#include "core_internal.h"

struct rebind_walk {
    struct mon_ctx *ctx;
    struct ev_forests *to;
    mon_rebind_flow_fn fn;
    void *arg;
};

static void drop_flow_state(struct mon_flow *f, void *arg)
{
    struct rebind_walk *w = arg;
    if (w->fn)
        w->fn(w->ctx, f, w->arg); /* the application frees what it hung on the flow */
    f->uctx = NULL;
    core_free_slots(w->ctx, f); /* the old engine's libraries' destructors */
    if (f->forest) {
        ev_forest_release(w->ctx->forests, f->forest);
        f->forest = ev_forest_empty(w->to);
        f->mon_flags |= FF_RESCOPE;
    }
    /* a flow whose forest is NULL never finished its setup: its next packet does it */
}

int mon_ctx_rebind(struct mon_ctx *ctx, struct mon_engine *eng, mon_rebind_flow_fn fn,
                   void *arg)
{
    if (!ctx || !eng)
        return MON_EINVAL;
    if (!ev_registry_frozen(eng->reg))
        return core_err(ctx, MON_ENOTFROZEN, "the new engine is not frozen");
    if (ctx->cur || ctx->phase != PH_NONE || ctx->nest)
        return core_err(ctx, MON_ESTATE, "rebind from inside mon_process");
    if (eng->cfg.defrag_off != ctx->eng->cfg.defrag_off)
        return core_err(ctx, MON_EINVAL, "the new engine must keep defrag on or off as before");
    /* everything that can fail first: on error the context is untouched */
    struct ev_forests *nf = ev_forests_create(eng->reg);
    struct ev_runner *nr = ev_runner_create(eng->reg);
    if (!nf || !nr) {
        ev_runner_destroy(nr);
        ev_forests_destroy(nf);
        return core_err(ctx, MON_ENOMEM, "no memory for the new engine's forests");
    }
    struct rebind_walk w = {ctx, nf, fn, arg};
    mon_flow_each(ctx->ft, drop_flow_state, &w);
    core_scope_clear(ctx);
    while (ctx->socks)
        mon_close(ctx, ctx->socks);
    ctx->nstream = 0;
    for (int i = 0; i < CORE_RUN_NEST; i++) {
        ev_runner_destroy(ctx->nested[i]);
        ctx->nested[i] = NULL;
    }
    ev_runner_destroy(ctx->runner);
    ev_forests_destroy(ctx->forests); /* no reference into it is left */
    ctx->runner = nr;
    ctx->forests = nf;
    /* per-worker library objects belong to the old engine's libraries, which set their own
     * again on the new one */
    memset(ctx->slot_val, 0, sizeof ctx->slot_val);
    ctx->eng = eng;
    /* the TCP layer points at the engine's policy table; the rest of its settings and its
     * counters stay (the flow table, defrag and decoder keep the settings they were made
     * with: the new engine is expected to come from the same stack configuration) */
    ctx->tcp.cfg = eng->cfg.tcp;
    return MON_OK;
}

void core_rescope(struct mon_ctx *ctx, struct mon_flow *f, const struct mon_packet *p)
{
    struct ev_forest *nf = core_scope_forest(ctx, p);
    if (!nf)
        return; /* out of memory: it stays on the empty forest and tries again next packet */
    ev_forest_release(ctx->forests, f->forest);
    f->forest = nf;
    f->mon_flags &= (uint8_t)~FF_RESCOPE;
}
