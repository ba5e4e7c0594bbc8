/* define.c — the parsers as a UDE library: configuration defaults, defining the events on
 * an engine (one per registered protocol event, registry.c), attaching a worker to a
 * context, counters.
 *
 * Event layout (mon.h's d-forest):
 *   PKT_IN ── app_root (filter: parse UDP datagrams; never fires by itself)
 *                └─ app_detected, every protocol's events (http_request, …,
 *                   tls_certificate), app_anomaly (raise-only children, run with
 *                   mon_run_event once per message)
 *   CONN_NEW_DATA ── tcp_data (filter: read new stream bytes, detect, parse)
 *   CONN_END ── tcp_end (filter: finish what only the end of the flow completes)
 * Every app event hangs under one parent, so a user's UDE under http_request is found the
 * same way whether TCP or UDP parsing ran it. */
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "parsers_int.h"

bool parsers_pkt_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                        void *arg);
bool parsers_tcp_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                        void *arg);
bool parsers_end_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                        void *arg);
bool parsers_midstream_orient(const struct mon_packet *pkt, void *arg);

void osprey_parsers_cfg_defaults(struct osprey_parsers_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg); /* every protocol enabled */
    cfg->files_memcap = 64u << 20;
    for (uint16_t id = 2; id < osprey_app_proto_count(); id++) {
        const struct osprey_proto_def *d = reg_proto(id);
        if (d->cfg_size && d->cfg_defaults && reg_base_of(id).cfg + d->cfg_size <=
                                                  OSPREY_PARSERS_CFG_BYTES)
            d->cfg_defaults(parsers_proto_cfg(cfg, id));
    }
}

int parsers_index(struct osprey_parsers *p)
{
    p->nbuf = osprey_buffer_count();
    p->nfld = osprey_field_count();
    p->brow = calloc(p->nbuf + 1u, sizeof *p->brow);
    p->bproto = calloc(p->nbuf + 1u, sizeof *p->bproto);
    p->frow = calloc(p->nfld + 1u, sizeof *p->frow);
    p->fproto = calloc(p->nfld + 1u, sizeof *p->fproto);
    p->wanted = calloc(p->nbuf + 1u, sizeof *p->wanted);
    if (!p->brow || !p->bproto || !p->frow || !p->fproto || !p->wanted) {
        p->nbuf = p->nfld = 0; /* nothing found through a half-made index */
        return -1;
    }
    for (uint16_t b = 0; b < p->nbuf; b++)
        p->brow[b] = reg_buffer(b, &p->bproto[b]);
    for (uint16_t f = 0; f < p->nfld; f++)
        p->frow[f] = reg_field(f, &p->fproto[f]);
    return 0;
}

void parsers_index_free(struct osprey_parsers *p)
{
    free(p->brow);
    free(p->bproto);
    free(p->frow);
    free(p->fproto);
    free(p->wanted);
}

void osprey_parsers_want_buffer(struct osprey_parsers *p, uint16_t b)
{
    if (p && p->wanted && b < p->nbuf)
        p->wanted[b] = true;
}

static int child(struct mon_engine *eng, mon_event_t parent, mon_event_t *out)
{
    int64_t e = mon_alloc_event(eng, parent);
    if (e < 0)
        return -1;
    *out = (mon_event_t)e;
    return 0;
}

int osprey_parsers_define(struct mon_engine *eng, const struct osprey_parsers_cfg *cfg,
                          struct osprey_parsers **out)
{
    *out = NULL;
    if (reg_cfg_bytes() > OSPREY_PARSERS_CFG_BYTES)
        return -1; /* the protocols' settings outgrew their room (test_parsers_registry) */
    struct osprey_parsers *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    if (cfg)
        p->cfg = *cfg;
    else
        osprey_parsers_cfg_defaults(&p->cfg);
    int64_t root = mon_define_event(eng, MON_ON_PKT_IN, parsers_pkt_filter, p);
    int64_t data = mon_define_event(eng, MON_ON_CONN_NEW_DATA, parsers_tcp_filter, p);
    int64_t end = mon_define_event(eng, MON_ON_CONN_END, parsers_end_filter, p);
    p->slot = mon_uctx_slot_alloc(eng, pflow_free_slot, p);
    if (root < 0 || data < 0 || end < 0 || p->slot < 0)
        goto fail;
    p->app_root = (mon_event_t)root;
    p->tcp_data = (mon_event_t)data;
    p->tcp_end = (mon_event_t)end;
    /* app_detected, every protocol's events in registry order, then app_anomaly */
    uint16_t np = osprey_app_proto_count(), ne = osprey_event_count();
    p->ev = calloc(ne ? ne : 1, sizeof *p->ev);
    p->base = calloc(np, sizeof *p->base);
    if (!p->ev || !p->base || parsers_index(p) || child(eng, p->app_root, &p->app_detected))
        goto fail;
    for (uint16_t i = 0; i < np; i++)
        p->base[i] = reg_base_of(i);
    for (uint16_t i = 0; i < ne; i++)
        if (child(eng, p->app_root, &p->ev[i]))
            goto fail;
    if (child(eng, p->app_root, &p->app_anomaly))
        goto fail;
    *out = p;
    return 0;
fail:
    osprey_parsers_free(p);
    return -1;
}

mon_event_t osprey_parsers_event(const struct osprey_parsers *p, uint16_t ev)
{
    return p->ev[ev];
}

mon_event_t osprey_parsers_app_detected(const struct osprey_parsers *p)
{
    return p->app_detected;
}

mon_event_t osprey_parsers_app_anomaly(const struct osprey_parsers *p)
{
    return p->app_anomaly;
}

void osprey_parsers_free(struct osprey_parsers *p)
{
    if (!p)
        return;
    free(p->ev);
    free(p->base);
    parsers_index_free(p);
    free(p);
}

/* The drivers' nodes must be in every flow's forest for their filters to run: a handler
 * that never runs (the filters say false) keeps them there. */
static void keep_node(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ctx, (void)f, (void)side, (void)ev, (void)arg;
}

struct osprey_parsers_worker *osprey_parsers_attach(const struct osprey_parsers *p,
                                                    struct mon_ctx *ctx)
{
    struct osprey_parsers_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->p = p;
    w->ctx = ctx;
    w->sock = mon_socket(ctx, MON_SOCK_STREAM, NULL);
    if (mon_ctx_slot_set(ctx, p->slot, w) != MON_OK) {
        free(w);
        return NULL;
    }
    if (!w->sock || mon_register(ctx, w->sock, p->app_root, MON_HK_SND, keep_node, w) ||
        mon_register(ctx, w->sock, p->tcp_data, MON_HK_RCV, keep_node, w) ||
        mon_register(ctx, w->sock, p->tcp_end, MON_HK_RCV, keep_node, w)) {
        free(w);
        return NULL;
    }
    mon_set_midstream_orient_cb(ctx, parsers_midstream_orient, (void *)p);
    return w;
}

void osprey_parsers_worker_free(struct osprey_parsers_worker *w)
{
    if (!w)
        return;
    osprey_scratch_free(&w->scratch);
    pexpect_free(&w->expect);
    pfile_worker_free(w);
    free(w); /* its socket goes with the context; flows' state with their flows */
}

void osprey_parsers_set_tx_cb(struct osprey_parsers_worker *w, osprey_tx_fn fn, void *arg)
{
    w->tx_fn = fn;
    w->tx_arg = arg;
}

const struct osprey_parsers_stats *osprey_parsers_worker_stats(
    const struct osprey_parsers_worker *w)
{
    return &w->st;
}
