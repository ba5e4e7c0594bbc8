/* flow.c — a flow's parser state (in a libmon per-flow slot), running app events, and the
 * accessors users call from their filters and handlers. */
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
    http_free(pf->http);
    dns_free(pf->dns);
    tls_free(pf->tls);
    free(pf);
}

void pflow_run(struct pflow *pf, struct mon_flow *f, int dir, mon_event_t ev)
{
    if (f->forest) /* a flow already released has no events left to run */
        mon_run_event(pf->w->ctx, f, SIDE_OF_DIR(dir), ev);
}

void pflow_decide(struct pflow *pf, struct mon_flow *f, int dir, enum osprey_app_proto p)
{
    pf->proto = (uint8_t)p;
    pf->w->st.flows[p]++;
    pflow_run(pf, f, dir, pf->w->p->ev.app_detected);
}

void pflow_anomaly(struct pflow *pf, struct mon_flow *f, int dir, enum osprey_app_event e)
{
    int16_t saved = pf->anomaly; /* (a rule's handler cannot raise another, but be safe) */
    pf->anomaly = (int16_t)e;
    pflow_run(pf, f, dir, pf->w->p->ev.app_anomaly);
    pf->anomaly = saved;
}

int osprey_parsers_anomaly(struct mon_ctx *ctx, const struct mon_flow *f)
{
    const struct pflow *pf = f ? pflow_get(ctx, f) : NULL;
    return pf ? pf->anomaly : -1;
}

void pflow_tx_done(struct pflow *pf, struct mon_flow *f, enum osprey_app_proto p)
{
    if (pf->w->tx_fn)
        pf->w->tx_fn(pf->w->ctx, f, p, pf->w->tx_arg);
}

enum osprey_app_proto buf_proto(enum osprey_buf b)
{
    if (b <= OB_HTTP_RESPONSE_BODY || (b >= OB_HTTP_START && b <= OB_HTTP_LOCATION))
        return OSPREY_APP_HTTP;
    return b == OB_DNS_QUERY || b == OB_DNS_PDU ? OSPREY_APP_DNS : OSPREY_APP_TLS;
}

bool buf_is_response(enum osprey_buf b)
{
    return (b >= OB_HTTP_STAT_CODE && b <= OB_HTTP_RESPONSE_BODY) || b == OB_HTTP_SERVER ||
           b == OB_HTTP_LOCATION;
}

bool osprey_parsers_dns_info(struct mon_ctx *ctx, const struct mon_flow *f,
                             struct osprey_dns_info *out)
{
    struct pflow *pf = pflow_get(ctx, f);
    return pf && pf->proto == OSPREY_APP_DNS && dns_info(pf, out);
}

enum osprey_app_proto osprey_parsers_app_proto(struct mon_ctx *ctx, const struct mon_flow *f)
{
    struct pflow *pf = pflow_get(ctx, f);
    return pf ? (enum osprey_app_proto)pf->proto : OSPREY_APP_UNKNOWN;
}

const uint8_t *osprey_parsers_buffer(struct mon_ctx *ctx, const struct mon_flow *f,
                                     enum osprey_buf b, uint32_t *len)
{
    *len = 0;
    struct pflow *pf = pflow_get(ctx, f);
    if (!pf || (unsigned)b >= OB__COUNT)
        return NULL;
    const uint8_t *r = NULL;
    switch (buf_proto(b)) {
    case OSPREY_APP_HTTP: r = pf->proto == OSPREY_APP_HTTP ? http_buffer(pf, b, len) : NULL; break;
    case OSPREY_APP_DNS: r = pf->proto == OSPREY_APP_DNS ? dns_buffer(pf, b, len) : NULL; break;
    default: r = pf->proto == OSPREY_APP_TLS ? tls_buffer(pf, b, len) : NULL; break;
    }
    if (!r)
        *len = 0;
    return r;
}

bool osprey_buf_is_multi(enum osprey_buf b)
{
    switch (b) {
    case OB_TLS_CERTS:
    case OB_TLS_SAN:
    case OB_TLS_CLIENT_ALPN:
    case OB_TLS_SERVER_ALPN:
        return true;
    default:
        return false;
    }
}

const uint8_t *osprey_parsers_buffer_at(struct mon_ctx *ctx, const struct mon_flow *f,
                                        enum osprey_buf b, uint32_t i, uint32_t *len)
{
    *len = 0;
    if (!osprey_buf_is_multi(b))
        return i == 0 ? osprey_parsers_buffer(ctx, f, b, len) : NULL;
    struct pflow *pf = pflow_get(ctx, f);
    const uint8_t *r = pf && pf->proto == OSPREY_APP_TLS ? tls_buffer_at(pf, b, i, len) : NULL;
    if (!r)
        *len = 0;
    return r;
}

bool osprey_parsers_tls_info(struct mon_ctx *ctx, const struct mon_flow *f,
                             struct osprey_tls_info *out)
{
    struct pflow *pf = pflow_get(ctx, f);
    return pf && pf->proto == OSPREY_APP_TLS && tls_info(pf, out);
}

int osprey_parsers_http_status(struct mon_ctx *ctx, const struct mon_flow *f)
{
    struct pflow *pf = pflow_get(ctx, f);
    return pf && pf->proto == OSPREY_APP_HTTP ? http_status(pf) : 0;
}

uint64_t osprey_parsers_http_response_length(struct mon_ctx *ctx, const struct mon_flow *f)
{
    struct pflow *pf = pflow_get(ctx, f);
    return pf && pf->proto == OSPREY_APP_HTTP ? http_response_wire_len(pf) : 0;
}

uint32_t osprey_parsers_tx_id(struct mon_ctx *ctx, const struct mon_flow *f)
{
    struct pflow *pf = pflow_get(ctx, f);
    if (!pf)
        return 0;
    if (pf->proto == OSPREY_APP_HTTP)
        return http_tx_id(pf);
    if (pf->proto == OSPREY_APP_DNS)
        return dns_tx_id(pf);
    return 0;
}
