/* sip.c — SIP's descriptor: the probe (UDP and TCP, either side), one event per message kind
 * (sip_request, sip_response), the buffers Suricata 8 names (start line parts, the headers
 * rules read, the SDP body's lines, the frames), anomaly names, counters, its EVE object and
 * its configuration keys; Snort's sip_header buffer and the fields its sip_method /
 * sip_stat_code read. Registered in core/registry.c. */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "sip_int.h"

static const struct proto_probe PROBES[] = {
    {6, 0, sip_probe}, {6, 1, sip_probe}, {17, 0, sip_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [SIP_EV_REQUEST] = {"sip_request", 0},
    [SIP_EV_RESPONSE] = {"sip_response", 1},
};

/* buffer keys: the start line's parts, the frames, then the headers (SB_HDR + enum sip_hdr),
 * then SDP's */
enum sip_buf {
    SB_METHOD, SB_URI, SB_PROTOCOL, SB_STAT_CODE, SB_STAT_MSG, SB_REQUEST_LINE,
    SB_RESPONSE_LINE, SB_F_PDU, SB_F_LINE, SB_F_HEADERS, SB_F_BODY,
    SB_HDR = 16, /* + enum sip_hdr */
    SB_SDP_ORIGIN = 32, SB_SDP_SESSION_NAME, SB_SDP_SESSION_INFO, SB_SDP_URI, SB_SDP_EMAIL,
    SB_SDP_PHONE, SB_SDP_CONN, SB_SDP_BANDWIDTH, SB_SDP_TIME, SB_SDP_REPEAT, SB_SDP_TIMEZONE,
    SB_SDP_KEY, SB_SDP_ATTRIBUTE, SB_SDP_M_MEDIA, SB_SDP_M_INFO, SB_SDP_M_CONN, SB_SDP_M_KEY,
};

/* The i-th set span of n spans laid out every stride bytes from first (lists of structs). */
static const struct span *nth_set(const void *first, size_t stride, uint32_t n, uint32_t i)
{
    for (uint32_t k = 0; k < n; k++) {
        const struct span *s = (const struct span *)((const char *)first + (size_t)k * stride);
        if (s->set && i-- == 0)
            return s;
    }
    return NULL;
}

static const struct span *sdp_span(const struct sdp *d, unsigned key, uint32_t i)
{
    const struct span *single = NULL;
    switch (key) {
    case SB_SDP_ORIGIN: single = &d->origin; break;
    case SB_SDP_SESSION_NAME: single = &d->session_name; break;
    case SB_SDP_SESSION_INFO: single = &d->session_info; break;
    case SB_SDP_URI: single = &d->uri; break;
    case SB_SDP_EMAIL: single = &d->email; break;
    case SB_SDP_PHONE: single = &d->phone; break;
    case SB_SDP_CONN: single = &d->conn; break;
    case SB_SDP_TIMEZONE: single = &d->timezone; break;
    case SB_SDP_KEY: single = &d->key; break;
    case SB_SDP_BANDWIDTH: return i < d->nbw ? &d->bw[i] : NULL;
    case SB_SDP_ATTRIBUTE: return i < d->nattr ? &d->attr[i] : NULL;
    case SB_SDP_TIME:
        return nth_set(&d->times[0].time, sizeof d->times[0], d->ntimes, i);
    case SB_SDP_REPEAT:
        return nth_set(&d->times[0].repeat, sizeof d->times[0], d->ntimes, i);
    case SB_SDP_M_MEDIA:
        return nth_set(&d->media[0].media, sizeof d->media[0], d->nmedia, i);
    case SB_SDP_M_INFO:
        return nth_set(&d->media[0].info, sizeof d->media[0], d->nmedia, i);
    case SB_SDP_M_CONN:
        return nth_set(&d->media[0].conn, sizeof d->media[0], d->nmedia, i);
    case SB_SDP_M_KEY:
        return nth_set(&d->media[0].key, sizeof d->media[0], d->nmedia, i);
    default: return NULL;
    }
    return i == 0 ? single : NULL;
}

/* The span key of message m, element i (NULL: absent). */
static const struct span *span_of(const struct sip_msg *m, unsigned key, uint32_t i,
                                  struct span *tmp)
{
    if (key >= SB_SDP_ORIGIN)
        return m->sdp.present ? sdp_span(&m->sdp, key, i) : NULL;
    if (key >= SB_HDR) { /* the i-th header of that kind */
        for (uint32_t k = 0; k < m->nhdr; k++)
            if (m->hdr[k].kind == (enum sip_hdr)(key - SB_HDR) && i-- == 0)
                return &m->hdr[k].value;
        return NULL;
    }
    if (i > 0)
        return NULL;
    switch (key) {
    case SB_METHOD: return &m->method;
    case SB_URI: return &m->uri;
    case SB_PROTOCOL: return &m->version;
    case SB_STAT_CODE: return &m->code;
    case SB_STAT_MSG: return &m->reason;
    case SB_REQUEST_LINE: case SB_RESPONSE_LINE: return &m->line;
    case SB_F_LINE: return &m->line_crlf;
    case SB_F_HEADERS: return &m->headers;
    case SB_F_PDU:
        *tmp = (struct span){0, m->raw.len, true};
        return tmp;
    case SB_F_BODY: return m->body.len ? &m->body : NULL; /* no body: no frame */
    default: return NULL;
    }
}

static const uint8_t *get(struct pflow *pf, unsigned key, uint32_t i, bool request,
                          bool response, uint32_t *len)
{
    const struct sip_state *st = pf->state;
    if (!st || !st->msg.line.set || (st->msg.response ? !response : !request))
        return NULL;
    struct span tmp;
    const struct span *s = span_of(&st->msg, key, i, &tmp);
    return s ? sip_span(&st->msg, s, len) : NULL;
}

/* a request's buffer, a response's, either's */
static const uint8_t *req(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                          uint32_t *len)
{
    (void)s;
    return get(pf, key, i, true, false, len);
}

static const uint8_t *resp(struct pflow *pf, unsigned key, uint32_t i,
                           struct osprey_scratch *s, uint32_t *len)
{
    (void)s;
    return get(pf, key, i, false, true, len);
}

#define RQ(n_, key_, multi_) \
    {.name = n_, .dir = 0, .event = "sip_request", .multi = multi_, .key = key_, .get = req}
#define RS(n_, key_, multi_) \
    {.name = n_, .dir = 1, .event = "sip_response", .multi = multi_, .key = key_, .get = resp}
#define BOTH(n_, key_, multi_) RQ(n_, key_, multi_), RS(n_, key_, multi_)
static const struct proto_buffer BUFFERS[] = {
    RQ("sip.method", SB_METHOD, false),
    RQ("sip.uri", SB_URI, false),
    RQ("sip.request_line", SB_REQUEST_LINE, false),
    RS("sip.stat_code", SB_STAT_CODE, false),
    RS("sip.stat_msg", SB_STAT_MSG, false),
    RS("sip.response_line", SB_RESPONSE_LINE, false),
    BOTH("sip.protocol", SB_PROTOCOL, false),
    /* every value of the header (a repeated header, its compact form too) */
    BOTH("sip.from", SB_HDR + SH_FROM, true),
    BOTH("sip.to", SB_HDR + SH_TO, true),
    BOTH("sip.via", SB_HDR + SH_VIA, true),
    BOTH("sip.user_agent", SB_HDR + SH_USER_AGENT, true),
    BOTH("sip.content_type", SB_HDR + SH_CONTENT_TYPE, true),
    BOTH("sip.content_length", SB_HDR + SH_CONTENT_LENGTH, true),
    /* the SDP body's lines (values without "x="); the lists per line */
    BOTH("sdp.origin", SB_SDP_ORIGIN, false),
    BOTH("sdp.session_name", SB_SDP_SESSION_NAME, false),
    BOTH("sdp.session_info", SB_SDP_SESSION_INFO, false),
    BOTH("sdp.uri", SB_SDP_URI, false),
    BOTH("sdp.email", SB_SDP_EMAIL, false),
    BOTH("sdp.phone_number", SB_SDP_PHONE, false),
    BOTH("sdp.connection_data", SB_SDP_CONN, false),
    BOTH("sdp.bandwidth", SB_SDP_BANDWIDTH, true),
    BOTH("sdp.time", SB_SDP_TIME, true),
    BOTH("sdp.repeat_time", SB_SDP_REPEAT, true),
    BOTH("sdp.timezone", SB_SDP_TIMEZONE, false),
    BOTH("sdp.encryption_key", SB_SDP_KEY, false),
    BOTH("sdp.attribute", SB_SDP_ATTRIBUTE, true),
    BOTH("sdp.media.media", SB_SDP_M_MEDIA, true),
    BOTH("sdp.media.media_info", SB_SDP_M_INFO, true), /* docs: sdp.media.session_info */
    BOTH("sdp.media.connection_data", SB_SDP_M_CONN, true),
    BOTH("sdp.media.encryption_key", SB_SDP_M_KEY, true),
    /* Suricata's SIP frames: the message, its start line (with CRLF), its header lines (with
     * their CRLFs, not the empty line) and its body */
    BOTH("frame:sip.pdu", SB_F_PDU, false),
    RQ("frame:sip.request.line", SB_F_LINE, false),
    RQ("frame:sip.request.headers", SB_F_HEADERS, false),
    RQ("frame:sip.request.body", SB_F_BODY, false),
    RS("frame:sip.response.line", SB_F_LINE, false),
    RS("frame:sip.response.headers", SB_F_HEADERS, false),
    RS("frame:sip.response.body", SB_F_BODY, false),
    /* Snort's sip_header: a message's header lines (as the frames') */
    RQ("sip_header", SB_F_HEADERS, false),
    RS("sip_header", SB_F_HEADERS, false),
};
#undef RQ
#undef RS
#undef BOTH

/* Snort's SIP methods (sip_method's names): the field's values; another method is 0 */
static const struct proto_value METHODS[] = {
    {"invite", 1}, {"cancel", 2}, {"ack", 3}, {"bye", 4}, {"register", 5}, {"options", 6},
    {"refer", 7}, {"subscribe", 8}, {"update", 9}, {"join", 10}, {"info", 11},
    {"message", 12}, {"notify", 13}, {"prack", 14}, {"publish", 15}, {NULL, 0}};

enum { SF_METHOD, SF_STAT_CODE };
static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct sip_state *st = pf->state;
    const struct sip_msg *m = st && st->msg.line.set ? &st->msg : NULL;
    uint32_t n;
    if (!m || i || m->response != (key == SF_STAT_CODE))
        return false;
    const uint8_t *d = sip_span(m, key == SF_METHOD ? &m->method : &m->code, &n);
    if (!d)
        return false;
    if (key == SF_STAT_CODE) {
        uint32_t code;
        if (n != 3 || pdec_u32(d, n, &code) != 3)
            return false;
        *out = code;
        return true;
    }
    *out = 0;
    for (const struct proto_value *v = METHODS; v->name; v++)
        if (strlen(v->name) == n && !strncasecmp(v->name, (const char *)d, n))
            *out = v->value;
    return true;
}

static const struct proto_field FIELDS[] = {
    {"sip_method", SF_METHOD, field, METHODS},     /* a request's */
    {"sip_stat_code", SF_STAT_CODE, field, NULL},  /* a response's */
};

static const char *const ANOMALIES[] = {
    [SIP_AE_INCOMPLETE_DATA] = "sip.incomplete_data",
    [SIP_AE_INVALID_DATA] = "sip.invalid_data", /* a message that does not parse */
};

static const char *const COUNTERS[] = {
    [SIP_C_MESSAGES] = "sip_messages",
    [SIP_C_MALFORMED] = "sip_malformed",          /* messages that do not parse */
    [SIP_C_HEADERS_SHED] = "sip_headers_shed",    /* header lines past SIP_HEADERS_MAX */
    [SIP_C_SDP_SHED] = "sip_sdp_lines_shed",      /* SDP list lines past SIP_SDP_MAX */
    [SIP_C_TOO_LARGE] = "sip_too_large",          /* messages cut at SIP_MSG_MAX */
};


const struct osprey_proto_def sip_proto = {
    .name = "sip",
    .flow_stat = "flow.sip",
    .l4 = 0, /* over UDP and TCP */
    .probes = PROBES,
    .parse = sip_parse_tcp,
    .parse_dgram = sip_parse_dgram,
    .state_free = sip_free,
    .tx_id = sip_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = SIP_C_MESSAGES,
    .eve = sip_eve,
};
