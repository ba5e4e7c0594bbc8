/* message.c — one DNS message (RFC 1035 §4): the header, every question and resource
 * record walked with bounds (names decompressed with loop protection), the first
 * question's name kept as dns.query, the first answers kept for EVE and dns options. A
 * message that does not walk cleanly is counted as malformed; its events still run when its
 * first question decoded. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers_int.h"

struct dns_state {
    uint8_t query[DNS_NAME_MAX];
    uint32_t qlen;
    bool has_query;
    uint32_t txid;     /* messages seen on the flow, from 0 */
    uint32_t nmsg;
    struct osprey_dns_info info;
    struct pbuf text;  /* answers' names and rdata; spans below are offsets into it */
    uint32_t name_off[OSPREY_DNS_MAX_ANSWERS], rdata_off[OSPREY_DNS_MAX_ANSWERS];
};

static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static uint32_t keep(struct dns_state *s, const void *d, size_t n, uint32_t *off)
{
    *off = s->text.len;
    return pbuf_add(&s->text, d, n, 1u << 16);
}

/* rdata of a kept answer as text (A, AAAA, names, the first TXT string). */
static void rdata_text(struct dns_state *s, struct osprey_dns_rr *rr, const uint8_t *d, size_t n,
                       size_t at, size_t rd, uint32_t *off)
{
    char txt[INET6_ADDRSTRLEN];
    uint8_t name[DNS_NAME_MAX];
    uint32_t nl;
    size_t next;
    *off = s->text.len;
    if (rr->type == 1 && rd == 4 && inet_ntop(AF_INET, d + at, txt, sizeof txt))
        rr->rdata_len = keep(s, txt, strlen(txt), off);
    else if (rr->type == 28 && rd == 16 && inet_ntop(AF_INET6, d + at, txt, sizeof txt))
        rr->rdata_len = keep(s, txt, strlen(txt), off);
    else if ((rr->type == 5 || rr->type == 2 || rr->type == 12) &&
             dns_name_read(d, n, at, name, sizeof name, &nl, &next) == 0)
        rr->rdata_len = keep(s, name, nl, off);
    else if (rr->type == 15 && rd > 2 && dns_name_read(d, n, at + 2, name, sizeof name, &nl, &next) == 0)
        rr->rdata_len = keep(s, name, nl, off);
    else if (rr->type == 16 && rd >= 1 && d[at] < rd)
        rr->rdata_len = keep(s, d + at + 1, d[at], off);
}

/* Walk count records (questions: no TTL/RDATA) from *off; keep answers when asked. */
static bool walk(struct dns_state *s, const uint8_t *d, size_t n, size_t *off, unsigned count,
                 bool question, bool answers)
{
    uint8_t name[DNS_NAME_MAX];
    uint32_t nl;
    for (unsigned i = 0; i < count; i++) {
        size_t next;
        if (dns_name_read(d, n, *off, name, sizeof name, &nl, &next) != 0)
            return false;
        size_t fixed = question ? 4 : 10;
        if (next + fixed > n)
            return false;
        size_t rd = question ? 0 : be16(d + next + 8);
        if (next + fixed + rd > n)
            return false;
        struct osprey_dns_info *in = &s->info;
        if (answers && in->nanswers < OSPREY_DNS_MAX_ANSWERS) {
            uint32_t k = in->nanswers++;
            struct osprey_dns_rr *rr = &in->answers[k];
            memset(rr, 0, sizeof *rr);
            rr->name_len = keep(s, name, nl, &s->name_off[k]);
            rr->type = be16(d + next);
            rr->rclass = be16(d + next + 2);
            rr->ttl = (uint32_t)be16(d + next + 4) << 16 | be16(d + next + 6);
            rdata_text(s, rr, d, n, next + fixed, rd, &s->rdata_off[k]);
        }
        *off = next + fixed + rd;
    }
    return true;
}

void dns_message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->dns && !(pf->dns = calloc(1, sizeof *pf->dns)))
        return;
    struct dns_state *s = pf->dns;
    struct osprey_parsers_stats *st = &pf->w->st;
    st->dns_messages++;
    if (n < 12) {
        st->dns_malformed++;
        return;
    }
    uint16_t flags = be16(d + 2);
    unsigned qd = be16(d + 4), an = be16(d + 6), ns = be16(d + 8), ar = be16(d + 10);
    s->has_query = false;
    s->qlen = 0;
    size_t next;
    if (qd && dns_name_read(d, n, 12, s->query, sizeof s->query, &s->qlen, &next) == 0 &&
        next + 4 <= n) {
        s->has_query = true;
        s->info.qtype = be16(d + next);
        s->info.qclass = be16(d + next + 2);
    }
    s->info.id = be16(d);
    s->info.flags = flags;
    s->info.response = flags & 0x8000;
    s->info.rcode = flags & 0xf;
    s->info.ancount = (uint16_t)an;
    s->info.nanswers = 0;
    pbuf_reset(&s->text);
    size_t off = 12;
    if (!walk(s, d, n, &off, qd, true, false) || !walk(s, d, n, &off, an, false, true) ||
        !walk(s, d, n, &off, ns + ar, false, false))
        st->dns_malformed++;
    if (!s->has_query)
        return;
    s->txid = s->nmsg++;
    const struct osprey_parser_events *ev = &pf->w->p->ev;
    pflow_run(pf, f, dir, flags & 0x8000 ? ev->dns_response : ev->dns_query);
    pflow_tx_done(pf, f, OSPREY_APP_DNS);
}

/* DNS over TCP: each message behind a 2-byte length (RFC 1035 §4.2.2), split anywhere. */
void dns_tcp_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct pbuf *in = &pf->in[dir];
    while (n) {
        uint32_t need = in->len < 2 ? 2 : 2u + be16(in->p);
        uint32_t k = need - in->len < n ? need - in->len : (uint32_t)n;
        if (pbuf_add(in, d, k, 0) != k) {
            pf->dead[dir] = true;
            return;
        }
        d += k, n -= k;
        if (in->len >= 2 && in->len == 2u + be16(in->p)) {
            dns_message(pf, f, dir, in->p + 2, in->len - 2u);
            pbuf_reset(in);
        }
    }
}

const uint8_t *dns_buffer(struct pflow *pf, enum osprey_buf b, uint32_t *len)
{
    struct dns_state *s = pf->dns;
    if (b != OB_DNS_QUERY || !s || !s->has_query)
        return NULL;
    *len = s->qlen;
    return s->qlen ? s->query : (const uint8_t *)"";
}

bool dns_info(struct pflow *pf, struct osprey_dns_info *out)
{
    struct dns_state *s = pf->dns;
    if (!s || !s->has_query)
        return false;
    *out = s->info;
    for (uint32_t i = 0; i < out->nanswers; i++) {
        out->answers[i].name = s->text.p ? s->text.p + s->name_off[i] : (const uint8_t *)"";
        out->answers[i].rdata = s->text.p ? s->text.p + s->rdata_off[i] : (const uint8_t *)"";
    }
    return true;
}

uint32_t dns_tx_id(const struct pflow *pf)
{
    return pf->dns ? pf->dns->txid : 0;
}

void dns_free(struct dns_state *d)
{
    if (d)
        pbuf_free(&d->text);
    free(d);
}
