/* flow.c — a flow's parser state (in a libmon per-flow slot), running app events, and the
 * accessors users call from their filters and handlers: every one by flat id, dispatched to
 * the flow's protocol's descriptor (a buffer of another protocol is absent). */
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "parsers_int.h"

/* A flow's parser record as charged to flow.memcap (its protocol's state is bounded by the
 * protocol's own limits) */
#define PFLOW_CHARGE ((int64_t)sizeof(struct pflow) + MON_MALLOC_OVERHEAD)

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
    mon_ctx_charge(w->ctx, PFLOW_CHARGE); /* flow.memcap holds parser state too */
    pf->w = w;
    pf->anomaly = -1;
    pf->store_tx[0] = pf->store_tx[1] = -1;
    if (mon_set_uctx_slot(w->ctx, f, w->p->slot, pf) != MON_OK) {
        mon_ctx_charge(w->ctx, -PFLOW_CHARGE);
        free(pf);
        return NULL;
    }
    return pf;
}

static void pflow_free(struct pflow *pf)
{
    if (pf->guest)
        pflow_free(pf->guest);
    pbuf_free(&pf->in[0]);
    pbuf_free(&pf->in[1]);
    pbuf_free(&pf->upgrade_rest);
    pbuf_free(&pf->late);
    const struct osprey_proto_def *d = reg_proto(pf->proto);
    if (d && pf->state)
        d->state_free(pf->state);
    pfile_free_all(pf);
    mon_ctx_charge(pf->w->ctx, -PFLOW_CHARGE);
    free(pf);
}

void pflow_free_slot(struct mon_ctx *ctx, struct mon_flow *f, void *val, void *arg)
{
    (void)ctx, (void)f, (void)arg;
    pflow_free(val);
}

struct pflow *pflow_guest(struct pflow *host, const char *name)
{
    int id = osprey_app_proto_find(name);
    if (id < 0 || !osprey_app_proto_carries(host->proto, (uint16_t)id) ||
        !parsers_parses(host->w->p, (uint16_t)id)) /* (app-layer.protocols.<guest>.enabled) */
        return NULL;
    if (host->guest)
        return host->guest->proto == id ? host->guest : NULL;
    struct pflow *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    mon_ctx_charge(host->w->ctx, PFLOW_CHARGE);
    g->w = host->w;
    g->proto = (uint16_t)id;
    g->anomaly = -1;
    g->host = host;
    host->guest = g;
    return g;
}

void pflow_guest_feed(struct pflow *g, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    const struct osprey_proto_def *def = reg_proto(g->proto);
    if (def && def->parse && !g->dead[dir] && n)
        def->parse(g, f, dir, d, n);
}

enum probe_verdict pflow_guest_probe(const struct pflow *host, const char *name, int dir,
                                     const uint8_t *d, size_t n)
{
    int id = osprey_app_proto_find(name);
    const struct osprey_proto_def *def = id > 0 ? reg_proto((uint16_t)id) : NULL;
    if (!def || !osprey_app_proto_carries(host->proto, (uint16_t)id))
        return DET_NO;
    enum probe_verdict v = DET_NO;
    for (const struct proto_probe *p = def->probes; p && p->probe; p++) {
        if (p->l4 != 6 || p->dir != dir)
            continue;
        enum probe_verdict r = p->probe(d, n, NULL);
        if (r == DET_YES)
            return r;
        if (r == DET_NEED_MORE)
            v = r;
    }
    return v;
}

bool pflow_guest_eve(struct pflow *g, struct osprey_jw *w)
{
    const struct osprey_proto_def *def = g ? reg_proto(g->proto) : NULL;
    bool (*fn)(struct pflow *, struct osprey_jw *) = !def ? NULL
                                                     : def->eve_carried ? def->eve_carried
                                                                        : def->eve;
    return fn && g->state && fn(g, w);
}

/* The pflow whose protocol is proto: the flow's own, or the guest it carries. */
static struct pflow *pflow_of(struct pflow *pf, uint16_t proto)
{
    if (!pf)
        return NULL;
    if (pf->proto == proto)
        return pf;
    return pf->guest && pf->guest->proto == proto ? pf->guest : NULL;
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
    if (!f->forest) /* a flow already released has no events left to run */
        return;
    mon_run_event(pf->w->ctx, f, SIDE_OF_DIR(dir), ev);
    pflow_raw_trigger(pf, f, dir);
}

void pflow_raw_trigger(struct pflow *pf, struct mon_flow *f, int dir)
{
    /* ack delivery: a message of this direction ended, so its acknowledged bytes go to stream
     * inspection with the direction's next packet, not only once a chunk's worth waits — for
     * the protocols whose Suricata parsers trigger raw reassembly */
    const struct osprey_proto_def *d = reg_proto(pf->proto);
    if (f->forest && d && d->raw_trigger && f->proto == 6 && mon_ack_delivery(pf->w->ctx))
        mon_setsockopt(pf->w->ctx, f, SIDE_OF_DIR(dir), MON_SO_RAW_TRIGGER, NULL, 0);
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
    pflow_decide_dirs(pf, proto, proto, proto);
    pflow_run(pf, f, dir, pf->w->p->app_detected);
}

void pflow_decide_dirs(struct pflow *pf, uint16_t proto, uint16_t ts, uint16_t tc)
{
    pf->proto = proto;
    pf->dir_proto[0] = ts;
    pf->dir_proto[1] = tc;
    pf->w->st.v[proto]++; /* the flows' counters come first, by protocol id */
    if (!parsers_parses(pf->w->p, proto) && proto > OSPREY_APP_PROTO_FAILED)
        pf->dead[0] = pf->dead[1] = true; /* detection-only: its bytes are not read on */
}

#define UPGRADE_REST_MAX 65536 /* bytes after the switch kept for the new protocol */

bool pflow_upgrade(struct pflow *pf, uint16_t proto)
{
    if (pf->changing)
        return false; /* one change at a time (Suricata's AppLayerRequestProtocolChange) */
    if (reg_proto(proto))
        pf->upgrade = proto;
    return true;
}

void pflow_redetect(struct pflow *pf, struct mon_flow *f, int dir, uint16_t expect,
                    const uint8_t *d, size_t n)
{
    pflow_become(pf, OSPREY_APP_PROTO_UNKNOWN);
    pf->expect = expect;
    pf->changing = true;
    for (int k = 0; k < 2; k++)
        pbuf_reset(&pf->in[k]);
    if (n)
        parsers_feed(pf, f, dir, d, n);
}

void pflow_upgrade_rest(struct pflow *pf, int dir, const uint8_t *d, size_t n)
{
    if (!pf->upgrade)
        return;
    pbuf_reset(&pf->upgrade_rest);
    pf->upgrade_dir = (int8_t)dir;
    pbuf_add(&pf->upgrade_rest, d, n, UPGRADE_REST_MAX);
}

void pflow_switch(struct pflow *pf, struct mon_flow *f, int dir)
{
    uint16_t id = pf->upgrade;
    const struct osprey_proto_def *old = reg_proto(pf->proto), *to = reg_proto(id);
    pf->upgrade = 0;
    if (!to)
        return;
    if (old && pf->state)
        old->state_free(pf->state);
    pf->state = NULL;
    pf->orig = pf->proto;
    pf->proto = id;
    pf->named = 0;
    pf->dir_proto[0] = pf->dir_proto[1] = id; /* both sides speak it from here */
    pbuf_reset(&pf->late);
    pf->w->st.v[pf->proto]++; /* the flow is counted as the protocol it became, too */
    for (int k = 0; k < 2; k++) {
        pf->dead[k] = false;
        pbuf_reset(&pf->in[k]);
    }
    if (to->upgraded)
        to->upgraded(pf, f);
    struct pbuf rest = pf->upgrade_rest;
    memset(&pf->upgrade_rest, 0, sizeof pf->upgrade_rest);
    pflow_run(pf, f, dir, pf->w->p->app_detected);
    if (rest.len && to->parse)
        to->parse(pf, f, pf->upgrade_dir, rest.p, rest.len);
    pbuf_free(&rest);
}

void pflow_become(struct pflow *pf, uint16_t proto)
{
    const struct osprey_proto_def *d = reg_proto(pf->proto);
    if (d && pf->state)
        d->state_free(pf->state);
    pf->state = NULL;
    if (!pf->orig)
        pf->orig = pf->proto;
    pf->proto = proto;
    pf->named = 0;
    pf->dir_proto[0] = pf->dir_proto[1] = proto; /* (UNKNOWN: detection tells them again) */
    pbuf_reset(&pf->late);
}

void pflow_classify(struct pflow *pf, uint16_t proto)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    if (!d || pf->named == proto || pf->w->p->cfg.mode[proto] == OSPREY_APP_DISABLED)
        return;
    pf->orig = pf->proto;
    pf->named = proto;
    pf->dir_proto[0] = pf->dir_proto[1] = proto;
    pf->w->st.v[proto]++; /* counted as what it is too (Suricata's app_layer.flow.doh2) */
}

/* The descriptor's transaction id now (0: a protocol without one). */
static uint32_t tx_now(const struct pflow *pf)
{
    const struct osprey_proto_def *d = reg_proto(pf->proto);
    return d && d->tx_id && pf->state ? d->tx_id(pf) : 0;
}

static void raise_anomaly(struct pflow *pf, struct mon_flow *f, int dir, int32_t id)
{
    int32_t saved = pf->anomaly; /* (a rule's handler cannot raise another, but be safe) */
    pf->anomaly = id;
    /* remembered with its transaction (stored + 1: 0 is an empty slot) */
    pf->tx_anom[pf->tx_anom_next] = (struct pflow_tx_anomaly){tx_now(pf), pf->anomaly + 1};
    pf->tx_anom_next = (uint8_t)((pf->tx_anom_next + 1) % PFLOW_TX_ANOMALIES);
    pflow_run(pf, f, dir, pf->w->p->app_anomaly);
    pf->anomaly = saved;
}

void pflow_anomaly(struct pflow *pf, struct mon_flow *f, int dir, unsigned e)
{
    raise_anomaly(pf, f, dir, (int32_t)(pf->w->p->base[pf->proto].anomaly + e));
}

void pflow_generic_anomaly(struct pflow *pf, struct mon_flow *f, int dir, unsigned g)
{
    raise_anomaly(pf, f, dir, (int32_t)(reg_generic_anomaly_base() + g));
}

int osprey_parsers_anomaly(struct mon_ctx *ctx, const struct mon_flow *f)
{
    const struct pflow *pf = f ? pflow_get(ctx, f) : NULL;
    return pf ? pf->anomaly : -1;
}

static bool raised_in_tx(const struct pflow *pf, int code)
{
    uint32_t tx = tx_now(pf);
    for (int i = 0; i < PFLOW_TX_ANOMALIES; i++)
        if (pf->tx_anom[i].anomaly == code + 1 && pf->tx_anom[i].tx == tx)
            return true;
    return false;
}

bool osprey_parsers_tx_anomaly(struct mon_ctx *ctx, const struct mon_flow *f, int code)
{
    const struct pflow *pf = f ? pflow_get(ctx, f) : NULL;
    if (!pf || code < 0)
        return false;
    return raised_in_tx(pf, code) || (pf->guest && raised_in_tx(pf->guest, code));
}

void pflow_tx_done(struct pflow *pf, struct mon_flow *f)
{
    pf->changing = false; /* a change's new protocol finished its first transaction */
    if (pf->host) /* a guest's transaction: the host's record carries it */
        return;
    if (pf->w->tx_fn)
        pf->w->tx_fn(pf->w->ctx, f, pf->proto, pf->w->tx_arg);
    /* its files are reported with it (fileinfo, filestore): they go */
    const struct osprey_proto_def *d = reg_proto(pf->proto);
    pfile_release_tx(pf, d && d->tx_id && pf->state ? d->tx_id(pf) : 0);
}

uint16_t osprey_parsers_app_proto(struct mon_ctx *ctx, const struct mon_flow *f)
{
    struct pflow *pf = pflow_get(ctx, f);
    return pf ? pf->proto : OSPREY_APP_PROTO_UNKNOWN;
}

enum osprey_payload osprey_parsers_payload(struct mon_ctx *ctx, const struct mon_flow *f)
{
    struct pflow *pf = pflow_get(ctx, f);
    return pf ? (enum osprey_payload)pf->payload : OSPREY_PAYLOAD_INSPECTED;
}

uint16_t osprey_parsers_app_proto_named(struct mon_ctx *ctx, const struct mon_flow *f)
{
    struct pflow *pf = pflow_get(ctx, f);
    return !pf ? OSPREY_APP_PROTO_UNKNOWN : pf->named ? pf->named : pf->proto;
}

uint16_t osprey_parsers_app_proto_dir(struct mon_ctx *ctx, const struct mon_flow *f, int dir)
{
    struct pflow *pf = pflow_get(ctx, f);
    return pf && (dir == 0 || dir == 1) ? pf->dir_proto[dir] : OSPREY_APP_PROTO_UNKNOWN;
}

uint16_t osprey_parsers_app_proto_orig(struct mon_ctx *ctx, const struct mon_flow *f)
{
    struct pflow *pf = pflow_get(ctx, f);
    return pf ? pf->orig : OSPREY_APP_PROTO_UNKNOWN;
}

const uint8_t *osprey_parsers_buffer_at(struct mon_ctx *ctx, const struct mon_flow *f,
                                        uint16_t b, uint32_t i, struct osprey_scratch *s,
                                        uint32_t *len)
{
    *len = 0;
    struct pflow *pf = pflow_get(ctx, f);
    const struct osprey_parsers *p = pf ? pf->w->p : NULL;
    const struct proto_buffer *r = p && b < p->nbuf ? p->brow[b] : NULL;
    if (r) /* the flow's own protocol's row, or the guest's it carries */
        pf = pflow_of(pf, p->bproto[b]);
    if (!r || !pf || !pf->state || (i > 0 && !r->multi))
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
    if (r)
        pf = pflow_of(pf, p->fproto[fld]);
    if (!r || !pf || !pf->state)
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
