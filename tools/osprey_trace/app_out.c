/* app_out.c — osprey-trace --app: one JSON line per application event, with the buffers the
 * parsers expose under it (name → bytes, escaped so any byte survives JSON), so tests can
 * assert exact buffer contents. */
#include <stdlib.h>
#include <string.h>

#include "app_out.h"
#include "json_out.h"

struct trace_app {
    struct osprey_parsers *p;
    struct osprey_parsers_worker *w;
    FILE *out;
};

struct app_event {
    const char *name;
    enum osprey_buf bufs[24]; /* the buffers printed, OB__COUNT-terminated */
};

enum { AE_DETECTED, AE_HTTP_REQ, AE_HTTP_REQ_BODY, AE_HTTP_RESP, AE_HTTP_RESP_BODY, AE_DNS_Q,
       AE_DNS_R, AE_TLS_CH, AE_TLS_SH, AE_TLS_CERT, AE_TLS_CLIENT_CERT, AE__COUNT };

#define END OB__COUNT
static const struct app_event events[AE__COUNT] = {
    [AE_DETECTED] = {"app_detected", {END}},
    [AE_HTTP_REQ] = {"http_request",
                     {OB_HTTP_METHOD, OB_HTTP_URI, OB_HTTP_URI_RAW, OB_HTTP_REQUEST_LINE,
                      OB_HTTP_PROTOCOL, OB_HTTP_HEADER, OB_HTTP_HEADER_RAW, OB_HTTP_COOKIE,
                      OB_HTTP_USER_AGENT, OB_HTTP_HOST, OB_HTTP_HOST_RAW, OB_HTTP_REFERER,
                      OB_HTTP_CONTENT_TYPE, OB_HTTP_START, OB_HTTP_ACCEPT, OB_HTTP_ACCEPT_ENC,
                      OB_HTTP_ACCEPT_LANG, OB_HTTP_CONNECTION, OB_HTTP_CONTENT_LEN, END}},
    [AE_HTTP_REQ_BODY] = {"http_request_body", {OB_HTTP_REQUEST_BODY, END}},
    [AE_HTTP_RESP] = {"http_response",
                      {OB_HTTP_STAT_CODE, OB_HTTP_STAT_MSG, OB_HTTP_RESPONSE_LINE,
                       OB_HTTP_RESPONSE_HEADER, OB_HTTP_RESPONSE_HEADER_RAW,
                       OB_HTTP_RESPONSE_COOKIE, OB_HTTP_RESPONSE_CONTENT_TYPE, OB_HTTP_SERVER,
                       OB_HTTP_LOCATION, OB_HTTP_URI /* its request's, same tx */, END}},
    [AE_HTTP_RESP_BODY] = {"http_response_body", {OB_HTTP_RESPONSE_BODY, END}},
    [AE_DNS_Q] = {"dns_query", {OB_DNS_QUERY, END}},
    [AE_DNS_R] = {"dns_response", {OB_DNS_QUERY, END}},
    [AE_TLS_CH] = {"tls_client_hello",
                   {OB_TLS_SNI, OB_TLS_JA3_STRING, OB_TLS_JA3_HASH, OB_TLS_JA4, OB_TLS_VERSION,
                    OB_TLS_CLIENT_ALPN, OB_TLS_CLIENT_RANDOM, END}},
    [AE_TLS_SH] = {"tls_server_hello",
                   {OB_TLS_JA3S_STRING, OB_TLS_JA3S_HASH, OB_TLS_VERSION, OB_TLS_SERVER_ALPN,
                    OB_TLS_SERVER_RANDOM, END}},
    [AE_TLS_CERT] = {"tls_certificate",
                     {OB_TLS_CERT_SUBJECT, OB_TLS_CERT_ISSUER, OB_TLS_CERT_SERIAL,
                      OB_TLS_CERT_FINGERPRINT, OB_TLS_CERTS, OB_TLS_SAN, END}},
    [AE_TLS_CLIENT_CERT] = {"tls_client_certificate",
                            {OB_TLS_CERT_SUBJECT, OB_TLS_CERT_ISSUER, OB_TLS_CERT_SERIAL,
                             OB_TLS_CERT_FINGERPRINT, OB_TLS_CERTS, OB_TLS_SAN, END}},
};
#undef END

/* The DNS message's header and answers, as EVE's dns record names them. */
static json_t *dns_json(struct mon_ctx *ctx, const struct mon_flow *f)
{
    struct osprey_dns_info in;
    if (!osprey_parsers_dns_info(ctx, f, &in))
        return NULL;
    json_t *o = json_object(), *ans = json_array();
    json_object_set_new(o, "id", json_integer(in.id));
    json_object_set_new(o, "rcode", json_integer(in.rcode));
    json_object_set_new(o, "rrtype", json_integer(in.qtype));
    for (uint32_t i = 0; i < in.nanswers; i++) {
        const struct osprey_dns_rr *rr = &in.answers[i];
        json_t *a = json_object();
        json_object_set_new(a, "rrname", trace_app_bytes(rr->name, rr->name_len));
        json_object_set_new(a, "rrtype", json_integer(rr->type));
        json_object_set_new(a, "ttl", json_integer(rr->ttl));
        json_object_set_new(a, "rdata", trace_app_bytes(rr->rdata, rr->rdata_len));
        json_array_append_new(ans, a);
    }
    json_object_set_new(o, "answers", ans);
    return o;
}

json_t *trace_app_bytes(const uint8_t *d, uint32_t n)
{
    char *s = malloc((size_t)n * 4 + 1);
    if (!s)
        return json_null();
    size_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t c = d[i];
        if (c == '\\') {
            s[k++] = '\\';
            s[k++] = '\\';
        } else if (c >= 0x20 && c < 0x7f) {
            s[k++] = (char)c;
        } else {
            static const char hx[] = "0123456789abcdef";
            s[k++] = '\\';
            s[k++] = 'x';
            s[k++] = hx[c >> 4];
            s[k++] = hx[c & 15];
        }
    }
    json_t *j = json_stringn(s, k);
    free(s);
    return j;
}

static void on_app(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ev;
    const struct app_event *ae = arg;
    FILE *out = stdout;
    json_t *o = json_object();
    char ts[64];
    const struct mon_packet *p = mon_getlastpkt(ctx);
    trace_format_time(p ? p->ts_us : f->last_us, ts, sizeof ts);
    json_object_set_new(o, "timestamp", json_string(ts));
    json_object_set_new(o, "flow_id", json_integer((json_int_t)f->id));
    json_object_set_new(o, "event_type", json_string("app"));
    json_object_set_new(o, "event", json_string(ae->name));
    const char *proto = osprey_app_proto_name(osprey_parsers_app_proto(ctx, f));
    json_object_set_new(o, "app_proto", proto ? json_string(proto) : json_null());
    json_object_set_new(o, "direction", json_string(side == MON_SIDE_SVR ? "toserver" : "toclient"));
    json_object_set_new(o, "tx_id", json_integer(osprey_parsers_tx_id(ctx, f)));
    if (proto && !strcmp(proto, "http") && osprey_parsers_http_status(ctx, f))
        json_object_set_new(o, "status", json_integer(osprey_parsers_http_status(ctx, f)));
    json_t *bufs = json_object();
    for (const enum osprey_buf *b = ae->bufs; *b != OB__COUNT; b++) {
        uint32_t len;
        const uint8_t *d = osprey_parsers_buffer(ctx, f, *b, &len);
        if (d && osprey_buf_is_multi(*b)) { /* a multi-buffer: the list of its elements */
            json_t *all = json_array();
            for (uint32_t i = 0; (d = osprey_parsers_buffer_at(ctx, f, *b, i, &len)); i++)
                json_array_append_new(all, trace_app_bytes(d, len));
            json_object_set_new(bufs, osprey_buf_name(*b), all);
        } else if (d) {
            json_object_set_new(bufs, osprey_buf_name(*b), trace_app_bytes(d, len));
        }
    }
    struct osprey_tls_info ti;
    if (osprey_parsers_tls_info(ctx, f, &ti)) {
        json_t *t = json_object();
        json_object_set_new(t, "client_version", json_integer(ti.client_version));
        json_object_set_new(t, "server_version", json_integer(ti.server_version));
        json_object_set_new(t, "state", json_integer(ti.state));
        json_object_set_new(t, "last_state", json_integer(ti.last_state));
        json_object_set_new(t, "cert_chain_len", json_integer(ti.cert_chain_len));
        if (ti.has_validity) {
            json_object_set_new(t, "not_before", json_integer(ti.not_before));
            json_object_set_new(t, "not_after", json_integer(ti.not_after));
        }
        json_object_set_new(o, "tls", t);
    }
    json_t *dns = ae == &events[AE_DNS_Q] || ae == &events[AE_DNS_R] ? dns_json(ctx, f) : NULL;
    if (dns)
        json_object_set_new(o, "dns", dns);
    json_object_set_new(o, "buffers", bufs);
    trace_emit(out, o);
}

struct trace_app *trace_app_define(struct mon_engine *eng, const struct osprey_parsers_cfg *cfg,
                                   FILE *out)
{
    struct trace_app *a = calloc(1, sizeof *a);
    if (!a || osprey_parsers_define(eng, cfg, &a->p) != 0) {
        fprintf(stderr, "osprey-trace: cannot define the app-layer parsers\n");
        free(a);
        return NULL;
    }
    a->out = out;
    return a;
}

int trace_app_attach(struct trace_app *a, struct mon_ctx *ctx)
{
    if (!(a->w = osprey_parsers_attach(a->p, ctx)))
        return -1;
    const struct osprey_parser_events *e = osprey_parsers_events(a->p);
    const mon_event_t evs[AE__COUNT] = {
        e->app_detected, e->http_request, e->http_request_body, e->http_response,
        e->http_response_body, e->dns_query, e->dns_response, e->tls_client_hello,
        e->tls_server_hello, e->tls_certificate, e->tls_client_certificate};
    struct mon_sock *s = mon_socket(ctx, MON_SOCK_STREAM, NULL);
    if (!s)
        return -1;
    for (int i = 0; i < AE__COUNT; i++)
        if (mon_register(ctx, s, evs[i], MON_HK_ANY, on_app, (void *)&events[i]) != MON_OK)
            return -1;
    return 0;
}

const char *trace_app_proto(struct trace_app *a, struct mon_ctx *ctx, const struct mon_flow *f)
{
    return a ? osprey_app_proto_name(osprey_parsers_app_proto(ctx, f)) : NULL;
}

json_t *trace_app_stats_json(const struct trace_app *a)
{
    const struct osprey_parsers_stats *s = osprey_parsers_worker_stats(a->w);
    json_t *o = json_object(), *fl = json_object();
    for (int p = OSPREY_APP_HTTP; p < OSPREY_APP__COUNT; p++)
        json_object_set_new(fl, osprey_app_proto_name((enum osprey_app_proto)p),
                            json_integer((json_int_t)s->flows[p]));
    json_object_set_new(o, "flows", fl);
#define C(name) json_object_set_new(o, #name, json_integer((json_int_t)s->name))
    C(http_requests);
    C(http_responses);
    C(dns_messages);
    C(tls_handshakes);
    C(http_header_limit);
    C(http_body_limit);
    C(http_malformed);
    C(http_gzip_errors);
    C(http_tx_dropped);
    C(dns_malformed);
    C(tls_malformed);
    C(tls_limit);
#undef C
    return o;
}

void trace_app_free(struct trace_app *a)
{
    if (!a)
        return;
    osprey_parsers_worker_free(a->w);
    osprey_parsers_free(a->p);
    free(a);
}
