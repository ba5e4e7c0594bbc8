/* define.c — the parsers as a UDE library: configuration defaults, names, defining the
 * events on an engine, attaching a worker to a context, counters.
 *
 * Event layout (mon.h's d-forest):
 *   PKT_IN ── app_root (filter: parse UDP datagrams; never fires by itself)
 *                └─ app_detected, http_request, …, tls_certificate (raise-only children,
 *                   run with mon_run_event once per message)
 *   CONN_NEW_DATA ── tcp_data (filter: read new stream bytes, detect, parse)
 *   CONN_END ── tcp_end (filter: finish what only the end of the flow completes)
 * Every app event hangs under one parent, so a user's UDE under http_request is found the
 * same way whether TCP or UDP parsing ran it. */
#include <stdlib.h>
#include <string.h>

#include "parsers_int.h"

bool parsers_udp_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                        void *arg);
bool parsers_tcp_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                        void *arg);
bool parsers_end_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                        void *arg);

void osprey_parsers_cfg_defaults(struct osprey_parsers_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->http_header_limit = 32768;
    cfg->http_request_body_limit = 1u << 20;
    cfg->http_response_body_limit = 1u << 20;
    cfg->http_decompress = true;
    cfg->http_decompress_layer_limit = 2;
    cfg->http_lzma_memlimit = 1u << 20;
}

const char *osprey_app_event_name(enum osprey_app_event e)
{
    static const char *const N[OSPREY_AE__COUNT] = {
#define OSPREY_X_NAME(e, name) [OSPREY_AE_##e] = name,
        OSPREY_APP_EVENTS(OSPREY_X_NAME)
#undef OSPREY_X_NAME
    };
    return (unsigned)e < OSPREY_AE__COUNT ? N[e] : NULL;
}

const char *osprey_app_proto_name(enum osprey_app_proto p)
{
    switch (p) {
    case OSPREY_APP_HTTP: return "http";
    case OSPREY_APP_DNS: return "dns";
    case OSPREY_APP_TLS: return "tls";
    case OSPREY_APP_FAILED: return "failed";
    default: return NULL;
    }
}

const char *osprey_buf_name(enum osprey_buf b)
{
    static const char *const names[OB__COUNT] = {
        [OB_HTTP_METHOD] = "http.method",
        [OB_HTTP_URI] = "http.uri",
        [OB_HTTP_URI_RAW] = "http.uri.raw",
        [OB_HTTP_REQUEST_LINE] = "http.request_line",
        [OB_HTTP_PROTOCOL] = "http.protocol",
        [OB_HTTP_HEADER] = "http.header",
        [OB_HTTP_HEADER_RAW] = "http.header.raw",
        [OB_HTTP_COOKIE] = "http.cookie",
        [OB_HTTP_USER_AGENT] = "http.user_agent",
        [OB_HTTP_HOST] = "http.host",
        [OB_HTTP_HOST_RAW] = "http.host.raw",
        [OB_HTTP_REFERER] = "http.referer",
        [OB_HTTP_CONTENT_TYPE] = "http.content_type",
        [OB_HTTP_REQUEST_BODY] = "http.request_body",
        [OB_HTTP_STAT_CODE] = "http.stat_code",
        [OB_HTTP_STAT_MSG] = "http.stat_msg",
        [OB_HTTP_RESPONSE_LINE] = "http.response_line",
        [OB_HTTP_RESPONSE_HEADER] = "http.response_header",
        [OB_HTTP_RESPONSE_HEADER_RAW] = "http.response_header.raw",
        [OB_HTTP_RESPONSE_COOKIE] = "http.response_cookie",
        [OB_HTTP_RESPONSE_CONTENT_TYPE] = "http.response_content_type",
        [OB_HTTP_RESPONSE_BODY] = "http.response_body",
        [OB_DNS_QUERY] = "dns.query",
        [OB_TLS_SNI] = "tls.sni",
        [OB_TLS_JA3_STRING] = "ja3.string",
        [OB_TLS_JA3_HASH] = "ja3.hash",
        [OB_TLS_JA4] = "ja4.hash",
        [OB_TLS_JA3S_STRING] = "ja3s.string",
        [OB_TLS_JA3S_HASH] = "ja3s.hash",
        [OB_TLS_CERT_SUBJECT] = "tls.cert_subject",
        [OB_TLS_CERT_ISSUER] = "tls.cert_issuer",
        [OB_TLS_CERT_SERIAL] = "tls.cert_serial",
        [OB_TLS_VERSION] = "tls.version",
        [OB_TLS_CERT_FINGERPRINT] = "tls.cert_fingerprint",
        [OB_TLS_CERTS] = "tls.certs",
        [OB_TLS_SAN] = "tls.subjectaltname",
        [OB_TLS_CLIENT_ALPN] = "tls.alpn",
        [OB_TLS_SERVER_ALPN] = "tls.alpn.server",
        [OB_TLS_CLIENT_RANDOM] = "tls.random",
        [OB_TLS_SERVER_RANDOM] = "tls.random.server",
        [OB_HTTP_START] = "http.start",
        [OB_HTTP_ACCEPT] = "http.accept",
        [OB_HTTP_ACCEPT_ENC] = "http.accept_enc",
        [OB_HTTP_ACCEPT_LANG] = "http.accept_lang",
        [OB_HTTP_CONNECTION] = "http.connection",
        [OB_HTTP_CONTENT_LEN] = "http.content_len",
        [OB_HTTP_SERVER] = "http.server",
        [OB_HTTP_LOCATION] = "http.location",
        [OB_DNS_PDU] = "frame:dns.pdu",
    };
    return (unsigned)b < OB__COUNT ? names[b] : NULL;
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
    struct osprey_parsers *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    if (cfg)
        p->cfg = *cfg;
    else
        osprey_parsers_cfg_defaults(&p->cfg);
    int64_t root = mon_define_event(eng, MON_ON_PKT_IN, parsers_udp_filter, p);
    int64_t data = mon_define_event(eng, MON_ON_CONN_NEW_DATA, parsers_tcp_filter, p);
    int64_t end = mon_define_event(eng, MON_ON_CONN_END, parsers_end_filter, p);
    p->slot = mon_uctx_slot_alloc(eng, pflow_free_slot, p);
    if (root < 0 || data < 0 || end < 0 || p->slot < 0)
        goto fail;
    p->app_root = (mon_event_t)root;
    p->tcp_data = (mon_event_t)data;
    p->tcp_end = (mon_event_t)end;
    struct osprey_parser_events *e = &p->ev;
    mon_event_t *evs[] = {&e->app_detected, &e->http_request, &e->http_request_body,
                          &e->http_response, &e->http_response_body, &e->dns_query,
                          &e->dns_response, &e->tls_client_hello, &e->tls_server_hello,
                          &e->tls_certificate, &e->tls_client_certificate,
                          &e->app_anomaly, &e->http_request_done, &e->http_response_done};
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++)
        if (child(eng, p->app_root, evs[i]))
            goto fail;
    *out = p;
    return 0;
fail:
    free(p);
    return -1;
}

const struct osprey_parser_events *osprey_parsers_events(const struct osprey_parsers *p)
{
    return &p->ev;
}

void osprey_parsers_free(struct osprey_parsers *p)
{
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
    return w;
}

void osprey_parsers_worker_free(struct osprey_parsers_worker *w)
{
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
