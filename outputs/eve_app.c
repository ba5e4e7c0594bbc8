/* eve_app.c — EVE http, dns and tls objects (Suricata's keys: http{hostname, url,
 * http_user_agent, http_content_type, http_refer, http_method, protocol, status, redirect,
 * length}, dns version 2 {type, id, flags, qr, rd, ra, opcode, rrname, rrtype, rcode, answers},
 * tls{subject, issuerdn, serial, fingerprint, sni, version, ja3, ja3s}), alone as a
 * transaction record or inside an alert. */
#include <stdio.h>

#include "eve_json.h"
#include "osprey_outputs.h"

static void span(struct jw *w, const char *key, struct osprey_span s)
{
    if (s.n)
        jw_strn(w, key, s.p, s.n);
}

static void http_object(struct jw *w, const struct osprey_eve_app *a)
{
    jw_open(w, "http");
    span(w, "hostname", a->http.hostname);
    span(w, "url", a->http.url);
    span(w, "http_user_agent", a->http.user_agent);
    span(w, "http_content_type", a->http.content_type);
    span(w, "http_refer", a->http.refer);
    span(w, "http_method", a->http.method);
    span(w, "protocol", a->http.protocol);
    if (a->http.status)
        jw_int(w, "status", a->http.status);
    span(w, "redirect", a->http.redirect);
    jw_int(w, "length", (int64_t)a->http.length);
    jw_close(w);
}

static void rrtype(struct jw *w, const char *key, uint16_t t)
{
    static const struct { uint16_t t; const char *name; } names[] = {
        {1, "A"}, {2, "NS"}, {5, "CNAME"}, {6, "SOA"}, {12, "PTR"}, {15, "MX"}, {16, "TXT"},
        {28, "AAAA"}, {33, "SRV"}, {35, "NAPTR"}, {43, "DS"}, {46, "RRSIG"}, {48, "DNSKEY"},
        {64, "SVCB"}, {65, "HTTPS"}, {255, "ANY"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].t == t) {
            jw_str(w, key, names[i].name);
            return;
        }
    char num[8];
    snprintf(num, sizeof num, "%u", t); /* Suricata writes unnamed types as their number */
    jw_str(w, key, num);
}

static void dns_object(struct jw *w, const struct osprey_eve_app *a)
{
    static const char *const rcodes[] = {"NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN",
                                         "NOTIMP", "REFUSED"};
    uint16_t fl = a->dns.flags;
    jw_open(w, "dns");
    if (a->dns.response) {
        jw_int(w, "version", 2);
        jw_str(w, "type", "answer");
    } else {
        jw_str(w, "type", "query");
    }
    jw_int(w, "id", a->dns.id);
    if (a->dns.response) {
        char hex[8];
        snprintf(hex, sizeof hex, "%04x", fl);
        jw_str(w, "flags", hex);
        jw_bool(w, "qr", true);
        if (fl & 0x0400)
            jw_bool(w, "aa", true);
        if (fl & 0x0200)
            jw_bool(w, "tc", true);
        if (fl & 0x0100)
            jw_bool(w, "rd", true);
        if (fl & 0x0080)
            jw_bool(w, "ra", true);
    }
    span(w, "rrname", a->dns.rrname);
    rrtype(w, "rrtype", a->dns.rrtype);
    jw_int(w, "opcode", (fl >> 11) & 0xf);
    if (a->dns.response) {
        uint8_t rc = a->dns.rcode;
        if (rc < sizeof rcodes / sizeof rcodes[0]) {
            jw_str(w, "rcode", rcodes[rc]);
        } else {
            char num[8];
            snprintf(num, sizeof num, "%u", rc);
            jw_str(w, "rcode", num);
        }
        if (a->dns.nanswers) {
            jw_array(w, "answers");
            for (uint32_t i = 0; i < a->dns.nanswers && i < OSPREY_EVE_DNS_MAX_ANSWERS; i++) {
                jw_open(w, NULL);
                span(w, "rrname", a->dns.answers[i].rrname);
                rrtype(w, "rrtype", a->dns.answers[i].rrtype);
                jw_int(w, "ttl", a->dns.answers[i].ttl);
                span(w, "rdata", a->dns.answers[i].rdata);
                jw_close(w);
            }
            jw_array_end(w);
        }
    }
    jw_close(w);
}

static void hash_pair(struct jw *w, const char *key, struct osprey_span hash,
                      struct osprey_span str)
{
    if (!hash.n)
        return;
    jw_open(w, key);
    span(w, "hash", hash);
    span(w, "string", str);
    jw_close(w);
}

static void tls_object(struct jw *w, const struct osprey_eve_app *a)
{
    jw_open(w, "tls");
    span(w, "subject", a->tls.subject);
    span(w, "issuerdn", a->tls.issuerdn);
    span(w, "serial", a->tls.serial);
    span(w, "fingerprint", a->tls.fingerprint);
    span(w, "sni", a->tls.sni);
    span(w, "version", a->tls.version);
    hash_pair(w, "ja3", a->tls.ja3_hash, a->tls.ja3_string);
    hash_pair(w, "ja3s", a->tls.ja3s_hash, a->tls.ja3s_string);
    jw_close(w);
}

const char *osprey_eve_app_write(struct jw *w, const struct osprey_eve_app *app)
{
    if (!app)
        return NULL;
    switch (app->kind) {
    case OSPREY_EVE_APP_HTTP: http_object(w, app); return "http";
    case OSPREY_EVE_APP_DNS: dns_object(w, app); return "dns";
    case OSPREY_EVE_APP_TLS: tls_object(w, app); return "tls";
    default: return NULL;
    }
}

static const char *app_name(const struct osprey_eve_app *app)
{
    switch (app ? app->kind : OSPREY_EVE_APP_NONE) {
    case OSPREY_EVE_APP_HTTP: return "http";
    case OSPREY_EVE_APP_DNS: return "dns";
    case OSPREY_EVE_APP_TLS: return "tls";
    default: return NULL;
    }
}

char *osprey_eve_tx_line(const struct osprey_eve_tx *t)
{
    const char *name = app_name(t->app);
    if (!name)
        return NULL;
    struct jw w;
    jw_init(&w);
    jw_open(&w, NULL);
    jw_time(&w, "timestamp", t->ts_us);
    jw_int(&w, "flow_id", (int64_t)(t->flow_id & INT64_MAX));
    if (t->pcap_cnt)
        jw_int(&w, "pcap_cnt", (int64_t)t->pcap_cnt);
    jw_str(&w, "event_type", name);
    jw_str(&w, "src_ip", t->src_ip);
    osprey_eve_jw_port(&w, "src_port", t->src_port);
    jw_str(&w, "dest_ip", t->dest_ip);
    osprey_eve_jw_port(&w, "dest_port", t->dest_port);
    jw_str(&w, "proto", t->proto);
    if (t->community_id)
        jw_str(&w, "community_id", t->community_id);
    jw_int(&w, "tx_id", t->tx_id);
    osprey_eve_app_write(&w, t->app);
    return jw_finish(&w);
}
