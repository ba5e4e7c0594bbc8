/* flow.c — a flow's parser state (in a libmon per-flow slot), running app events, and the
 * accessors users call from their filters and handlers: every one by flat id, dispatched to
 * the flow's protocol's descriptor (a buffer of another protocol is absent). */
#include <stdlib.h>

#include "parsers_int.h"

struct pflow *pflow_get(struct mon_ctx *ctx, const struct mon_flow *f)
{
    if (!ctx || !f)
        return NULL;
    int slot = mon_uctx_slot_find(ctx, pflow_free_slot);
    return slot < 0 ? NULL : mon_get_uctx_slot(ctx, f, slot);
}

struct pflow *pflow_make(struct osprey_parsers_worker *w, struct mon_flow *f)
{
    struct pflow *pf = mon_get_uctx_slot(w->ctx, f, w->p->slot);
    if (pf)
        return pf;
    pf = calloc(1, sizeof *pf);
    if (!pf)
        return NULL;
    pf->w = w;
    pf->anomaly = -1;
    if (mon_set_uctx_slot(w->ctx, f, w->p->slot, pf) != MON_OK) {
        free(pf);
        return NULL;
    }
    return pf;
}

void pflow_free_slot(struct mon_ctx *ctx, struct mon_flow *f, void *val, void *arg)
{
    (void)ctx, (void)f, (void)arg;
    struct pflow *pf = val;
    pbuf_free(&pf->in[0]);
    pbuf_free(&pf->in[1]);
    const struct osprey_proto_def *d = reg_proto(pf->proto);
    if (d && pf->state)
        d->state_free(pf->state);
    free(pf);
}

void osprey_parsers_conn_closed(struct mon_ctx *ctx, struct mon_flow *f)
{
    struct pflow *pf = pflow_get(ctx, f);
    if (!pf)
        return;
    pbuf_free(&pf->in[0]); /* input held for a message's end: none will come */
    pbuf_free(&pf->in[1]);
    const struct osprey_proto_def *d = reg_proto(pf->proto);
    if (d && pf->state && d->state_trim)
        d->state_trim(pf->state);
}

void pflow_run(struct pflow *pf, struct mon_flow *f, int dir, mon_event_t ev)
{
    if (f->forest) /* a flow already released has no events left to run */
        mon_run_event(pf->w->ctx, f, SIDE_OF_DIR(dir), ev);
}

void pflow_raise(struct pflow *pf, struct mon_flow *f, int dir, unsigned ev)
{
    const struct osprey_parsers *p = pf->w->p;
    if (f->forest) /* (a flow already released has no events left to run) */
        pflow_run(pf, f, dir, p->ev[p->base[pf->proto].event + ev]);
}

void pflow_count(struct pflow *pf, unsigned c, uint64_t n)
{
    pf->w->st.v[pf->w->p->base[pf->proto].counter + c] += n;
}

void pflow_decide(struct pflow *pf, struct mon_flow *f, int dir, uint16_t proto)
{
    pf->proto = proto;
    pf->w->st.v[proto]++; /* the flows' counters come first, by protocol id */
    if (!parsers_parses(pf->w->p, proto) && proto > OSPREY_APP_PROTO_FAILED)
        pf->dead[0] = pf->dead[1] = true; /* detection-only: its bytes are not read on */
    pflow_run(pf, f, dir, pf->w->p->app_detected);
}

void pflow_switch(struct pflow *pf, uint16_t proto)
{
    const struct osprey_proto_def *d = reg_proto(pf->proto);
    if (d && pf->state)
        d->state_free(pf->state);
    pf->state = NULL;
    if (!pf->orig)
        pf->orig = pf->proto;
    pf->proto = proto;
}

uint16_t osprey_parsers_app_proto_orig(struct mon_ctx *ctx, const struct mon_flow *f)
{
    struct pflow *pf = pflow_get(ctx, f);
    return pf ? pf->orig : OSPREY_APP_PROTO_UNKNOWN;
}

void pflow_anomaly(struct pflow *pf, struct mon_flow *f, int dir, unsigned e)
{
    int32_t saved = pf->anomaly; /* (a rule's handler cannot raise another, but be safe) */
    pf->anomaly = (int32_t)(pf->w->p->base[pf->proto].anomaly + e);
    pflow_run(pf, f, dir, pf->w->p->app_anomaly);
    pf->anomaly = saved;
}

int osprey_parsers_anomaly(struct mon_ctx *ctx, const struct mon_flow *f)
{
    const struct pflow *pf = f ? pflow_get(ctx, f) : NULL;
    return pf ? pf->anomaly : -1;
}

void pflow_tx_done(struct pflow *pf, struct mon_flow *f)
{
    if (pf->w->tx_fn)
        pf->w->tx_fn(pf->w->ctx, f, pf->proto, pf->w->tx_arg);
}

uint16_t osprey_parsers_app_proto(struct mon_ctx *ctx, const struct mon_flow *f)
{
    struct pflow *pf = pflow_get(ctx, f);
    return pf ? pf->proto : OSPREY_APP_PROTO_UNKNOWN;
}

const uint8_t *osprey_parsers_buffer_at(struct mon_ctx *ctx, const struct mon_flow *f,
                                        uint16_t b, uint32_t i, struct osprey_scratch *s,
                                        uint32_t *len)
{
    *len = 0;
    struct pflow *pf = pflow_get(ctx, f);
    const struct osprey_parsers *p = pf ? pf->w->p : NULL;
    const struct proto_buffer *r = p && b < p->nbuf ? p->brow[b] : NULL;
    if (!r || p->bproto[b] != pf->proto || !pf->state || (i > 0 && !r->multi))
        return NULL;
    if (!s) {
        s = &pf->w->scratch;
        s->len = 0;
    }
    const uint8_t *d = r->get(pf, r->key, i, s, len);
    if (!d)
        *len = 0;
    return d;
}

const uint8_t *osprey_parsers_buffer(struct mon_ctx *ctx, const struct mon_flow *f, uint16_t b,
                                     uint32_t *len)
{
    return osprey_parsers_buffer_at(ctx, f, b, 0, NULL, len);
}

bool osprey_parsers_field_at(struct mon_ctx *ctx, const struct mon_flow *f, uint16_t fld,
                             uint32_t i, int64_t *out)
{
    struct pflow *pf = pflow_get(ctx, f);
    const struct osprey_parsers *p = pf ? pf->w->p : NULL;
    const struct proto_field *r = p && fld < p->nfld ? p->frow[fld] : NULL;
    if (!r || p->fproto[fld] != pf->proto || !pf->state)
        return false;
    return r->get(pf, r->key, i, out);
}

uint32_t osprey_parsers_tx_id(struct mon_ctx *ctx, const struct mon_flow *f)
{
    struct pflow *pf = pflow_get(ctx, f);
    const struct osprey_proto_def *d = pf ? reg_proto(pf->proto) : NULL;
    return d && d->tx_id && pf->state ? d->tx_id(pf) : 0;
}

bool osprey_parsers_eve(struct mon_ctx *ctx, const struct mon_flow *f, struct osprey_jw *w)
{
    struct pflow *pf = pflow_get(ctx, f);
    const struct osprey_proto_def *d = pf ? reg_proto(pf->proto) : NULL;
    return d && d->eve && pf->state && d->eve(pf, w);
}
