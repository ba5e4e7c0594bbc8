/* emit_app.c — application-layer objects from the parsers (parsers/include/osprey_parsers.h)
 * into EVE: http/dns/tls transaction records (the parsers' tx callback) and the same object in
 * alerts raised inside a transaction. */
#include <arpa/inet.h>
#include <string.h>
#include <strings.h>

#include "emit_int.h"
#include "flow_record.h"
#include "osprey_parsers.h"

static struct osprey_span buf(struct mon_ctx *ctx, const struct mon_flow *f, enum osprey_buf b)
{
    struct osprey_span s = {0};
    s.p = osprey_parsers_buffer(ctx, f, b, &s.n);
    if (!s.p)
        s.n = 0;
    return s;
}

/* The port an authority ("host:port", "[v6]:port") names, 0 when none or not a port. */
static int authority_port(struct osprey_span a)
{
    uint32_t i = a.n;
    while (i && a.p[i - 1] >= '0' && a.p[i - 1] <= '9')
        i--;
    if (i == a.n || i == 0 || a.p[i - 1] != ':' || a.n - i > 5)
        return 0;
    /* an IPv6 literal without brackets ("::1") names no port */
    if (a.p[0] != '[' && memchr(a.p, ':', i - 1))
        return 0;
    int port = 0;
    for (uint32_t k = i; k < a.n; k++)
        port = port * 10 + (a.p[k] - '0');
    return port <= 65535 ? port : 0;
}

/* Suricata's http_port: from the request target when it names an authority (absolute form
 * "http://host:port/…" or CONNECT's "host:port"), else from the Host header. */
static int request_port(struct osprey_span url, struct osprey_span method, struct osprey_span host)
{
    static const char connect[] = "CONNECT";
    const uint8_t *sep = url.n > 3 && url.p[0] != '/' ? memmem(url.p, url.n, "://", 3) : NULL;
    if (sep) {
        const uint8_t *auth = sep + 3, *end = url.p + url.n;
        const uint8_t *slash = memchr(auth, '/', (size_t)(end - auth));
        return authority_port((struct osprey_span){auth, (uint32_t)((slash ? slash : end) - auth)});
    }
    if (method.n == sizeof connect - 1 && !memcmp(method.p, connect, method.n))
        return authority_port(url);
    return authority_port(host);
}

/* EVE's hostname keeps the case it was sent in (Suricata logs libhtp's request hostname;
 * the http.host buffer is lower case): the Host header's own bytes when it names the same
 * host, else the buffer. */
static struct osprey_span hostname(struct osprey_span host, struct osprey_span raw)
{
    if (raw.n >= host.n && host.n &&
        !strncasecmp((const char *)raw.p, (const char *)host.p, host.n))
        return (struct osprey_span){raw.p, host.n};
    return host;
}

/* The parser's records as EVE's (at most OSPREY_EVE_DNS_MAX_ANSWERS); returns how many. */
static uint32_t dns_rrs(const struct osprey_dns_rr *in, uint32_t n, struct osprey_eve_dns_rr *out)
{
    if (n > OSPREY_EVE_DNS_MAX_ANSWERS)
        n = OSPREY_EVE_DNS_MAX_ANSWERS;
    for (uint32_t i = 0; i < n; i++)
        out[i] = (struct osprey_eve_dns_rr){
            .rrname = {in[i].name, in[i].name_len},
            .rdata = {in[i].rdata, in[i].rdata_len},
            .rrtype = in[i].type,
            .ttl = in[i].ttl,
            .has_soa = in[i].has_soa,
            .mname = {in[i].soa.mname, in[i].soa.mname_len},
            .rname = {in[i].soa.rname, in[i].soa.rname_len},
            .serial = in[i].soa.serial,
            .refresh = in[i].soa.refresh,
            .retry = in[i].soa.retry,
            .expire = in[i].soa.expire,
            .minimum = in[i].soa.minimum,
        };
    return n;
}

/* Fill each span of to[] with the buffer of the same index in from[]; true when any has
 * bytes. */
static bool fill_spans(struct mon_ctx *ctx, const struct mon_flow *f,
                       struct osprey_span *const *to, const enum osprey_buf *from, size_t n)
{
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        *to[i] = buf(ctx, f, from[i]);
        any |= to[i]->n != 0;
    }
    return any;
}

bool osprey_emit_fill_app(struct mon_ctx *ctx, const struct mon_flow *f,
                          struct osprey_eve_app *out)
{
    memset(out, 0, sizeof *out);
    switch (osprey_parsers_app_proto(ctx, f)) {
    case OSPREY_APP_HTTP: {
        static const enum osprey_buf from[] = {
            OB_HTTP_URI_RAW, OB_HTTP_USER_AGENT, OB_HTTP_RESPONSE_CONTENT_TYPE, OB_HTTP_REFERER,
            OB_HTTP_METHOD, OB_HTTP_PROTOCOL, OB_HTTP_LOCATION,
        };
        struct osprey_span *const to[] = {
            &out->http.url, &out->http.user_agent, &out->http.content_type, &out->http.refer,
            &out->http.method, &out->http.protocol, &out->http.redirect,
        };
        out->kind = OSPREY_EVE_APP_HTTP;
        fill_spans(ctx, f, to, from, sizeof from / sizeof from[0]);
        out->http.hostname = hostname(buf(ctx, f, OB_HTTP_HOST), buf(ctx, f, OB_HTTP_HOST_RAW));
        out->http.status = osprey_parsers_http_status(ctx, f);
        out->http.port = request_port(out->http.url, out->http.method,
                                      buf(ctx, f, OB_HTTP_HOST_RAW));
        out->http.length = osprey_parsers_http_response_length(ctx, f);
        return out->http.method.n || out->http.url.n; /* a request was seen */
    }
    case OSPREY_APP_DNS: {
        struct osprey_dns_info di;
        if (!osprey_parsers_dns_info(ctx, f, &di))
            return false;
        out->kind = OSPREY_EVE_APP_DNS;
        out->dns.response = di.response;
        out->dns.tx_id = osprey_parsers_tx_id(ctx, f);
        out->dns.id = di.id;
        out->dns.flags = di.flags;
        out->dns.rcode = di.rcode;
        out->dns.rrname = buf(ctx, f, OB_DNS_QUERY);
        out->dns.rrtype = di.qtype;
        out->dns.nanswers = dns_rrs(di.answers, di.nanswers, out->dns.answers);
        out->dns.nauthorities = dns_rrs(di.authorities, di.nauthorities, out->dns.authorities);
        return true;
    }
    case OSPREY_APP_TLS: {
        static const enum osprey_buf from[] = {
            OB_TLS_CERT_SUBJECT, OB_TLS_CERT_ISSUER, OB_TLS_CERT_SERIAL, OB_TLS_CERT_FINGERPRINT,
            OB_TLS_SNI, OB_TLS_VERSION, OB_TLS_JA3_HASH, OB_TLS_JA3_STRING, OB_TLS_JA3S_HASH,
            OB_TLS_JA3S_STRING,
        };
        struct osprey_span *const to[] = {
            &out->tls.subject, &out->tls.issuerdn, &out->tls.serial, &out->tls.fingerprint,
            &out->tls.sni, &out->tls.version, &out->tls.ja3_hash, &out->tls.ja3_string,
            &out->tls.ja3s_hash, &out->tls.ja3s_string,
        };
        out->kind = OSPREY_EVE_APP_TLS;
        return fill_spans(ctx, f, to, from, sizeof from / sizeof from[0]);
    }
    default:
        return false;
    }
}

void osprey_emit_tx(struct osprey_emit *e, struct mon_ctx *ctx, struct mon_flow *f, int proto)
{
    if (proto < 0 || proto >= OSPREY_APP__COUNT || !e->tx[proto])
        return; /* no sink takes this protocol's transactions */
    struct osprey_eve_app app;
    if (!osprey_emit_fill_app(ctx, f, &app))
        return;
    char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], pn[8], cid[48];
    osprey_addr_str(&f->cli, f->ipver, src, sizeof src);
    osprey_addr_str(&f->srv, f->ipver, dst, sizeof dst);
    const struct mon_packet *p = mon_getlastpkt(ctx);
    bool ports = f->proto == 6 || f->proto == 17;
    struct osprey_eve_tx t = {
        .ts_us = p ? p->ts_us : f->last_us,
        .flow_id = f->id,
        .pcap_cnt = p ? p->num : 0,
        .src_ip = src,
        .dest_ip = dst,
        .src_port = ports ? f->cport : -1,
        .dest_port = ports ? f->sport : -1,
        .proto = osprey_proto_name(f->proto, pn, sizeof pn),
        .tx_id = osprey_parsers_tx_id(ctx, f), /* written for HTTP only (eve_app.c) */
        .app = &app,
    };
    if (e->community_id) {
        osprey_community_id(e->cid_seed, f->cli.b, f->srv.b, f->ipver == 6 ? 16 : 4, f->proto,
                            f->cport, f->sport, cid, sizeof cid);
        t.community_id = cid;
    }
    EMIT_EACH_SINK(e, OSPREY_REC_TX, k)
        if (k->tx[proto])
            k->def->tx(k->s, &t);
}
