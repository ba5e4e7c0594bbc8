/* eve_app.c — EVE http, dns and tls objects (Suricata's keys: http{hostname, url,
 * http_user_agent, http_content_type, http_refer, http_method, protocol, status, redirect,
 * length}, dns version 2 {type, id, flags, qr, rd, ra, opcode, rrname, rrtype, rcode, answers},
 * tls{subject, issuerdn, serial, fingerprint, sni, version, ja3, ja3s}), alone as a
 * transaction record or inside an alert. */
#include <stdio.h>
#include <string.h>

#include "eve_json.h"
#include "osprey_outputs.h"

static void span(struct osprey_jw *w, const char *key, struct osprey_span s)
{
    if (s.n)
        osprey_jw_strn(w, key, s.p, s.n);
}

static void http_object(struct osprey_jw *w, const struct osprey_eve_app *a)
{
    osprey_jw_open(w, "http");
    span(w, "hostname", a->http.hostname);
    if (a->http.port)
        osprey_jw_int(w, "http_port", a->http.port);
    span(w, "url", a->http.url);
    span(w, "http_user_agent", a->http.user_agent);
    /* the media type only, as Suricata: "text/html; charset=utf-8" is "text/html" */
    struct osprey_span ct = a->http.content_type;
    const void *semi = ct.n ? memchr(ct.p, ';', ct.n) : NULL;
    if (semi)
        ct.n = (uint32_t)((const uint8_t *)semi - ct.p);
    span(w, "http_content_type", ct);
    span(w, "http_refer", a->http.refer);
    span(w, "http_method", a->http.method);
    span(w, "protocol", a->http.protocol);
    if (a->http.status)
        osprey_jw_int(w, "status", a->http.status);
    span(w, "redirect", a->http.redirect);
    osprey_jw_int(w, "length", (int64_t)a->http.length);
    osprey_jw_close(w);
}

/* Suricata 7's names of record types (none for SVCB: a number). */
static const char *rrtype_name(uint16_t t)
{
    static const char *const low[] = {
        [1] = "A", [2] = "NS", [3] = "MD", [4] = "MF", [5] = "CNAME", [6] = "SOA", [7] = "MB",
        [8] = "MG", [9] = "MR", [10] = "NULL", [11] = "WKS", [12] = "PTR", [13] = "HINFO",
        [14] = "MINFO", [15] = "MX", [16] = "TXT", [17] = "RP", [18] = "AFSDB", [19] = "X25",
        [20] = "ISDN", [21] = "RT", [22] = "NSAP", [23] = "NSAPPTR", [24] = "SIG", [25] = "KEY",
        [26] = "PX", [27] = "GPOS", [28] = "AAAA", [29] = "LOC", [30] = "NXT", [33] = "SRV",
        [34] = "ATMA", [35] = "NAPTR", [36] = "KX", [37] = "CERT", [38] = "A6", [39] = "DNAME",
        [41] = "OPT", [42] = "APL", [43] = "DS", [44] = "SSHFP", [45] = "IPSECKEY",
        [46] = "RRSIG", [47] = "NSEC", [48] = "DNSKEY", [49] = "DHCID", [50] = "NSEC3",
        [51] = "NSEC3PARAM", [52] = "TLSA", [55] = "HIP", [59] = "CDS", [60] = "CDNSKEY",
        [65] = "HTTPS", [99] = "SPF",
    };
    switch (t) {
    case 249: return "TKEY";
    case 250: return "TSIG";
    case 254: return "MAILA";
    case 255: return "ANY";
    case 256: return "URI";
    default: return t < sizeof low / sizeof low[0] ? low[t] : NULL;
    }
}

static void rrtype(struct osprey_jw *w, const char *key, uint16_t t)
{
    const char *name = rrtype_name(t);
    char num[8];
    if (!name) {
        snprintf(num, sizeof num, "%u", t); /* Suricata writes unnamed types as their number */
        name = num;
    }
    osprey_jw_str(w, key, name);
}

static void rcode(struct osprey_jw *w, uint8_t rc)
{
    static const char *const names[] = {
        "NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED", "YXDOMAIN",
        "YXRRSET", "NXRRSET", "NOTAUTH", "NOTZONE",
    };
    char num[8];
    const char *name = rc < sizeof names / sizeof names[0] ? names[rc] : NULL;
    if (!name) {
        snprintf(num, sizeof num, "%u", rc);
        name = num;
    }
    osprey_jw_str(w, "rcode", name);
}

static void soa_object(struct osprey_jw *w, const char *key, const struct osprey_eve_dns_rr *rr)
{
    osprey_jw_open(w, key);
    span(w, "mname", rr->mname);
    span(w, "rname", rr->rname);
    osprey_jw_int(w, "serial", rr->serial);
    osprey_jw_int(w, "refresh", rr->refresh);
    osprey_jw_int(w, "retry", rr->retry);
    osprey_jw_int(w, "expire", rr->expire);
    osprey_jw_int(w, "minimum", rr->minimum);
    osprey_jw_close(w);
}

/* What a record says, for "grouped": its rdata text or its SOA object; false: nothing. */
static bool rr_value(const struct osprey_eve_dns_rr *rr)
{
    return rr->rdata.n || rr->has_soa;
}

static void rr_array(struct osprey_jw *w, const char *key, const struct osprey_eve_dns_rr *rrs,
                     uint32_t n)
{
    if (!n)
        return;
    osprey_jw_array(w, key);
    for (uint32_t i = 0; i < n; i++) {
        osprey_jw_open(w, NULL);
        span(w, "rrname", rrs[i].rrname);
        rrtype(w, "rrtype", rrs[i].rrtype);
        osprey_jw_int(w, "ttl", rrs[i].ttl);
        if (rrs[i].has_soa)
            soa_object(w, "soa", &rrs[i]);
        else
            span(w, "rdata", rrs[i].rdata);
        osprey_jw_close(w);
    }
    osprey_jw_array_end(w);
}

/* Suricata's "grouped" form of the answers: {"A": [rdata …], "SOA": [{…}], …}, types in
 * order of first appearance, records with nothing to say left out. */
static void dns_grouped(struct osprey_jw *w, const struct osprey_eve_app *a, uint32_t n)
{
    const struct osprey_eve_dns_rr *rr = a->dns.answers;
    bool opened = false;
    for (uint32_t i = 0; i < n; i++) {
        bool seen = !rr_value(&rr[i]);
        for (uint32_t k = 0; k < i && !seen; k++)
            seen = rr[k].rrtype == rr[i].rrtype && rr_value(&rr[k]);
        if (seen)
            continue;
        if (!opened)
            osprey_jw_open(w, "grouped");
        opened = true;
        const char *name = rrtype_name(rr[i].rrtype);
        char num[8];
        if (!name) {
            snprintf(num, sizeof num, "%u", rr[i].rrtype);
            name = num;
        }
        osprey_jw_array(w, name);
        for (uint32_t k = i; k < n; k++) {
            if (rr[k].rrtype != rr[i].rrtype || !rr_value(&rr[k]))
                continue;
            if (rr[k].has_soa)
                soa_object(w, NULL, &rr[k]);
            else
                osprey_jw_strn(w, NULL, rr[k].rdata.p, rr[k].rdata.n);
        }
        osprey_jw_array_end(w);
    }
    if (opened)
        osprey_jw_close(w);
}

/* Suricata's dns version 2: a query {version, type, id, rrname, rrtype, tx_id, opcode}; an
 * answer {version, type, id, flags, qr, aa, tc, rd, ra, opcode, rrname, rrtype, rcode,
 * answers, grouped, authorities}. */
static void dns_object(struct osprey_jw *w, const struct osprey_eve_app *a)
{
    uint16_t fl = a->dns.flags;
    osprey_jw_open(w, "dns");
    osprey_jw_int(w, "version", 2);
    osprey_jw_str(w, "type", a->dns.response ? "answer" : "query");
    osprey_jw_int(w, "id", a->dns.id);
    if (!a->dns.response) {
        span(w, "rrname", a->dns.rrname);
        rrtype(w, "rrtype", a->dns.rrtype);
        osprey_jw_int(w, "tx_id", a->dns.tx_id);
        osprey_jw_int(w, "opcode", (fl >> 11) & 0xf);
        osprey_jw_close(w);
        return;
    }
    char hex[8];
    snprintf(hex, sizeof hex, "%04x", fl);
    osprey_jw_str(w, "flags", hex);
    osprey_jw_bool(w, "qr", true);
    if (fl & 0x0400)
        osprey_jw_bool(w, "aa", true);
    if (fl & 0x0200)
        osprey_jw_bool(w, "tc", true);
    if (fl & 0x0100)
        osprey_jw_bool(w, "rd", true);
    if (fl & 0x0080)
        osprey_jw_bool(w, "ra", true);
    osprey_jw_int(w, "opcode", (fl >> 11) & 0xf);
    span(w, "rrname", a->dns.rrname);
    rrtype(w, "rrtype", a->dns.rrtype);
    rcode(w, a->dns.rcode);
    uint32_t n = a->dns.nanswers < OSPREY_EVE_DNS_MAX_ANSWERS ? a->dns.nanswers
                                                              : OSPREY_EVE_DNS_MAX_ANSWERS;
    uint32_t na = a->dns.nauthorities < OSPREY_EVE_DNS_MAX_ANSWERS ? a->dns.nauthorities
                                                                   : OSPREY_EVE_DNS_MAX_ANSWERS;
    rr_array(w, "answers", a->dns.answers, n);
    dns_grouped(w, a, n);
    rr_array(w, "authorities", a->dns.authorities, na);
    osprey_jw_close(w);
}

static void hash_pair(struct osprey_jw *w, const char *key, struct osprey_span hash,
                      struct osprey_span str)
{
    if (!hash.n)
        return;
    osprey_jw_open(w, key);
    span(w, "hash", hash);
    span(w, "string", str);
    osprey_jw_close(w);
}

static void tls_object(struct osprey_jw *w, const struct osprey_eve_app *a)
{
    osprey_jw_open(w, "tls");
    span(w, "subject", a->tls.subject);
    span(w, "issuerdn", a->tls.issuerdn);
    span(w, "serial", a->tls.serial);
    span(w, "fingerprint", a->tls.fingerprint);
    span(w, "sni", a->tls.sni);
    span(w, "version", a->tls.version);
    hash_pair(w, "ja3", a->tls.ja3_hash, a->tls.ja3_string);
    hash_pair(w, "ja3s", a->tls.ja3s_hash, a->tls.ja3s_string);
    osprey_jw_close(w);
}

const char *osprey_eve_app_write(struct osprey_jw *w, const struct osprey_eve_app *app)
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
    struct osprey_jw w;
    osprey_eve_jw_head(&w, t->ts_us, t->flow_id, t->pcap_cnt, name);
    osprey_eve_jw_tuple(&w, t->src_ip, t->src_port, t->dest_ip, t->dest_port, t->proto);
    if (t->community_id)
        osprey_jw_str(&w, "community_id", t->community_id);
    if (t->app->kind == OSPREY_EVE_APP_HTTP) /* Suricata: dns has its own inside, tls none */
        osprey_jw_int(&w, "tx_id", t->tx_id);
    osprey_eve_app_write(&w, t->app);
    return osprey_jw_finish(&w);
}
