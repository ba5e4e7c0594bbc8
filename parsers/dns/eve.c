/* eve.c — DNS's EVE object, Suricata's dns version 2 (moved here from outputs/): a query
 * {version, type, id, rrname, rrtype, tx_id, opcode}; an answer {version, type, id, flags, qr,
 * aa, tc, rd, ra, opcode, rrname, rrtype, rcode, answers, grouped, authorities}. */
#include <stdio.h>
#include <string.h>

#include "dns_int.h"
#include "osprey_json_writer.h"

#define EVE_MAX_ANSWERS 16  /* records written per section */

static void span(struct osprey_jw *w, const char *key, const uint8_t *p, uint32_t n)
{
    if (n)
        osprey_jw_strn(w, key, p, n);
}

static void rrtype(struct osprey_jw *w, const char *key, uint16_t t)
{
    const char *name = dns_wire_rrtype_name(t);
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

static void soa_object(struct osprey_jw *w, const char *key, const struct dns_wire_rr *rr)
{
    osprey_jw_open(w, key);
    span(w, "mname", rr->soa.mname, rr->soa.mname_len);
    span(w, "rname", rr->soa.rname, rr->soa.rname_len);
    osprey_jw_int(w, "serial", rr->soa.serial);
    osprey_jw_int(w, "refresh", rr->soa.refresh);
    osprey_jw_int(w, "retry", rr->soa.retry);
    osprey_jw_int(w, "expire", rr->soa.expire);
    osprey_jw_int(w, "minimum", rr->soa.minimum);
    osprey_jw_close(w);
}

/* What a record says, for "grouped": its rdata text or its SOA object; false: nothing. */
static bool rr_value(const struct dns_wire_rr *rr)
{
    return rr->rdata_len || rr->has_soa;
}

static void rr_array(struct osprey_jw *w, const char *key, const struct dns_wire_rr *rrs,
                     uint32_t n)
{
    if (!n)
        return;
    osprey_jw_array(w, key);
    for (uint32_t i = 0; i < n; i++) {
        osprey_jw_open(w, NULL);
        span(w, "rrname", rrs[i].name, rrs[i].name_len);
        rrtype(w, "rrtype", rrs[i].type);
        osprey_jw_int(w, "ttl", rrs[i].ttl);
        if (rrs[i].has_soa)
            soa_object(w, "soa", &rrs[i]);
        else
            span(w, "rdata", rrs[i].rdata, rrs[i].rdata_len);
        osprey_jw_close(w);
    }
    osprey_jw_array_end(w);
}

/* Suricata's "grouped" form of the answers: {"A": [rdata …], "SOA": [{…}], …}, types in
 * order of first appearance, records with nothing to say left out. */
static void dns_grouped(struct osprey_jw *w, const struct dns_wire_rr *rr, uint32_t n)
{
    bool opened = false;
    for (uint32_t i = 0; i < n; i++) {
        bool seen = !rr_value(&rr[i]);
        for (uint32_t k = 0; k < i && !seen; k++)
            seen = rr[k].type == rr[i].type && rr_value(&rr[k]);
        if (seen)
            continue;
        if (!opened)
            osprey_jw_open(w, "grouped");
        opened = true;
        const char *name = dns_wire_rrtype_name(rr[i].type);
        char num[8];
        if (!name) {
            snprintf(num, sizeof num, "%u", rr[i].type);
            name = num;
        }
        osprey_jw_array(w, name);
        for (uint32_t k = i; k < n; k++) {
            if (rr[k].type != rr[i].type || !rr_value(&rr[k]))
                continue;
            if (rr[k].has_soa)
                soa_object(w, NULL, &rr[k]);
            else
                osprey_jw_strn(w, NULL, rr[k].rdata, rr[k].rdata_len);
        }
        osprey_jw_array_end(w);
    }
    if (opened)
        osprey_jw_close(w);
}

/* A first question's name cut at DNS_NAME_MAX bytes: the version 2 record has no key to say
 * so; Suricata 8's `queries` (its version 3 form, the key the EVE schema lists) says it. */
static void truncated_query(struct osprey_jw *w, const struct dns_wire *s,
                            const struct dns_wire_info *di)
{
    if (!s->query_cut)
        return;
    osprey_jw_array(w, "queries");
    osprey_jw_open(w, NULL);
    span(w, "rrname", s->query, s->qlen);
    rrtype(w, "rrtype", di->qtype);
    osprey_jw_bool(w, "rrname_truncated", true);
    osprey_jw_close(w);
    osprey_jw_array_end(w);
}

bool dns_eve(struct pflow *pf, struct osprey_jw *w)
{
    struct dns_wire_info di;
    if (!dns_wire_records(pf->state, &di))
        return false;
    if (!w)
        return true;
    const struct dns_wire *s = pf->state;
    const uint8_t *rrname = s->qlen ? s->query : (const uint8_t *)"";
    uint16_t fl = di.flags;
    osprey_jw_open(w, "dns");
    osprey_jw_int(w, "version", 2);
    osprey_jw_str(w, "type", di.response ? "answer" : "query");
    osprey_jw_int(w, "id", di.id);
    if (!di.response) {
        span(w, "rrname", rrname, s->qlen);
        rrtype(w, "rrtype", di.qtype);
        osprey_jw_int(w, "tx_id", s->txid);
        osprey_jw_int(w, "opcode", (fl >> 11) & 0xf);
        truncated_query(w, s, &di);
        osprey_jw_close(w);
        return true;
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
    span(w, "rrname", rrname, s->qlen);
    rrtype(w, "rrtype", di.qtype);
    rcode(w, di.rcode);
    uint32_t n = di.nanswers < EVE_MAX_ANSWERS ? di.nanswers : EVE_MAX_ANSWERS;
    uint32_t na = di.nauthorities < EVE_MAX_ANSWERS ? di.nauthorities : EVE_MAX_ANSWERS;
    rr_array(w, "answers", di.answers, n);
    dns_grouped(w, di.answers, n);
    rr_array(w, "authorities", di.authorities, na);
    truncated_query(w, s, &di);
    osprey_jw_close(w);
    return true;
}
