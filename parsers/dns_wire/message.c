/* message.c — one DNS message (RFC 1035 §4): the header, every question and resource
 * record walked with bounds (names decompressed with loop protection), the first
 * question's name kept (dns.query), the first records kept as text for EVE and the dns
 * keywords. On a flow (dns_wire_message) under the caller's rows: a message that does not
 * walk cleanly is counted as malformed; its event still runs when its first question decoded
 * (DNS) or its header did (mDNS). */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dns_wire.h"

static uint32_t keep(struct dns_wire *s, const void *d, size_t n, uint32_t *off)
{
    *off = s->text.len;
    return pbuf_add(&s->text, d, n, 1u << 16);
}

/* SOA rdata (RFC 1035 §3.3.13): two names, then serial, refresh, retry, expire, minimum. */
static void soa(struct dns_wire *s, struct dns_wire_rr *rr, const uint8_t *d, size_t n,
                size_t at, size_t rd, struct dns_wire_off *o)
{
    uint8_t m[DNS_NAME_MAX], r[DNS_NAME_MAX];
    uint32_t ml, rl;
    size_t after_m, after_r;
    if (dns_wire_name(d, n, at, m, sizeof m, &ml, &after_m, &s->name_flags) != 0 ||
        dns_wire_name(d, n, after_m, r, sizeof r, &rl, &after_r, &s->name_flags) != 0 ||
        after_r + 20 > at + rd)
        return;
    rr->has_soa = true;
    rr->soa.mname_len = keep(s, m, ml, &o->mname);
    rr->soa.rname_len = keep(s, r, rl, &o->rname);
    rr->soa.serial = rd_be32(d + after_r);
    rr->soa.refresh = rd_be32(d + after_r + 4);
    rr->soa.retry = rd_be32(d + after_r + 8);
    rr->soa.expire = rd_be32(d + after_r + 12);
    rr->soa.minimum = rd_be32(d + after_r + 16);
}

/* rdata of a kept record as text (A, AAAA, names, the TXT string at txt_at; SOA fields). */
static void rdata_text(struct dns_wire *s, struct dns_wire_rr *rr, const uint8_t *d, size_t n,
                       size_t at, size_t rd, size_t txt_at, struct dns_wire_off *o)
{
    char txt[INET6_ADDRSTRLEN];
    uint8_t name[DNS_NAME_MAX];
    uint32_t nl;
    size_t next;
    uint32_t *off = &o->rdata;
    *off = s->text.len;
    if (rr->type == 6)
        soa(s, rr, d, n, at, rd, o);
    if (rr->type == 1 && rd == 4 && inet_ntop(AF_INET, d + at, txt, sizeof txt))
        rr->rdata_len = keep(s, txt, strlen(txt), off);
    else if (rr->type == 28 && rd == 16 && inet_ntop(AF_INET6, d + at, txt, sizeof txt))
        rr->rdata_len = keep(s, txt, strlen(txt), off);
    else if ((rr->type == 5 || rr->type == 2 || rr->type == 12) &&
             dns_wire_name(d, n, at, name, sizeof name, &nl, &next, &s->name_flags) == 0)
        rr->rdata_len = keep(s, name, nl, off);
    else if (rr->type == 15 && rd > 2 &&
             dns_wire_name(d, n, at + 2, name, sizeof name, &nl, &next, &s->name_flags) == 0)
        rr->rdata_len = keep(s, name, nl, off);
    else if (rr->type == 16 && txt_at < at + rd && txt_at + 1 + d[txt_at] <= at + rd)
        rr->rdata_len = keep(s, d + txt_at + 1, d[txt_at], off);
}

/* Walk count records (questions: no TTL/RDATA) from *off; keep those of section sec
 * (DNS_SEC_NONE: none). */
static bool walk(struct dns_wire *s, const uint8_t *d, size_t n, size_t *off, unsigned count,
                 bool question, int sec)
{
    uint8_t name[DNS_NAME_MAX];
    uint32_t nl;
    for (unsigned i = 0; i < count; i++) {
        size_t next;
        if (dns_wire_name(d, n, *off, name, sizeof name, &nl, &next, &s->name_flags) != 0)
            return false;
        size_t fixed = question ? 4 : 10;
        if (next + fixed > n)
            return false;
        size_t rd = question ? 0 : rd_be16(d + next + 8);
        if (next + fixed + rd > n)
            return false;
        struct dns_wire_info *in = &s->info;
        if (question && in->nqueries < DNS_WIRE_MAX_RRS) {
            in->queries[in->nqueries].name_len = keep(s, name, nl, &s->qoff[in->nqueries]);
            in->queries[in->nqueries].type = rd_be16(d + next);
            in->nqueries++;
        }
        if (sec == DNS_SEC_ADDITIONAL && in->nadditionals < DNS_WIRE_MAX_RRS) {
            uint32_t k = in->nadditionals++;
            in->additionals[k].name_len = keep(s, name, nl, &s->aroff[k]);
            in->additionals[k].type = rd_be16(d + next);
        }
        uint32_t *kept = sec == DNS_SEC_ANSWER ? &in->nanswers : &in->nauthorities;
        struct dns_wire_rr *rrs = sec == DNS_SEC_ANSWER ? in->answers : in->authorities;
        size_t at = next + fixed, txt = at;
        /* a TXT record with several strings is one answer per string, as Suricata lists it */
        do {
            if (sec >= DNS_SEC_NONE || *kept >= DNS_WIRE_MAX_RRS)
                break;
            uint32_t k = (*kept)++;
            struct dns_wire_rr *rr = &rrs[k];
            struct dns_wire_off *o = &s->off[sec][k];
            memset(rr, 0, sizeof *rr);
            rr->name_len = keep(s, name, nl, &o->name);
            rr->type = rd_be16(d + next);
            rr->rclass = rd_be16(d + next + 2);
            rr->ttl = rd_be32(d + next + 4);
            rr->txt_cont = txt != at;
            rdata_text(s, rr, d, n, at, rd, txt, o);
            if (rr->type == 16 && txt < at + rd)
                txt += 1u + d[txt];
        } while (rd_be16(d + next) == 16 && txt < at + rd);
        *off = next + fixed + rd;
    }
    return true;
}

enum dns_wire_result dns_wire_decode(struct dns_wire *s, const uint8_t *d, size_t n)
{
    if (n < 12)
        return DNS_WIRE_MALFORMED;
    uint16_t flags = rd_be16(d + 2);
    unsigned qd = rd_be16(d + 4), an = rd_be16(d + 6), ns = rd_be16(d + 8), ar = rd_be16(d + 10);
    s->has_query = false;
    s->has_msg = true;
    s->name_flags = 0;
    s->query_cut = false;
    s->qlen = 0;
    size_t next;
    unsigned qflags = 0;
    if (qd && dns_wire_name(d, n, 12, s->query, sizeof s->query, &s->qlen, &next, &qflags) == 0 &&
        next + 4 <= n) {
        s->has_query = true;
        s->query_cut = qflags & DNS_NAME_TRUNCATED;
        s->info.qtype = rd_be16(d + next);
        s->info.qclass = rd_be16(d + next + 2);
    }
    s->info.id = rd_be16(d);
    s->info.flags = flags;
    s->info.response = flags & 0x8000;
    s->info.rcode = flags & 0xf;
    s->info.ancount = (uint16_t)an;
    s->info.nanswers = s->info.nauthorities = s->info.nqueries = s->info.nadditionals = 0;
    pbuf_reset(&s->text);
    pbuf_reset(&s->pdu);
    pbuf_add(&s->pdu, d, n, 1u << 16); /* a DNS message is at most 64 KiB */
    size_t off = 12;
    /* Suricata's reading: the questions and answers make the message; authorities or
     * additionals that do not decode are an event of their own (the additionals are not
     * read after bad authorities), not a malformed message */
    if (!walk(s, d, n, &off, qd, true, DNS_SEC_NONE) ||
        !walk(s, d, n, &off, an, false, DNS_SEC_ANSWER))
        return DNS_WIRE_MALFORMED;
    if (!walk(s, d, n, &off, ns, false, DNS_SEC_AUTHORITY))
        return DNS_WIRE_BAD_AUTHORITIES;
    if (!walk(s, d, n, &off, ar, false, DNS_SEC_ADDITIONAL))
        return DNS_WIRE_BAD_ADDITIONALS;
    return DNS_WIRE_OK;
}

static void anomaly(struct pflow *pf, struct mon_flow *f, int dir, const struct dns_wire_rows *r,
                    unsigned e)
{
    if (r->ae[e] != DNS_WIRE_ROW_NONE)
        pflow_anomaly(pf, f, dir, r->ae[e]);
}

void dns_wire_message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n,
                    const struct dns_wire_rows *r)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct dns_wire))))
        return;
    struct dns_wire *s = pf->state;
    pflow_count(pf, r->c_messages, 1);
    if (n < 12) {
        s->has_msg = false;
        pflow_count(pf, r->c_malformed, 1);
        anomaly(pf, f, dir, r, DNS_WIRE_P_MALFORMED_DATA);
        return;
    }
    enum dns_wire_result res = dns_wire_decode(s, d, n);
    switch (res) {
    case DNS_WIRE_MALFORMED:
        pflow_count(pf, r->c_malformed, 1);
        anomaly(pf, f, dir, r, DNS_WIRE_P_MALFORMED_DATA);
        break;
    case DNS_WIRE_BAD_AUTHORITIES:
        anomaly(pf, f, dir, r, DNS_WIRE_P_INVALID_AUTHORITIES);
        break;
    case DNS_WIRE_BAD_ADDITIONALS:
        anomaly(pf, f, dir, r, DNS_WIRE_P_INVALID_ADDITIONALS);
        break;
    case DNS_WIRE_OK:
        break;
    }
    /* Suricata's name events: a name longer than DNS_NAME_MAX (kept cut), a pointer to
     * itself, more than DNS_NAME_STEPS labels and pointers (both after a pointer: the name
     * kept as far as read) */
    if (s->name_flags & DNS_NAME_TRUNCATED)
        anomaly(pf, f, dir, r, DNS_WIRE_P_NAME_TOO_LONG);
    if (s->name_flags & DNS_NAME_LOOP)
        anomaly(pf, f, dir, r, DNS_WIRE_P_INFINITE_LOOP);
    if (s->name_flags & DNS_NAME_LABELS)
        anomaly(pf, f, dir, r, DNS_WIRE_P_TOO_MANY_LABELS);
    uint16_t flags = rd_be16(d + 2);
    bool response = flags & 0x8000;
    if (flags & 0x0040) /* Z: reserved, must be zero (RFC 1035 §4.1.1) */
        anomaly(pf, f, dir, r, DNS_WIRE_P_Z_FLAG_SET);
    if ((flags >> 11 & 0xf) >= 7) /* an opcode no RFC assigns (Suricata's invalid_opcode) */
        anomaly(pf, f, dir, r, DNS_WIRE_P_INVALID_OPCODE);
    if (!r->by_dir && response != (dir == 1)) /* a response to the server, a query to the client */
        anomaly(pf, f, dir, r, response ? DNS_WIRE_P_NOT_REQUEST : DNS_WIRE_P_NOT_RESPONSE);
    /* DNS: a message whose first question decoded; mDNS: one that is not malformed */
    if (r->any_message ? res == DNS_WIRE_MALFORMED : !s->has_query)
        return;
    s->txid = s->nmsg++;
    unsigned ev = r->by_dir ? (dir == 0 ? r->ev_query : r->ev_response)
                            : (response ? r->ev_response : r->ev_query);
    pflow_raise(pf, f, dir, ev);
    pflow_tx_done(pf, f);
}

bool dns_wire_records(const struct dns_wire *s, struct dns_wire_info *out)
{
    if (!s || !s->has_query)
        return false;
    *out = s->info;
    static const uint8_t empty[1];
    const uint8_t *t = s->text.p;
    for (int sec = DNS_SEC_ANSWER; sec <= DNS_SEC_AUTHORITY; sec++) {
        uint32_t n = sec == DNS_SEC_ANSWER ? out->nanswers : out->nauthorities;
        struct dns_wire_rr *rrs = sec == DNS_SEC_ANSWER ? out->answers : out->authorities;
        for (uint32_t i = 0; i < n; i++) {
            const struct dns_wire_off *o = &s->off[sec][i];
            rrs[i].name = t ? t + o->name : empty;
            rrs[i].rdata = t ? t + o->rdata : empty;
            rrs[i].soa.mname = t && rrs[i].has_soa ? t + o->mname : empty;
            rrs[i].soa.rname = t && rrs[i].has_soa ? t + o->rname : empty;
        }
    }
    for (uint32_t i = 0; i < out->nqueries; i++)
        out->queries[i].name = t ? t + s->qoff[i] : empty;
    for (uint32_t i = 0; i < out->nadditionals; i++)
        out->additionals[i].name = t ? t + s->aroff[i] : empty;
    return true;
}

uint32_t dns_wire_tx_id(const struct pflow *pf)
{
    const struct dns_wire *s = pf->state;
    return s ? s->txid : 0;
}

void dns_wire_free(void *state)
{
    struct dns_wire *d = state;
    if (d) {
        pbuf_free(&d->text);
        pbuf_free(&d->pdu);
    }
    free(d);
}
