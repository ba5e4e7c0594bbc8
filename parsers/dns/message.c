/* message.c — one DNS message (RFC 1035 §4): the header, every question and resource
 * record walked with bounds (names decompressed with loop protection), the first
 * question's name kept as dns.query, the first answers kept for EVE and dns options. A
 * message that does not walk cleanly is counted as malformed; its events still run when its
 * first question decoded. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dns_int.h"

static uint32_t keep(struct dns_state *s, const void *d, size_t n, uint32_t *off)
{
    *off = s->text.len;
    return pbuf_add(&s->text, d, n, 1u << 16);
}

/* SOA rdata (RFC 1035 §3.3.13): two names, then serial, refresh, retry, expire, minimum. */
static void soa(struct dns_state *s, struct osprey_dns_rr *rr, const uint8_t *d, size_t n,
                size_t at, size_t rd, struct rr_off *o)
{
    uint8_t m[DNS_NAME_MAX], r[DNS_NAME_MAX];
    uint32_t ml, rl;
    size_t after_m, after_r;
    if (dns_name_read(d, n, at, m, sizeof m, &ml, &after_m, &s->name_flags) != 0 ||
        dns_name_read(d, n, after_m, r, sizeof r, &rl, &after_r, &s->name_flags) != 0 ||
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
static void rdata_text(struct dns_state *s, struct osprey_dns_rr *rr, const uint8_t *d, size_t n,
                       size_t at, size_t rd, size_t txt_at, struct rr_off *o)
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
             dns_name_read(d, n, at, name, sizeof name, &nl, &next, &s->name_flags) == 0)
        rr->rdata_len = keep(s, name, nl, off);
    else if (rr->type == 15 && rd > 2 &&
             dns_name_read(d, n, at + 2, name, sizeof name, &nl, &next, &s->name_flags) == 0)
        rr->rdata_len = keep(s, name, nl, off);
    else if (rr->type == 16 && txt_at < at + rd && txt_at + 1 + d[txt_at] <= at + rd)
        rr->rdata_len = keep(s, d + txt_at + 1, d[txt_at], off);
}

/* Walk count records (questions: no TTL/RDATA) from *off; keep those of section sec
 * (SEC_NONE: none). */
static bool walk(struct dns_state *s, const uint8_t *d, size_t n, size_t *off, unsigned count,
                 bool question, int sec)
{
    uint8_t name[DNS_NAME_MAX];
    uint32_t nl;
    for (unsigned i = 0; i < count; i++) {
        size_t next;
        if (dns_name_read(d, n, *off, name, sizeof name, &nl, &next, &s->name_flags) != 0)
            return false;
        size_t fixed = question ? 4 : 10;
        if (next + fixed > n)
            return false;
        size_t rd = question ? 0 : rd_be16(d + next + 8);
        if (next + fixed + rd > n)
            return false;
        struct osprey_dns_info *in = &s->info;
        if (question && in->nqueries < OSPREY_DNS_MAX_ANSWERS) {
            in->queries[in->nqueries].name_len = keep(s, name, nl, &s->qoff[in->nqueries]);
            in->queries[in->nqueries].type = rd_be16(d + next);
            in->nqueries++;
        }
        if (sec == SEC_ADDITIONAL && in->nadditionals < OSPREY_DNS_MAX_ANSWERS) {
            uint32_t k = in->nadditionals++;
            in->additionals[k].name_len = keep(s, name, nl, &s->aroff[k]);
            in->additionals[k].type = rd_be16(d + next);
        }
        uint32_t *kept = sec == SEC_ANSWER ? &in->nanswers : &in->nauthorities;
        struct osprey_dns_rr *rrs = sec == SEC_ANSWER ? in->answers : in->authorities;
        size_t at = next + fixed, txt = at;
        /* a TXT record with several strings is one answer per string, as Suricata lists it */
        do {
            if (sec >= SEC_NONE || *kept >= OSPREY_DNS_MAX_ANSWERS)
                break;
            uint32_t k = (*kept)++;
            struct osprey_dns_rr *rr = &rrs[k];
            struct rr_off *o = &s->off[sec][k];
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

enum dns_decoded dns_decode(struct dns_state *s, const uint8_t *d, size_t n)
{
    if (n < 12)
        return DNS_D_MALFORMED;
    uint16_t flags = rd_be16(d + 2);
    unsigned qd = rd_be16(d + 4), an = rd_be16(d + 6), ns = rd_be16(d + 8), ar = rd_be16(d + 10);
    s->has_query = false;
    s->has_msg = true;
    s->name_flags = 0;
    s->query_cut = false;
    s->qlen = 0;
    size_t next;
    unsigned qflags = 0;
    if (qd && dns_name_read(d, n, 12, s->query, sizeof s->query, &s->qlen, &next, &qflags) == 0 &&
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
    if (!walk(s, d, n, &off, qd, true, SEC_NONE) ||
        !walk(s, d, n, &off, an, false, SEC_ANSWER))
        return DNS_D_MALFORMED;
    if (!walk(s, d, n, &off, ns, false, SEC_AUTHORITY))
        return DNS_D_BAD_AUTHORITIES;
    if (!walk(s, d, n, &off, ar, false, SEC_ADDITIONAL))
        return DNS_D_BAD_ADDITIONALS;
    return DNS_D_OK;
}

/* DNS's own rows */
static const struct dns_rows DNS_ROWS = {
    .ev_query = DNS_EV_QUERY, .ev_response = DNS_EV_RESPONSE,
    .ae = {[DNS_AE_MALFORMED_DATA] = DNS_AE_MALFORMED_DATA,
           [DNS_AE_Z_FLAG_SET] = DNS_AE_Z_FLAG_SET,
           [DNS_AE_NOT_REQUEST] = DNS_AE_NOT_REQUEST,
           [DNS_AE_NOT_RESPONSE] = DNS_AE_NOT_RESPONSE,
           [DNS_AE_INVALID_AUTHORITIES] = DNS_AE_INVALID_AUTHORITIES,
           [DNS_AE_INVALID_ADDITIONALS] = DNS_AE_INVALID_ADDITIONALS,
           [DNS_AE_NAME_TOO_LONG] = DNS_AE_NAME_TOO_LONG,
           [DNS_AE_INVALID_OPCODE] = DNS_AE_INVALID_OPCODE,
           [DNS_AE_INFINITE_LOOP] = DNS_AE_INFINITE_LOOP,
           [DNS_AE_TOO_MANY_LABELS] = DNS_AE_TOO_MANY_LABELS},
    .c_messages = DNS_C_MESSAGES, .c_malformed = DNS_C_MALFORMED,
};

static void anomaly(struct pflow *pf, struct mon_flow *f, int dir, const struct dns_rows *r,
                    unsigned e)
{
    if (r->ae[e] != DNS_ROW_NONE)
        pflow_anomaly(pf, f, dir, r->ae[e]);
}

void dns_message_as(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n,
                    const struct dns_rows *r)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct dns_state))))
        return;
    struct dns_state *s = pf->state;
    pflow_count(pf, r->c_messages, 1);
    if (n < 12) {
        s->has_msg = false;
        pflow_count(pf, r->c_malformed, 1);
        anomaly(pf, f, dir, r, DNS_AE_MALFORMED_DATA);
        return;
    }
    enum dns_decoded res = dns_decode(s, d, n);
    switch (res) {
    case DNS_D_MALFORMED:
        pflow_count(pf, r->c_malformed, 1);
        anomaly(pf, f, dir, r, DNS_AE_MALFORMED_DATA);
        break;
    case DNS_D_BAD_AUTHORITIES:
        anomaly(pf, f, dir, r, DNS_AE_INVALID_AUTHORITIES);
        break;
    case DNS_D_BAD_ADDITIONALS:
        anomaly(pf, f, dir, r, DNS_AE_INVALID_ADDITIONALS);
        break;
    case DNS_D_OK:
        break;
    }
    /* Suricata's name events: a name longer than DNS_NAME_MAX (kept cut), a pointer to
     * itself, more than DNS_NAME_STEPS labels and pointers (both after a pointer: the name
     * kept as far as read) */
    if (s->name_flags & DNS_NAME_TRUNCATED)
        anomaly(pf, f, dir, r, DNS_AE_NAME_TOO_LONG);
    if (s->name_flags & DNS_NAME_LOOP)
        anomaly(pf, f, dir, r, DNS_AE_INFINITE_LOOP);
    if (s->name_flags & DNS_NAME_LABELS)
        anomaly(pf, f, dir, r, DNS_AE_TOO_MANY_LABELS);
    uint16_t flags = rd_be16(d + 2);
    bool response = flags & 0x8000;
    if (flags & 0x0040) /* Z: reserved, must be zero (RFC 1035 §4.1.1) */
        anomaly(pf, f, dir, r, DNS_AE_Z_FLAG_SET);
    if ((flags >> 11 & 0xf) >= 7) /* an opcode no RFC assigns (Suricata's invalid_opcode) */
        anomaly(pf, f, dir, r, DNS_AE_INVALID_OPCODE);
    if (!r->by_dir && response != (dir == 1)) /* a response to the server, a query to the client */
        anomaly(pf, f, dir, r, response ? DNS_AE_NOT_REQUEST : DNS_AE_NOT_RESPONSE);
    /* DNS: a message whose first question decoded; mDNS: one that is not malformed */
    if (r->any_message ? res == DNS_D_MALFORMED : !s->has_query)
        return;
    s->txid = s->nmsg++;
    unsigned ev = r->by_dir ? (dir == 0 ? r->ev_query : r->ev_response)
                            : (response ? r->ev_response : r->ev_query);
    pflow_raise(pf, f, dir, ev);
    pflow_tx_done(pf, f);
}

void dns_message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    dns_message_as(pf, f, dir, d, n, &DNS_ROWS);
}

/* DNS over TCP: each message behind a 2-byte length (RFC 1035 §4.2.2), split anywhere. */
void dns_tcp_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct pbuf *in = &pf->in[dir];
    while (n) {
        uint32_t need = in->len < 2 ? 2 : 2u + rd_be16(in->p);
        uint32_t k = need - in->len < n ? need - in->len : (uint32_t)n;
        if (pbuf_add(in, d, k, 0) != k) {
            pf->dead[dir] = true;
            return;
        }
        d += k, n -= k;
        if (in->len >= 2 && in->len == 2u + rd_be16(in->p)) {
            dns_message(pf, f, dir, in->p + 2, in->len - 2u);
            pbuf_reset(in);
        }
    }
}

bool dns_info(struct pflow *pf, struct osprey_dns_info *out)
{
    struct dns_state *s = pf->state;
    if (!s || !s->has_query)
        return false;
    *out = s->info;
    static const uint8_t empty[1];
    const uint8_t *t = s->text.p;
    for (int sec = SEC_ANSWER; sec <= SEC_AUTHORITY; sec++) {
        uint32_t n = sec == SEC_ANSWER ? out->nanswers : out->nauthorities;
        struct osprey_dns_rr *rrs = sec == SEC_ANSWER ? out->answers : out->authorities;
        for (uint32_t i = 0; i < n; i++) {
            const struct rr_off *o = &s->off[sec][i];
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

uint32_t dns_tx_id(const struct pflow *pf)
{
    const struct dns_state *s = pf->state;
    return s ? s->txid : 0;
}

void dns_free(void *state)
{
    struct dns_state *d = state;
    if (d) {
        pbuf_free(&d->text);
        pbuf_free(&d->pdu);
    }
    free(d);
}
