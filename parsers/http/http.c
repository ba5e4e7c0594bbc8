/* http.c — HTTP/1.x's descriptor: probes, events, buffers (the parser's own, the derived
 * ones of derived.c, and the request buffers read late under the response), fields (status,
 * response length), anomaly names, counters. Registered in core/registry.c. */
#include <stddef.h>

#include "files.h"
#include "http_int.h"

static enum probe_verdict probe_request(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    return detect_http_request(d, n);
}

static enum probe_verdict probe_response(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    return detect_http_response(d, n);
}

static const struct proto_probe PROBES[] = {
    {6, 0, probe_request}, {6, 1, probe_response}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    /* the request line complete (its headers may still be coming): Suricata inspects the
     * method, URI and protocol from there on (libhtp's REQUEST_LINE progress) */
    [HTTP_EV_REQUEST_LINE] = {"http_request_line", 0, "request_line"},
    /* request line + headers complete */
    [HTTP_EV_REQUEST] = {"http_request", 0, "request_headers"},
    [HTTP_EV_REQUEST_BODY] = {"http_request_body", 0}, /* complete or cut at its limit */
    /* the message is complete, head and body (an empty one too): Suricata's HTTP/1 frames
     * (the hooks *_complete: once per transaction there; the body hooks run per body
     * update in Suricata, which Osprey does not raise) */
    [HTTP_EV_REQUEST_DONE] = {"http_request_done", 0, "request_complete"},
    /* status line + headers complete */
    [HTTP_EV_RESPONSE] = {"http_response", 1, "response_headers"},
    /* complete or cut (also at flow end when the response had no length) */
    [HTTP_EV_RESPONSE_BODY] = {"http_response_body", 1},
    [HTTP_EV_RESPONSE_DONE] = {"http_response_done", 1, "response_complete"},
};

/* Suricata 8's HTTP/1 progress states (the firewall's hooks, `http1:request_line`): the
 * started and trailer states and the response line have no event of their own here, so
 * their rules run at the next state's (core/hooks.c); the body states only when there is
 * a body */
static const struct proto_hook HOOKS[] = {
    {"request_started", 0, NULL},
    {"request_line", 0, "http_request_line"},
    {"request_headers", 0, "http_request"},
    {"request_body", 0, "http_request_body"},
    {"request_trailer", 0, NULL},
    {"request_complete", 0, "http_request_done"},
    {"response_started", 1, NULL},
    {"response_line", 1, NULL},
    {"response_headers", 1, "http_response"},
    {"response_body", 1, "http_response_body"},
    {"response_trailer", 1, NULL},
    {"response_complete", 1, "http_response_done"},
};

static const uint8_t *own(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                          uint32_t *len)
{
    (void)i, (void)s;
    return http_buffer(pf, (enum http_buf)key, len);
}

#define LINE "http_request_line"
#define REQ "http_request"
#define RESP "http_response"
/* the parser's buffer: in its direction, or a request's read late under the response */
#define O(name_, dir_, ev_, key_) \
    {.name = name_, .dir = dir_, .event = ev_, .multi = false, .late = false, .record = false, .key = key_, .get = own}
#define LATE(name_, key_) \
    {.name = name_, .dir = 1, .event = RESP, .multi = false, .late = true, .record = false, .key = key_, .get = own}
/* derived (derived.c); D_LATE: a request's, read under the response */
#define D(name_, dir_, ev_, multi_, key_) \
    {.name = name_, .dir = dir_, .event = ev_, .multi = multi_, .late = false, .record = false, .key = key_, .get = http_derived}
#define D_LATE(name_, multi_, key_) \
    {.name = name_, .dir = 1, .event = RESP, .multi = multi_, .late = true, .record = false, .key = key_, .get = http_derived}
/* for records only (EVE, trace): the parser's own under the names they print */
#define REC(name_, dir_, ev_, key_) \
    {.name = name_, .dir = dir_, .event = ev_, .multi = false, .late = false, .record = true, .key = key_, .get = own}

static const struct proto_buffer BUFFERS[] = {
    /* the method: a fast pattern only when the rule has no other */
    /* the request line's buffers: from the request line on */
    {.name = "http.method", .dir = 0, .event = LINE, .multi = false, .late = false, .record = false, .key = HB_METHOD, .get = own, .fp_last = true},
    {.name = "http.method", .dir = 1, .event = RESP, .multi = false, .late = true, .record = false, .key = HB_METHOD, .get = own, .fp_last = true},
    O("http.uri", 0, LINE, HB_URI),                   LATE("http.uri", HB_URI),
    O("http.uri.raw", 0, LINE, HB_URI_RAW),           LATE("http.uri.raw", HB_URI_RAW),
    O("http.request_line", 0, LINE, HB_REQUEST_LINE), LATE("http.request_line", HB_REQUEST_LINE),
    O("http.protocol", 0, LINE, HB_PROTOCOL),         LATE("http.protocol", HB_PROTOCOL),
    O("http.user_agent", 0, REQ, HB_USER_AGENT),     LATE("http.user_agent", HB_USER_AGENT),
    O("http.host", 0, REQ, HB_HOST),                 LATE("http.host", HB_HOST),
    O("http.host.raw", 0, REQ, HB_HOST_RAW),         LATE("http.host.raw", HB_HOST_RAW),
    O("http.referer", 0, REQ, HB_REFERER),           LATE("http.referer", HB_REFERER),
    /* two-sided: the request's in a to_server rule, the response's in a to_client one */
    D("http.header", 0, REQ, false, HD_REQ_HEADER),  D("http.header", 1, RESP, false, HD_RESP_HEADER),
    O("http.header.raw", 0, REQ, HB_HEADER_RAW),
    O("http.header.raw", 1, RESP, HB_RESPONSE_HEADER_RAW),
    O("http.cookie", 0, REQ, HB_COOKIE),             O("http.cookie", 1, RESP, HB_RESPONSE_COOKIE),
    O("http.content_type", 0, REQ, HB_CONTENT_TYPE),
    O("http.content_type", 1, RESP, HB_RESPONSE_CONTENT_TYPE),
    {.name = "http.request_body", .dir = 0, .event = "http_request_body", .multi = false, .late = false, .record = false, .key = HB_REQUEST_BODY, .get = own},
    /* a request's files (files.c): a POST / PUT body, or each multipart part with a filename */
    {.name = "file.data", .dir = 0, .event = "http_request_body", .multi = true, .late = false, .record = false, .key = 0, .get = http_file_buffer},
    LATE("http.request_body", HB_REQUEST_BODY),
    {.name = "http.response_body", .alias = {"file.data", NULL}, .dir = 1, .event = "http_response_body", .multi = false, .late = false, .record = false, .key = HB_RESPONSE_BODY, .get = own},
    O("http.stat_code", 1, RESP, HB_STAT_CODE),
    O("http.stat_msg", 1, RESP, HB_STAT_MSG),
    O("http.response_line", 1, RESP, HB_RESPONSE_LINE),
    D("http.header_names", 0, REQ, false, HD_REQ_HEADER_NAMES),
    D("http.header_names", 1, RESP, false, HD_RESP_HEADER_NAMES),
    D("http.start", 0, REQ, false, HD_REQ_START),    D("http.start", 1, RESP, false, HD_RESP_START),
    D("http.content_len", 0, REQ, false, HD_REQ_CONTENT_LEN),
    D("http.content_len", 1, RESP, false, HD_RESP_CONTENT_LEN),
    D("http.connection", 0, REQ, false, HD_REQ_CONNECTION),
    D("http.connection", 1, RESP, false, HD_RESP_CONNECTION),
    D("http.accept", 0, REQ, false, HD_ACCEPT),      D_LATE("http.accept", false, HD_ACCEPT),
    D("http.accept_enc", 0, REQ, false, HD_ACCEPT_ENC),
    D_LATE("http.accept_enc", false, HD_ACCEPT_ENC),
    D("http.accept_lang", 0, REQ, false, HD_ACCEPT_LANG),
    D_LATE("http.accept_lang", false, HD_ACCEPT_LANG),
    D("http.location", 1, RESP, false, HD_LOCATION),
    D("http.server", 1, RESP, false, HD_SERVER),
    /* Suricata's HTTP/1 frames: the whole message, once it is complete */
    D("frame:http1.request", 0, "http_request_done", false, HD_REQ_FRAME),
    D_LATE("frame:http1.request", false, HD_REQ_FRAME),
    D("frame:http1.response", 1, "http_response_done", false, HD_RESP_FRAME),
    /* the bodies' files (files.c): once a message is complete, its file is */
    PFILE_BUFFERS("http_request_done", "http_response_done"),
    /* multi-buffers: one element per header */
    D("http.request_header", 0, REQ, true, HD_REQ_HEADER_LINES),
    D_LATE("http.request_header", true, HD_REQ_HEADER_LINES),
    D("http.response_header", 1, RESP, true, HD_RESP_HEADER_LINES),
    /* records: the parser's normalized headers (cookies included) and single headers */
    REC("http.header", 0, REQ, HB_HEADER),
    REC("http.response_header", 1, RESP, HB_RESPONSE_HEADER),
    REC("http.start", 0, REQ, HB_START),
    REC("http.accept", 0, REQ, HB_ACCEPT),
    REC("http.accept_enc", 0, REQ, HB_ACCEPT_ENC),
    REC("http.accept_lang", 0, REQ, HB_ACCEPT_LANG),
    REC("http.connection", 0, REQ, HB_CONNECTION),
    REC("http.content_len", 0, REQ, HB_CONTENT_LEN),
    REC("http.server", 1, RESP, HB_SERVER),
    REC("http.location", 1, RESP, HB_LOCATION),
    /* the request's host as EVE writes it: the Host header's case (unified2's hostname) */
    {.name = "http.hostname", .dir = 0, .event = REQ, .record = true, .get = http_hostname},
    REC("http.response_header.raw", 1, RESP, HB_RESPONSE_HEADER_RAW),
    REC("http.response_cookie", 1, RESP, HB_RESPONSE_COOKIE),
    REC("http.response_content_type", 1, RESP, HB_RESPONSE_CONTENT_TYPE),
};

enum { HF_STATUS, HF_RESPONSE_LENGTH };

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct http_state *h = pf->state;
    if (!h || !h->cur || i > 0)
        return false;
    /* status: 0 when no response yet; response length: the body as sent (chunk framing
     * and compression included, limits ignored), EVE's http "length" as Suricata counts it */
    *out = key == HF_STATUS ? http_status(pf) : (int64_t)http_response_wire_len(pf);
    return true;
}

static const struct proto_field FIELDS[] = {
    {"http.status", HF_STATUS, field, NULL},
    {"http.response_length", HF_RESPONSE_LENGTH, field, NULL},
};

static const char *const ANOMALIES[] = {
    [HTTP_AE_INVALID_REQUEST_CHUNK_LEN] = "http.invalid_request_chunk_len",
    [HTTP_AE_INVALID_RESPONSE_CHUNK_LEN] = "http.invalid_response_chunk_len",
    /* Content-Length repeated with differing values */
    [HTTP_AE_DUP_CL_REQUEST] = "http.duplicate_content_length_field_in_request",
    [HTTP_AE_DUP_CL_RESPONSE] = "http.duplicate_content_length_field_in_response",
    [HTTP_AE_INVALID_TE_REQUEST] = "http.invalid_transfer_encoding_value_in_request",
    [HTTP_AE_AUTH_UNRECOGNIZED] = "http.request_auth_unrecognized", /* not basic/digest/bearer */
    /* a request line without protocol followed by header lines: read as a request with
     * headers, not as HTTP/0.9 */
    [HTTP_AE_MISSING_PROTOCOL] = "http.request_line_missing_protocol",
    /* a request head line longer than libhtp's field limit (HTTP_FIELD_LIMIT) */
    [HTTP_AE_FIELD_TOO_LONG] = "http.request_field_too_long",
    /* a Content-Encoding list longer than the decompression layer limit (libhtp's check:
     * every listed coding counts, identity and unknown ones too) */
    [HTTP_AE_TOO_MANY_LAYERS] = "http.too_many_encoding_layers",
    /* after a request, in the same chunk, a line that names no method libhtp knows: taken
     * for more of that request's body (libhtp's REQUEST_BODY_UNEXPECTED) */
    [HTTP_AE_BODY_UNEXPECTED] = "http.request_body_unexpected",
    /* a 101 to h2c on a flow that became HTTP through a protocol change (STARTTLS that
     * found HTTP instead of TLS): no second change (Suricata's FAILED_PROTOCOL_CHANGE) */
    [HTTP_AE_FAILED_PROTOCOL_CHANGE] = "http.failed_protocol_change",
    /* libhtp's warnings on a head, raised with it (head.c, http_head_info) */
    [HTTP_AE_LEADING_WS] = "http.request_line_leading_whitespace",
    [HTTP_AE_METHOD_DELIM] = "http.method_delim_non_compliant", /* e.g. a tab after it */
    [HTTP_AE_URI_DELIM] = "http.uri_delim_non_compliant",       /* no space before HTTP/ */
    [HTTP_AE_REQ_REPETITION] = "http.request_header_repetition", /* a name twice */
    [HTTP_AE_RESP_REPETITION] = "http.response_header_repetition",
    [HTTP_AE_REQ_MISSING_COLON] = "http.request_field_missing_colon",
    [HTTP_AE_RESP_MISSING_COLON] = "http.response_field_missing_colon",
    [HTTP_AE_REQ_HEADER_INVALID] = "http.request_header_invalid", /* a name no token */
    [HTTP_AE_RESP_HEADER_INVALID] = "http.response_header_invalid",
    /* a folded line (leading whitespace) with no header before it */
    [HTTP_AE_REQ_FOLDING] = "http.invalid_request_field_folding",
    [HTTP_AE_MISSING_HOST] = "http.missing_host_header", /* an HTTP/1.1 request */
    /* the Host header names another host (or port) than the absolute URI */
    [HTTP_AE_HOST_AMBIGUOUS] = "http.host_header_ambiguous",
    [HTTP_AE_HEADER_HOST_INVALID] = "http.request_header_host_invalid",
    [HTTP_AE_URI_HOST_INVALID] = "http.request_uri_host_invalid",
    /* a Content-Length without digits (no Transfer-Encoding) */
    [HTTP_AE_INVALID_CL_REQUEST] = "http.invalid_content_length_field_in_request",
    [HTTP_AE_INVALID_CL_RESPONSE] = "http.invalid_content_length_field_in_response",
    /* a response Transfer-Encoding naming chunked among other text */
    [HTTP_AE_RESP_ABNORMAL_TE] = "http.response_abnormal_transfer_encoding",
    /* a chunked response whose protocol is not HTTP/1.1 */
    [HTTP_AE_RESP_CHUNKED_OLD] = "http.response_chunked_old_proto",
    [HTTP_AE_RESP_INVALID_PROTOCOL] = "http.response_invalid_protocol", /* no HTTP/0.9-1.1 */
    [HTTP_AE_RESP_INVALID_STATUS] = "http.response_invalid_status",     /* no 100-999 */
    /* a request line without protocol whose method libhtp does not know */
    [HTTP_AE_REQUEST_LINE_INVALID] = "http.request_line_invalid",
    /* a second 100 Continue before the final response */
    [HTTP_AE_CONTINUE_SEEN] = "http.100_continue_already_seen",
    /* a response with no request waiting for it */
    [HTTP_AE_UNMATCHED_RESPONSE] = "http.unable_to_match_response_to_request",
    /* a listed Content-Encoding within the layer limit that libhtp finds abnormal */
    [HTTP_AE_ABNORMAL_CE] = "http.abnormal_ce_header",
    /* a response head line longer than libhtp's field limit (HTTP_FIELD_LIMIT) */
    [HTTP_AE_RESP_FIELD_TOO_LONG] = "http.response_field_too_long",
    /* a response begins while the client's request line is not complete */
    [HTTP_AE_REQUEST_LINE_INCOMPLETE] = "http.request_line_incomplete",
    [HTTP_AE_RESP_FOLDING] = "http.invalid_response_field_folding", /* as the request's */
};

static const char *const COUNTERS[] = {
    [HTTP_C_REQUESTS] = "http_requests",
    [HTTP_C_RESPONSES] = "http_responses",
    [HTTP_C_HEADER_LIMIT] = "http_header_limit",
    [HTTP_C_BODY_LIMIT] = "http_body_limit",
    [HTTP_C_MALFORMED] = "http_malformed",
    [HTTP_C_GZIP_ERRORS] = "http_gzip_errors",
    /* more pipelined requests waiting than kept (8): the oldest was reported without its
     * response */
    [HTTP_C_TX_DROPPED] = "http_tx_dropped",
};

#define HTTP_KEY "app-layer.protocols.http."
#define LIBHTP HTTP_KEY "libhtp.default-config."
#define CFG(k, kd, member, lo) \
    {.key = k, .kind = kd, .offset = offsetof(struct http_cfg, member), .min = lo}
static const struct osprey_parsers_cfg_key CFG_KEYS[] = {
    CFG(HTTP_KEY "header-limit", OSPREY_CFG_SIZE, header_limit, 64),
    CFG(HTTP_KEY "request-body-limit", OSPREY_CFG_SIZE, body.request_body_limit, 0),
    CFG(HTTP_KEY "response-body-limit", OSPREY_CFG_SIZE, body.response_body_limit, 0),
    CFG(HTTP_KEY "body-file-limit", OSPREY_CFG_SIZE, body.body_file_limit, 0),
    /* Suricata's names of the two body limits (a suricata.yaml's, a suricata-verify test's) */
    CFG(LIBHTP "request-body-limit", OSPREY_CFG_SIZE | OSPREY_CFG_IF_SET, body.request_body_limit, 0),
    CFG(LIBHTP "response-body-limit", OSPREY_CFG_SIZE | OSPREY_CFG_IF_SET, body.response_body_limit,
        0),
    CFG(HTTP_KEY "decompress", OSPREY_CFG_BOOL, body.decompress, 0),
    CFG(LIBHTP "response-body-decompress-layer-limit", OSPREY_CFG_UINT,
        decompress_layer_limit, 0),
    CFG(LIBHTP "lzma-enabled", OSPREY_CFG_BOOL, lzma_enabled, 0),
    CFG(LIBHTP "lzma-memlimit", OSPREY_CFG_SIZE, lzma_memlimit, 0),
};
#undef CFG

static void http_cfg_defaults(void *v)
{
    struct http_cfg *c = v;
    c->header_limit = 32768;
    c->body.request_body_limit = 100u << 10;
    c->body.response_body_limit = 100u << 10;
    c->body.body_file_limit = 1u << 20;
    c->body.decompress = true;
    c->decompress_layer_limit = 2;
    c->lzma_memlimit = 1u << 20;
}

/* osprey-trace --app: the buffers shown per event, as the tests read them (the _done events
 * are not shown), and the response's status once there is one */
static const struct osprey_trace_value STATUS[] = {{"status", "http.status", false},
                                                   {NULL, NULL, false}};
static const struct osprey_trace_object TRACE_STATUS = {.top = STATUS};
static const struct proto_trace TRACE[] = {
    {"http_request",
     {"http.method", "http.uri", "http.uri.raw", "http.request_line", "http.protocol",
      "http.header", "http.header.raw", "http.cookie", "http.user_agent", "http.host",
      "http.host.raw", "http.referer", "http.content_type", "http.start", "http.accept",
      "http.accept_enc", "http.accept_lang", "http.connection", "http.content_len", NULL},
     false, &TRACE_STATUS},
    {"http_request_body", {"http.request_body", NULL}, false, &TRACE_STATUS},
    {"http_response",
     {"http.stat_code", "http.stat_msg", "http.response_line", "http.response_header",
      "http.response_header.raw", "http.response_cookie", "http.response_content_type",
      "http.server", "http.location", "http.uri" /* its request's, same tx */, NULL},
     false, &TRACE_STATUS},
    {"http_response_body", {"http.response_body", NULL}, false, &TRACE_STATUS},
};

const struct osprey_proto_def http_proto = {
    .name = "http",
    .raw_trigger = true, /* Suricata triggers raw reassembly at each request and response end */
    .flow_stat = "flow.http",
    .alias = {"http1", NULL},
    .l4 = 6,
    .suricata_stats = true,
    .probes = PROBES,
    .probe_rank = -2, /* first of all: the most common, and cheap to refuse */
    .parse = http_parse,
    .gap = http_gap,
    .end = http_end,
    .state_free = http_free,
    .state_trim = http_trim,
    .tx_id = http_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .hooks = HOOKS, .nhooks = PROTO_N(HOOKS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = HTTP_C_REQUESTS,
    .eve = http_eve,
    .eve_tx_id = true,
    .trace = TRACE, .ntrace = PROTO_N(TRACE),
    .cfg_keys = CFG_KEYS, .ncfg_keys = PROTO_N(CFG_KEYS),
    .cfg_size = sizeof(struct http_cfg), .cfg_defaults = http_cfg_defaults,
};
