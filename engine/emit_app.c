/* emit_app.c — application-layer objects from the parsers (parsers/include/osprey_parsers.h)
 * into EVE: http/dns/tls transaction records (the parsers' tx callback) and the same object in
 * alerts raised inside a transaction. */
#include <arpa/inet.h>
#include <string.h>
#include <strings.h>

#include "emit_int.h"
#include "flow_record.h"
#include "osprey_parsers.h"
#include "osprey_parsers_dns.h"

/* The parsers' buffer a record shows under that name (dir: 0 the request's, 1 the
 * response's). */
static struct osprey_span buf(struct mon_ctx *ctx, const struct mon_flow *f, const char *name,
                              int dir)
{
    struct osprey_span s = {0};
    int b = osprey_buffer_find_record(name, dir);
    if (b >= 0)
        s.p = osprey_parsers_buffer(ctx, f, (uint16_t)b, &s.n);
    if (!s.p)
        s.n = 0;
    return s;
}

/* Field name of the current transaction, 0 when absent. */
static int64_t field(struct mon_ctx *ctx, const struct mon_flow *f, const char *name)
{
    int64_t v = 0;
    int id = osprey_field_find(name);
    if (id < 0 || !osprey_parsers_field_at(ctx, f, (uint16_t)id, 0, &v))
        return 0;
    return v;
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
                       struct osprey_span *const *to, const char *const *from, int dir, size_t n)
{
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        *to[i] = buf(ctx, f, from[i], dir);
        any |= to[i]->n != 0;
    }
    return any;
}

bool osprey_emit_fill_app(struct mon_ctx *ctx, const struct mon_flow *f,
                          struct osprey_eve_app *out)
{
    memset(out, 0, sizeof *out);
    const char *proto = osprey_app_proto_name(osprey_parsers_app_proto(ctx, f));
    if (!proto)
        return false;
    if (!strcmp(proto, "http")) {
        static const char *const from[] = {
            "http.uri.raw", "http.user_agent", "http.response_content_type", "http.referer",
            "http.method", "http.protocol", "http.location",
        };
        static const int dir[] = {0, 0, 1, 0, 0, 0, 1};
        struct osprey_span *const to[] = {
            &out->http.url, &out->http.user_agent, &out->http.content_type, &out->http.refer,
            &out->http.method, &out->http.protocol, &out->http.redirect,
        };
        out->kind = OSPREY_EVE_APP_HTTP;
        for (size_t i = 0; i < sizeof from / sizeof from[0]; i++)
            fill_spans(ctx, f, &to[i], &from[i], dir[i], 1);
        out->http.hostname =
            hostname(buf(ctx, f, "http.host", 0), buf(ctx, f, "http.host.raw", 0));
        out->http.status = (int)field(ctx, f, "http.status");
        out->http.port = request_port(out->http.url, out->http.method,
                                      buf(ctx, f, "http.host.raw", 0));
        out->http.length = (uint64_t)field(ctx, f, "http.response_length");
        return out->http.method.n || out->http.url.n; /* a request was seen */
    }
    if (!strcmp(proto, "dns")) {
        struct osprey_dns_info di;
        if (!osprey_parsers_dns_info(ctx, f, &di))
            return false;
        out->kind = OSPREY_EVE_APP_DNS;
        out->dns.response = di.response;
        out->dns.tx_id = osprey_parsers_tx_id(ctx, f);
        out->dns.id = di.id;
        out->dns.flags = di.flags;
        out->dns.rcode = di.rcode;
        out->dns.rrname = buf(ctx, f, "dns.query", 0);
        out->dns.rrtype = di.qtype;
        out->dns.nanswers = dns_rrs(di.answers, di.nanswers, out->dns.answers);
        out->dns.nauthorities = dns_rrs(di.authorities, di.nauthorities, out->dns.authorities);
        return true;
    }
    if (!strcmp(proto, "tls")) {
        static const char *const from[] = {
            "tls.cert_subject", "tls.cert_issuer", "tls.cert_serial", "tls.cert_fingerprint",
            "tls.sni", "tls.version", "ja3.hash", "ja3.string", "ja3s.hash", "ja3s.string",
        };
        struct osprey_span *const to[] = {
            &out->tls.subject, &out->tls.issuerdn, &out->tls.serial, &out->tls.fingerprint,
            &out->tls.sni, &out->tls.version, &out->tls.ja3_hash, &out->tls.ja3_string,
            &out->tls.ja3s_hash, &out->tls.ja3s_string,
        };
        out->kind = OSPREY_EVE_APP_TLS;
        return fill_spans(ctx, f, to, from, 1, sizeof from / sizeof from[0]);
    }
    return false;
}

void osprey_emit_tx(struct osprey_emit *e, struct mon_ctx *ctx, struct mon_flow *f, int proto)
{
    bool want = osprey_app_proto_set_has(&e->eve_app, (uint16_t)proto);
    if (!e->eve || !want)
        return;
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
    osprey_emit_line(e->eve, osprey_eve_tx_line(&t));
}
