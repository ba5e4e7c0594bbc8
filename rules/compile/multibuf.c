/* multibuf.c — multi-buffers: rule buffers whose value is a list of elements, as Suricata's
 * http.request_header (one element per header, "Name: value"). Each element is inspected on
 * its own: a content run or bsize holds when it holds within one element (a content never
 * spans two headers), and the fast pattern is searched in each element (filters.c).
 *
 * One mechanism for every list buffer: det_app_buffer_at (app.c) serves element i of any
 * multi-buffer (det_app_multi), the parsers' (tls.certs, tls.alpn …: osprey_parsers_buffer_at)
 * and these derived ones alike. A new derived one adds its DOB_ id (detect_int.h), its MAP
 * row and det_app_multi case (app.c) and its element walk here. */
#include <string.h>

#include "detect_int.h"
#include "osprey_parsers.h"
#include "registry.h"

/* Line i of "Name: value\r\n" lines (the parser's normalized headers), without its CRLF. */
static const uint8_t *header_line(const uint8_t *h, uint32_t n, uint32_t i, uint32_t *len)
{
    for (uint32_t at = 0, k = 0; at < n; k++) {
        const uint8_t *line = h + at, *eol = memchr(line, '\n', n - at);
        uint32_t ll = eol ? (uint32_t)(eol - line) : n - at;
        at += ll + (eol ? 1 : 0);
        if (k != i)
            continue;
        if (ll && line[ll - 1] == '\r')
            ll--;
        *len = ll;
        return line;
    }
    return NULL;
}

bool det_multi_same_instance(const struct osprey_rule *r, uint32_t from, uint32_t to)
{
    for (uint32_t k = from + 1; k < to; k++)
        if (opt_def_by_id(r->opts[k].kw)->kind == OPT_STICKY)
            return false;
    return true;
}

/* Record types whose rdata is a name (CNAME, PTR, MX, NS; SOA's mname): dns.response.rrname
 * inspects it too. */
static const uint8_t *rdata_name(const struct osprey_dns_rr *rr, uint32_t *len)
{
    if (rr->type == 6 && rr->has_soa)
        return *len = rr->soa.mname_len, rr->soa.mname;
    if (rr->type == 5 || rr->type == 12 || rr->type == 15 || rr->type == 2)
        return *len = rr->rdata_len, rr->rdata;
    return NULL;
}

/* Element i of dns.response.rrname: a response's question names, then each answer's name
 * and name-like rdata, the authorities' the same way, then the additionals' names (their
 * rdata is not kept). Empty names are skipped. */
static const uint8_t *response_name(const struct osprey_dns_info *di, uint32_t i, uint32_t *len)
{
    uint32_t k = 0;
    const uint8_t *e;
    for (uint32_t q = 0; q < di->nqueries; q++)
        if (di->queries[q].name_len && k++ == i)
            return *len = di->queries[q].name_len, di->queries[q].name;
    for (int sec = 0; sec < 2; sec++) {
        const struct osprey_dns_rr *rrs = sec ? di->authorities : di->answers;
        uint32_t n = sec ? di->nauthorities : di->nanswers;
        for (uint32_t r = 0; r < n; r++) {
            if (rrs[r].name_len && k++ == i)
                return *len = rrs[r].name_len, rrs[r].name;
            if ((e = rdata_name(&rrs[r], len)) && *len && k++ == i)
                return e;
        }
    }
    for (uint32_t a = 0; a < di->nadditionals; a++)
        if (di->additionals[a].name_len && k++ == i)
            return *len = di->additionals[a].name_len, di->additionals[a].name;
    return NULL;
}

const uint8_t *det_multi_derived(struct osprey_detect_worker *w, struct mon_ctx *ctx,
                                 struct mon_flow *f, uint8_t ob, int slot, uint32_t i,
                                 uint32_t *len)
{
    *len = 0;
    if (!f)
        return NULL;
    uint32_t n = 0, el = 0;
    const uint8_t *b, *e = NULL;
    switch (ob) {
    case DOB_REQ_HEADER_LINES:
    case DOB_RESP_HEADER_LINES:
        b = osprey_parsers_buffer(ctx, f,
                                  ob == DOB_REQ_HEADER_LINES ? OB_HTTP_HEADER
                                                             : OB_HTTP_RESPONSE_HEADER,
                                  &n);
        e = b ? header_line(b, n, i, &el) : NULL;
        break;
    case DOB_DNS_QUERIES_RRNAME:
    case DOB_DNS_ANSWERS_RRNAME:
    case DOB_DNS_AUTHORITIES_RRNAME:
    case DOB_DNS_ADDITIONALS_RRNAME:
    case DOB_DNS_RESPONSE_RRNAME: {
        /* osprey_dns_info is large: read once per walk, at element 0 (the same event) */
        struct osprey_dns_info *di = &w->dns_info[slot];
        if (i == 0 && !osprey_parsers_dns_info(ctx, f, di))
            *di = (struct osprey_dns_info){.response = false};
        if (ob == DOB_DNS_RESPONSE_RRNAME) {
            e = di->response ? response_name(di, i, &el) : NULL;
            break;
        } else if (ob == DOB_DNS_ADDITIONALS_RRNAME) {
            if (di->response && i < di->nadditionals) /* as Suricata: a response's */
                e = di->additionals[i].name, el = di->additionals[i].name_len;
        } else if (ob == DOB_DNS_QUERIES_RRNAME) {
            if (i < di->nqueries)
                e = di->queries[i].name, el = di->queries[i].name_len;
        } else {
            bool an = ob == DOB_DNS_ANSWERS_RRNAME;
            /* as Suricata: the authority section of responses only */
            if (i < (an ? di->nanswers : di->response ? di->nauthorities : 0))
                e = (an ? di->answers : di->authorities)[i].name,
                el = (an ? di->answers : di->authorities)[i].name_len;
        }
        if (!el)
            e = NULL; /* as Suricata, the list ends at an empty (root) name */
        break;
    }
    default:
        return NULL;
    }
    *len = e ? el : 0;
    return e;
}
