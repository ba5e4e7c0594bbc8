/* ldap.c — LDAP's descriptor: probes (TCP either side, CLDAP on UDP port 389), one event per
 * request (ldap_request) and per response (ldap_response), Suricata 8's sticky buffers
 * (ldap.request.dn and .attribute_type; ldap.responses.dn, .message and .attribute_type:
 * the newest response's, so a rule matches a response once, as Suricata's match a
 * transaction once), the integer fields ldap.request.operation, ldap.responses.operation /
 * .result_code (one element per response so far) and ldap.responses.count, app-layer events,
 * counters, configuration keys and its EVE object. Registered in core/registry.c. */
#include <stddef.h>

#include "ldap_int.h"

static const struct proto_probe PROBES[] = {
    {6, 0, ldap_probe}, {6, 1, ldap_probe}, {17, 0, ldap_probe_udp}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [LDAP_EV_REQUEST] = {"ldap_request", 0, NULL},
    [LDAP_EV_RESPONSE] = {"ldap_response", 1, NULL},
};

static const struct ldap_tx *cur(struct pflow *pf)
{
    const struct ldap_state *st = pf->state;
    return st ? st->cur : NULL;
}

static const uint8_t *span_at(const struct ldap_msg *m, const struct span *s, uint32_t *len)
{
    if (!s->set)
        return NULL;
    *len = s->len;
    return s->len ? m->body + s->off : (const uint8_t *)"";
}

/* the newest response, when it was kept */
static const struct ldap_msg *newest(const struct ldap_tx *tx)
{
    return tx && tx->nkept && tx->nkept == tx->nresp ? &tx->resp[tx->nkept - 1] : NULL;
}

static const uint8_t *buffer(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)s;
    const struct ldap_tx *tx = cur(pf);
    const struct ldap_msg *m = key <= LB_REQ_ATTR ? (tx && tx->has_req ? &tx->req : NULL)
                                                  : newest(tx);
    if (!m)
        return NULL;
    switch (key) {
    case LB_REQ_DN:
        return i == 0 ? span_at(m, &m->dn, len) : NULL;
    case LB_RESP_DN: /* an entry's objectName, a result's matchedDN */
        return i == 0 && (m->op == LOP_SEARCH_ENTRY || m->has_result) ? span_at(m, &m->dn, len)
                                                                        : NULL;
    case LB_RESP_MSG:
        return i == 0 && m->has_result ? span_at(m, &m->message, len) : NULL;
    case LB_REQ_ATTR: case LB_RESP_ATTR:
        return i < m->nattrs ? span_at(m, &m->attrs[i].type, len) : NULL;
    default:
        return NULL;
    }
}

#define BUF(n, d, ev, m, k) {.name = n, .dir = d, .event = ev, .multi = m, .key = k, \
                             .get = buffer}
static const struct proto_buffer BUFFERS[] = {
    BUF("ldap.request.dn", 0, "ldap_request", false, LB_REQ_DN),
    BUF("ldap.request.attribute_type", 0, "ldap_request", true, LB_REQ_ATTR),
    BUF("ldap.responses.dn", 1, "ldap_response", true, LB_RESP_DN),
    BUF("ldap.responses.message", 1, "ldap_response", true, LB_RESP_MSG),
    BUF("ldap.responses.attribute_type", 1, "ldap_response", true, LB_RESP_ATTR),
};
#undef BUF

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct ldap_tx *tx = cur(pf);
    if (!tx)
        return false;
    switch (key) {
    case LF_REQ_OP:
        *out = tx->has_req ? tx->req.op : 0;
        return i == 0 && tx->has_req;
    case LF_RESP_COUNT:
        *out = tx->nresp;
        return i == 0;
    case LF_RESP_OP:
        if (i >= tx->nkept)
            return false;
        *out = tx->resp[i].op;
        return true;
    case LF_RESP_RESULT: /* -1: a response without an LDAPResult (an entry …) */
        if (i >= tx->nkept)
            return false;
        *out = tx->resp[i].has_result ? tx->resp[i].result : -1;
        return true;
    default:
        return false;
    }
}

static const struct proto_field FIELDS[] = {
    {"ldap.request.operation", LF_REQ_OP, field, ldap_op_values},
    {"ldap.responses.operation", LF_RESP_OP, field, ldap_op_values},
    {"ldap.responses.count", LF_RESP_COUNT, field, NULL},
    {"ldap.responses.result_code", LF_RESP_RESULT, field, ldap_result_values},
};

static const char *const ANOMALIES[] = {
    [LDAP_AE_TOO_MANY_TX] = "ldap.too_many_transactions", /* past max-tx waiting */
    [LDAP_AE_INVALID] = "ldap.invalid_data",              /* a message that does not decode */
    /* Suricata's name, for its rules: a response without request opens a transaction of its
     * own here (an unsolicited notification), as Suricata 8 logs it */
    [LDAP_AE_REQUEST_NOT_FOUND] = "ldap.request_not_found",
    [LDAP_AE_TOO_MANY_RESPONSES] = "ldap.too_many_responses", /* past LDAP_RESP_MAX kept */
};

static const char *const COUNTERS[] = {
    [LDAP_C_TX] = "ldap_tx",
    [LDAP_C_MESSAGES] = "ldap_messages",
    [LDAP_C_MALFORMED] = "ldap_malformed",
    [LDAP_C_SKIPPED] = "ldap_skipped",   /* messages past LDAP_MSG_MAX, skipped */
    [LDAP_C_TX_SHED] = "ldap_tx_shed",   /* waiting transactions finished past the limits */
    [LDAP_C_SHED] = "ldap_shed",         /* responses, attributes, values past the limits */
};

#define CFG(k, kd, member, lo) \
    {.key = k, .kind = kd, .offset = offsetof(struct ldap_cfg, member), .min = lo}
static const struct osprey_parsers_cfg_key CFG_KEYS[] = {
    CFG("app-layer.protocols.ldap.max-tx", OSPREY_CFG_UINT, max_tx, 1),
};
#undef CFG

static void ldap_cfg_defaults(void *v)
{
    struct ldap_cfg *c = v;
    c->max_tx = 256;
}

const struct osprey_proto_def ldap_proto = {
    .name = "ldap",
    .flow_stat = "flow.ldap",
    .l4 = 0,
    .probes = PROBES,
    .parse = ldap_parse,
    .parse_dgram = ldap_parse_dgram,
    .gap = ldap_gap,
    .end = ldap_end,
    .state_free = ldap_free,
    .state_trim = ldap_trim,
    .tx_id = ldap_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = LDAP_C_TX,
    .eve = ldap_eve,
    .cfg_keys = CFG_KEYS, .ncfg_keys = PROTO_N(CFG_KEYS),
    .cfg_size = sizeof(struct ldap_cfg), .cfg_defaults = ldap_cfg_defaults,
};
