/* lists.c — DNS's multi-buffers: each question's name (dns.query, dns.queries.rrname), each
 * answer's, authority's and additional record's name, and dns.response.rrname (every name a
 * response carries). Element by element from the parsed message, no copy. */
#include "dns_wire.h"

static const uint8_t *text_at(const struct dns_wire *s, uint32_t off, uint32_t n, uint32_t *len)
{
    *len = n;
    return s->text.p ? s->text.p + off : (const uint8_t *)"";
}

/* Record types whose rdata is a name (CNAME, PTR, MX, NS; SOA's mname): dns.response.rrname
 * inspects it too. */
static const uint8_t *rdata_name(const struct dns_wire *s, int sec, uint32_t r, uint32_t *len)
{
    const struct dns_wire_rr *rr = sec ? &s->info.authorities[r] : &s->info.answers[r];
    const struct dns_wire_off *o = &s->off[sec][r];
    if (rr->type == 6 && rr->has_soa)
        return text_at(s, o->mname, rr->soa.mname_len, len);
    if (rr->type == 5 || rr->type == 12 || rr->type == 15 || rr->type == 2)
        return text_at(s, o->rdata, rr->rdata_len, len);
    return NULL;
}

/* Element i of dns.response.rrname: a response's question names, then each answer's name
 * and name-like rdata, the authorities' the same way, then the additionals' names (their
 * rdata is not kept). Empty names are skipped. */
static const uint8_t *response_name(const struct dns_wire *s, uint32_t i, uint32_t *len)
{
    const struct dns_wire_info *di = &s->info;
    uint32_t k = 0;
    const uint8_t *e;
    for (uint32_t q = 0; q < di->nqueries; q++)
        if (di->queries[q].name_len && k++ == i)
            return text_at(s, s->qoff[q], di->queries[q].name_len, len);
    for (int sec = 0; sec < 2; sec++) {
        const struct dns_wire_rr *rrs = sec ? di->authorities : di->answers;
        uint32_t n = sec ? di->nauthorities : di->nanswers;
        for (uint32_t r = 0; r < n; r++) {
            if (rrs[r].name_len && k++ == i)
                return text_at(s, s->off[sec][r].name, rrs[r].name_len, len);
            if ((e = rdata_name(s, sec, r, len)) && *len && k++ == i)
                return e;
        }
    }
    for (uint32_t a = 0; a < di->nadditionals; a++)
        if (di->additionals[a].name_len && k++ == i)
            return text_at(s, s->aroff[a], di->additionals[a].name_len, len);
    return NULL;
}

const uint8_t *dns_wire_list_at(const struct dns_wire *s, enum dns_wire_list l, uint32_t i, uint32_t *len)
{
    const struct dns_wire_info *di = &s->info;
    const uint8_t *e = NULL;
    uint32_t el = 0;
    switch (l) {
    case DNS_L_ANSWER_NAMES: /* for records: each kept answer, an empty (root) name too */
        if (i >= di->nanswers)
            return NULL;
        return text_at(s, s->off[DNS_SEC_ANSWER][i].name, di->answers[i].name_len, len);
    case DNS_L_ANSWER_RDATA:
        if (i >= di->nanswers)
            return NULL;
        return text_at(s, s->off[DNS_SEC_ANSWER][i].rdata, di->answers[i].rdata_len, len);
    case DNS_L_RESPONSE:
        return di->response ? response_name(s, i, len) : NULL;
    case DNS_L_ADDITIONALS:
        if (di->response && i < di->nadditionals) /* as Suricata: a response's */
            e = text_at(s, s->aroff[i], di->additionals[i].name_len, &el);
        break;
    case DNS_L_QUERIES:
        if (i < di->nqueries)
            e = text_at(s, s->qoff[i], di->queries[i].name_len, &el);
        break;
    case DNS_L_ANSWERS:
        if (i < di->nanswers)
            e = text_at(s, s->off[DNS_SEC_ANSWER][i].name, di->answers[i].name_len, &el);
        break;
    case DNS_L_AUTHORITIES: /* as Suricata: the authority section of responses only */
        if (di->response && i < di->nauthorities)
            e = text_at(s, s->off[DNS_SEC_AUTHORITY][i].name, di->authorities[i].name_len, &el);
        break;
    }
    if (!el)
        return NULL; /* as Suricata, the list ends at an empty (root) name */
    *len = el;
    return e;
}
