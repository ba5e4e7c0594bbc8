/* emit_app.c — application-layer objects from the parsers (parsers/include/osprey_parsers.h)
 * into EVE: http/dns/tls transaction records (the parsers' tx callback) and the same object in
 * alerts raised inside a transaction. */
#include <arpa/inet.h>
#include <string.h>

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

static bool any_span(const struct osprey_span *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i].n)
            return true;
    return false;
}

bool osprey_emit_fill_app(struct mon_ctx *ctx, const struct mon_flow *f,
                          struct osprey_eve_app *out)
{
    memset(out, 0, sizeof *out);
    switch (osprey_parsers_app_proto(ctx, f)) {
    case OSPREY_APP_HTTP: {
        out->kind = OSPREY_EVE_APP_HTTP;
        out->http.hostname = buf(ctx, f, OB_HTTP_HOST);
        out->http.url = buf(ctx, f, OB_HTTP_URI_RAW);
        out->http.user_agent = buf(ctx, f, OB_HTTP_USER_AGENT);
        out->http.content_type = buf(ctx, f, OB_HTTP_RESPONSE_CONTENT_TYPE);
        out->http.refer = buf(ctx, f, OB_HTTP_REFERER);
        out->http.method = buf(ctx, f, OB_HTTP_METHOD);
        out->http.protocol = buf(ctx, f, OB_HTTP_PROTOCOL);
        out->http.redirect = buf(ctx, f, OB_HTTP_LOCATION);
        out->http.status = osprey_parsers_http_status(ctx, f);
        out->http.length = buf(ctx, f, OB_HTTP_RESPONSE_BODY).n;
        return out->http.method.n || out->http.url.n; /* a request was seen */
    }
    case OSPREY_APP_DNS: {
        struct osprey_dns_info di;
        if (!osprey_parsers_dns_info(ctx, f, &di))
            return false;
        out->kind = OSPREY_EVE_APP_DNS;
        out->dns.response = di.response;
        out->dns.id = di.id;
        out->dns.flags = di.flags;
        out->dns.rcode = di.rcode;
        out->dns.rrname = buf(ctx, f, OB_DNS_QUERY);
        out->dns.rrtype = di.qtype;
        uint32_t n = di.nanswers < OSPREY_EVE_DNS_MAX_ANSWERS ? di.nanswers
                                                              : OSPREY_EVE_DNS_MAX_ANSWERS;
        out->dns.nanswers = n;
        for (uint32_t i = 0; i < n; i++) {
            out->dns.answers[i].rrname = (struct osprey_span){di.answers[i].name,
                                                              di.answers[i].name_len};
            out->dns.answers[i].rdata = (struct osprey_span){di.answers[i].rdata,
                                                             di.answers[i].rdata_len};
            out->dns.answers[i].rrtype = di.answers[i].type;
            out->dns.answers[i].ttl = di.answers[i].ttl;
        }
        return true;
    }
    case OSPREY_APP_TLS: {
        out->kind = OSPREY_EVE_APP_TLS;
        out->tls.subject = buf(ctx, f, OB_TLS_CERT_SUBJECT);
        out->tls.issuerdn = buf(ctx, f, OB_TLS_CERT_ISSUER);
        out->tls.serial = buf(ctx, f, OB_TLS_CERT_SERIAL);
        out->tls.fingerprint = buf(ctx, f, OB_TLS_CERT_FINGERPRINT);
        out->tls.sni = buf(ctx, f, OB_TLS_SNI);
        out->tls.version = buf(ctx, f, OB_TLS_VERSION);
        out->tls.ja3_hash = buf(ctx, f, OB_TLS_JA3_HASH);
        out->tls.ja3_string = buf(ctx, f, OB_TLS_JA3_STRING);
        out->tls.ja3s_hash = buf(ctx, f, OB_TLS_JA3S_HASH);
        out->tls.ja3s_string = buf(ctx, f, OB_TLS_JA3S_STRING);
        return any_span(&out->tls.subject, 10);
    }
    default:
        return false;
    }
}

void osprey_emit_tx(struct osprey_emit *e, struct mon_ctx *ctx, struct mon_flow *f, int proto)
{
    bool want = (proto == OSPREY_APP_HTTP && e->eve_http) ||
                (proto == OSPREY_APP_DNS && e->eve_dns) || (proto == OSPREY_APP_TLS && e->eve_tls);
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
        /* HTTP numbers its transactions; a DNS or TLS record is the flow's message */
        .tx_id = proto == OSPREY_APP_HTTP ? osprey_parsers_tx_id(ctx, f) : 0,
        .app = &app,
    };
    if (e->community_id) {
        osprey_community_id(e->cid_seed, f->cli.b, f->srv.b, f->ipver == 6 ? 16 : 4, f->proto,
                            f->cport, f->sport, cid, sizeof cid);
        t.community_id = cid;
    }
    osprey_emit_line(e->eve, osprey_eve_tx_line(&t));
}
