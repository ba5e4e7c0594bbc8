/* dns.c — DNS's descriptor: probes (with the port hints), events, buffers (the record lists,
 * the first question's name, the message), fields (opcode, rcode, record types), anomaly
 * names, counters. Registered in core/registry.c. */
#include "dns_int.h"

static bool port53(const struct mon_flow *f)
{
    return f->sport == 53 || f->cport == 53 || f->sport == 5353; /* DNS, mDNS */
}

/* TCP: with port 53 as a hint only */
static enum probe_verdict probe_tcp(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    return port53(f) ? detect_dns(d, n, true) : DET_NO;
}

/* UDP: off port 53 a datagram must look like a plain query to be taken for DNS */
static enum probe_verdict probe_udp(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    enum probe_verdict v = detect_dns(d, n, false);
    if (v == DET_YES && !port53(f) && detect_dns_strict(d, n) != DET_YES)
        return DET_NO;
    return v == DET_YES ? DET_YES : DET_NO;
}

static const struct proto_probe PROBES[] = {
    {6, 0, probe_tcp}, {17, 0, probe_udp}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [DNS_EV_QUERY] = {"dns_query", 0},
    [DNS_EV_RESPONSE] = {"dns_response", 1},
};

enum { DB_RRNAME = 16, DB_PDU }; /* keys past the lists (enum dns_wire_list) */

static const uint8_t *buf(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                          uint32_t *len)
{
    (void)s;
    const struct dns_wire *st = pf->state;
    if (!st || !st->has_query)
        return NULL;
    if (key == DB_PDU) { /* the message as sent (without TCP's length prefix) */
        *len = st->pdu.len;
        return st->pdu.len ? st->pdu.p : (const uint8_t *)"";
    }
    if (key == DB_RRNAME) { /* the first question's name, dotted, as sent */
        *len = st->qlen;
        return st->qlen ? st->query : (const uint8_t *)"";
    }
    return dns_wire_list_at(st, (enum dns_wire_list)key, i, len);
}

#define L(name_, a1_, a2_, dir_, ev_, key_) \
    {.name = name_, .alias = {a1_, a2_, NULL}, .dir = dir_, .event = ev_, .multi = true, .late = false, .record = false, .key = key_, .get = buf}
static const struct proto_buffer BUFFERS[] = {
    /* every question's name: dns.query in requests only (Suricata 7+), the Suricata 8
     * spellings in requests and responses alike */
    L("dns.query", "dns.queries.rrname", "dns.query.name", 0, "dns_query", DNS_L_QUERIES),
    L("dns.queries.rrname", "dns.query.name", NULL, 1, "dns_response", DNS_L_QUERIES),
    L("dns.answers.rrname", "dns.answer.name", NULL, 0, "dns_query", DNS_L_ANSWERS),
    L("dns.answers.rrname", "dns.answer.name", NULL, 1, "dns_response", DNS_L_ANSWERS),
    L("dns.authorities.rrname", NULL, NULL, 0, "dns_query", DNS_L_AUTHORITIES),
    L("dns.authorities.rrname", NULL, NULL, 1, "dns_response", DNS_L_AUTHORITIES),
    L("dns.additionals.rrname", NULL, NULL, 0, "dns_query", DNS_L_ADDITIONALS),
    L("dns.additionals.rrname", NULL, NULL, 1, "dns_response", DNS_L_ADDITIONALS),
    L("dns.response.rrname", NULL, NULL, 1, "dns_response", DNS_L_RESPONSE),
    /* Suricata's dns.pdu frame: each message, both ways */
    {.name = "frame:dns.pdu", .dir = 0, .event = "dns_query", .multi = false, .late = false, .record = false, .key = DB_PDU, .get = buf},
    {.name = "frame:dns.pdu", .dir = 1, .event = "dns_response", .multi = false, .late = false, .record = false, .key = DB_PDU, .get = buf},
    /* records (trace): each answer's name and rdata as text, empty ones too */
    {.name = "dns.answers.name", .dir = 1, .event = "dns_response", .multi = true,
     .record = true, .key = DNS_L_ANSWER_NAMES, .get = buf},
    {.name = "dns.answers.rdata", .dir = 1, .event = "dns_response", .multi = true,
     .record = true, .key = DNS_L_ANSWER_RDATA, .get = buf},
    /* the first question's name (EVE's rrname, trace's dns.query) */
    {.name = "dns.query", .dir = 0, .event = "dns_query", .multi = false, .late = false, .record = true, .key = DB_RRNAME, .get = buf},
};
#undef L

enum { DF_OPCODE, DF_RCODE, DF_RRTYPE, DF_ID, DF_FLAGS, DF_QTYPE, DF_ANSWER_TYPE,
       DF_ANSWER_TTL };

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct dns_wire *st = pf->state;
    if (!st || !st->has_query)
        return false;
    const struct dns_wire_info *di = &st->info;
    if (key == DF_RRTYPE) {
        /* any question's type; in a response, any answer's too (as Suricata 8) */
        if (i < di->nqueries)
            return *out = di->queries[i].type, true;
        i -= di->nqueries;
        if (di->response && i < di->nanswers)
            return *out = di->answers[i].type, true;
        return false;
    }
    if (key == DF_ANSWER_TYPE || key == DF_ANSWER_TTL) { /* each kept answer's */
        if (i >= di->nanswers)
            return false;
        *out = key == DF_ANSWER_TYPE ? di->answers[i].type : di->answers[i].ttl;
        return true;
    }
    if (i > 0)
        return false;
    switch (key) {
    case DF_QTYPE: *out = di->qtype; return true;
    case DF_OPCODE: *out = (di->flags >> 11) & 0xf; return true;
    case DF_RCODE: *out = di->rcode; return true;
    case DF_ID: *out = di->id; return true;
    case DF_FLAGS: *out = di->flags; return true;
    }
    return false;
}

static const struct proto_field FIELDS[] = {
    {"dns.opcode", DF_OPCODE, field, NULL},
    {"dns.rcode", DF_RCODE, field, NULL},
    {"dns.rrtype", DF_RRTYPE, field, NULL}, /* multi: the questions', then a response's answers' */
    {"dns.id", DF_ID, field, NULL},
    {"dns.flags", DF_FLAGS, field, NULL},   /* as on the wire: QR, opcode, AA, TC, RD, RA, rcode */
    {"dns.qtype", DF_QTYPE, field, NULL},   /* the first question's type */
    {"dns.answers.type", DF_ANSWER_TYPE, field, NULL}, /* multi: each kept answer's */
    {"dns.answers.ttl", DF_ANSWER_TTL, field, NULL},
};

static const char *const ANOMALIES[] = {
    [DNS_AE_MALFORMED_DATA] = "dns.malformed_data", /* a message that does not decode */
    [DNS_AE_Z_FLAG_SET] = "dns.z_flag_set",         /* the reserved header bit is set */
    [DNS_AE_NOT_REQUEST] = "dns.not_request",       /* a response sent to the server */
    [DNS_AE_NOT_RESPONSE] = "dns.not_response",     /* a query sent to the client */
    /* the header and answers decode, a later section does not: the message stands */
    [DNS_AE_INVALID_AUTHORITIES] = "dns.invalid_authorities",
    [DNS_AE_INVALID_ADDITIONALS] = "dns.invalid_additionals",
    [DNS_AE_NAME_TOO_LONG] = "dns.name_too_long", /* a name cut at DNS_NAME_MAX bytes */
    [DNS_AE_INVALID_OPCODE] = "dns.invalid_opcode", /* an opcode no RFC assigns (7 or more) */
    [DNS_AE_INFINITE_LOOP] = "dns.infinite_loop",  /* a pointer to itself, after a pointer */
    [DNS_AE_TOO_MANY_LABELS] = "dns.too_many_labels", /* > DNS_NAME_STEPS labels and pointers */
};

static const char *const COUNTERS[] = {
    [DNS_C_MESSAGES] = "dns_messages",
    [DNS_C_MALFORMED] = "dns_malformed",
};

/* osprey-trace --app: the query name, and the message's header and answers as EVE's dns
 * record names them */
static const struct osprey_trace_value MESSAGE[] = {
    {"id", "dns.id", false}, {"rcode", "dns.rcode", false}, {"rrtype", "dns.qtype", false},
    {NULL, NULL, false}};
static const struct osprey_trace_value ANSWER[] = {
    {"rrname", "dns.answers.name", true}, {"rrtype", "dns.answers.type", false},
    {"ttl", "dns.answers.ttl", false}, {"rdata", "dns.answers.rdata", true},
    {NULL, NULL, false}};
static const struct osprey_trace_object TRACE_MESSAGE = {MESSAGE, "answers", ANSWER, NULL};
static const struct proto_trace TRACE[] = {
    {"dns_query", {"dns.query", NULL}, false, &TRACE_MESSAGE},
    {"dns_response", {"dns.query", NULL}, false, &TRACE_MESSAGE},
};

const struct osprey_proto_def dns_proto = {
    .name = "dns",
    .raw_trigger = true, /* Suricata triggers raw reassembly per TCP message (its task 7018) */
    .flow_stat = "flow.dns",
    .l4 = 0, /* over UDP and TCP */
    .probes = PROBES,
    .home_port = 53, /* detection-ports.dp: other ports probed as this one */
    .parse = dns_tcp_parse,
    .parse_dgram = dns_message,
    .state_free = dns_wire_free,
    .tx_id = dns_wire_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = DNS_C_MESSAGES,
    .eve = dns_eve,
    .trace = TRACE, .ntrace = PROTO_N(TRACE),
};
