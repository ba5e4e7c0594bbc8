/* http2.c — HTTP/2's descriptor: probes (the client's preface, the server's SETTINGS), the
 * per-frame events and a stream's (request / response heads, bodies, done), the http.*
 * buffers as Suricata maps them on HTTP/2 (late rows for a request's read under the
 * response), http2.header_name, file.data on DATA, frame:http2.*, the frame facts of the
 * http2.* keywords (fields with their named values), Suricata's http2 app-layer events,
 * counters and config keys. Registered in core/registry.c; rules on `http` also run here
 * (`rules_of`). */
#include <stddef.h>

#include "files.h"
#include "http2_int.h"

static const struct proto_probe PROBES[] = {
    {6, 0, h2_probe_client}, {6, 1, h2_probe_server}, {0, 0, NULL}};

#define REQ "http2_request"
#define RESP "http2_response"
static const struct proto_event EVENTS[] = {
    [H2_EV_FRAME_TS] = {"http2_frame_to_server", 0, NULL},    /* each frame, when whole */
    [H2_EV_FRAME_TC] = {"http2_frame_to_client", 1, NULL},
    [H2_EV_REQUEST] = {REQ, 0, NULL},                         /* the first header block */
    [H2_EV_REQUEST_BODY] = {"http2_request_body", 0, NULL},  /* END_STREAM after DATA */
    [H2_EV_REQUEST_DONE] = {"http2_request_done", 0, NULL},  /* the transaction is over */
    [H2_EV_RESPONSE] = {RESP, 1, NULL},
    [H2_EV_RESPONSE_BODY] = {"http2_response_body", 1, NULL},
    [H2_EV_RESPONSE_DONE] = {"http2_response_done", 1, NULL},
};

#define K(b, side) (((unsigned)(b) << 1) | (side))
/* a request's buffer, and the same read late under the response */
#define RQ(name_, b_)                                                                   \
    {.name = name_, .dir = 0, .event = REQ, .key = K(b_, 0), .get = h2_buffer},        \
    {.name = name_, .dir = 1, .event = RESP, .late = true, .key = K(b_, 0), .get = h2_buffer}
#define RS(name_, b_) {.name = name_, .dir = 1, .event = RESP, .key = K(b_, 1), .get = h2_buffer}
/* both sides' (two-sided: the rule's direction picks) */
#define TWO(name_, b_, multi_)                                                           \
    {.name = name_, .dir = 0, .event = REQ, .multi = multi_, .key = K(b_, 0), .get = h2_buffer}, \
    {.name = name_, .dir = 1, .event = RESP, .multi = multi_, .key = K(b_, 1), .get = h2_buffer}

static const struct proto_buffer BUFFERS[] = {
    {.name = "http.method", .dir = 0, .event = REQ, .key = K(H2B_METHOD, 0), .get = h2_buffer,
     .fp_last = true},
    {.name = "http.method", .dir = 1, .event = RESP, .late = true, .key = K(H2B_METHOD, 0),
     .get = h2_buffer, .fp_last = true},
    RQ("http.uri", H2B_URI),
    RQ("http.uri.raw", H2B_URI),
    RQ("http.host", H2B_HOST),
    RQ("http.host.raw", H2B_HOST_RAW),
    RQ("http.user_agent", H2B_USER_AGENT),
    RQ("http.referer", H2B_REFERER),
    RQ("http.protocol", H2B_PROTOCOL),
    TWO("http.cookie", H2B_COOKIE, false),
    TWO("http.content_type", H2B_CONTENT_TYPE, false),
    TWO("http.header", H2B_HEADER, false),
    TWO("http.header.raw", H2B_HEADER, false),
    TWO("http.header_names", H2B_HEADER_NAMES, false),
    TWO("http2.header_name", H2B_HEADER_NAME, true),
    RS("http.stat_code", H2B_STAT_CODE),
    {.name = "http.request_header", .dir = 0, .event = REQ, .multi = true,
     .key = K(H2B_HEADER_LINE, 0), .get = h2_buffer},
    {.name = "http.request_header", .dir = 1, .event = RESP, .multi = true, .late = true,
     .key = K(H2B_HEADER_LINE, 0), .get = h2_buffer},
    {.name = "http.response_header", .dir = 1, .event = RESP, .multi = true,
     .key = K(H2B_HEADER_LINE, 1), .get = h2_buffer},
    /* DATA: the bodies, file.data each way (the file layer's producer: streams.c) */
    {.name = "http.request_body", .alias = {"file.data", NULL}, .dir = 0,
     .event = "http2_request_body", .key = K(H2B_BODY, 0), .get = h2_buffer},
    {.name = "http.response_body", .alias = {"file.data", NULL}, .dir = 1,
     .event = "http2_response_body", .key = K(H2B_BODY, 1), .get = h2_buffer},
    /* the file layer's rows (file.name, file.magic; the file keywords run there too) */
    PFILE_BUFFERS("http2_request_body", "http2_response_body"),
    /* Suricata's HTTP/2 frames: the one being read */
    {.name = "frame:http2.hdr", .dir = 0, .event = "http2_frame_to_server",
     .key = K(H2B_FRAME_HDR, 0), .get = h2_buffer},
    {.name = "frame:http2.hdr", .dir = 1, .event = "http2_frame_to_client",
     .key = K(H2B_FRAME_HDR, 1), .get = h2_buffer},
    {.name = "frame:http2.data", .dir = 0, .event = "http2_frame_to_server",
     .key = K(H2B_FRAME_DATA, 0), .get = h2_buffer},
    {.name = "frame:http2.data", .dir = 1, .event = "http2_frame_to_client",
     .key = K(H2B_FRAME_DATA, 1), .get = h2_buffer},
    {.name = "frame:http2.pdu", .dir = 0, .event = "http2_frame_to_server",
     .key = K(H2B_FRAME_PDU, 0), .get = h2_buffer},
    {.name = "frame:http2.pdu", .dir = 1, .event = "http2_frame_to_client",
     .key = K(H2B_FRAME_PDU, 1), .get = h2_buffer},
    /* DoH (doh.c): the DNS message's names, once the stream is over (Suricata's doh2) */
    {.name = "dns.query", .alias = {"dns.queries.rrname", "dns.query.name", NULL}, .dir = 0,
     .event = "http2_request_done", .multi = true, .key = K(H2B_DOH_QUERIES, 0),
     .get = h2_buffer},
    {.name = "dns.queries.rrname", .alias = {"dns.query.name", NULL}, .dir = 1,
     .event = "http2_response_done", .multi = true, .key = K(H2B_DOH_QUERIES, 1),
     .get = h2_buffer},
    {.name = "dns.answers.rrname", .alias = {"dns.answer.name", NULL}, .dir = 1,
     .event = "http2_response_done", .multi = true, .key = K(H2B_DOH_ANSWERS, 1),
     .get = h2_buffer},
    /* a transaction's side once it is over: what the http2.* frame keywords run on */
    {.name = "http2.frames", .dir = 0, .event = "http2_request_done", .key = K(H2B_FRAMES, 0),
     .get = h2_buffer},
    {.name = "http2.frames", .dir = 1, .event = "http2_response_done", .key = K(H2B_FRAMES, 1),
     .get = h2_buffer},
};

static const struct proto_value TYPES[] = {
    {"data", H2_DATA}, {"headers", H2_HEADERS}, {"priority", H2_PRIORITY},
    {"rst_stream", H2_RST_STREAM}, {"settings", H2_SETTINGS},
    {"push_promise", H2_PUSH_PROMISE}, {"ping", H2_PING}, {"goaway", H2_GOAWAY},
    {"window_update", H2_WINDOW_UPDATE}, {"continuation", H2_CONTINUATION}, {NULL, 0}};

static const struct proto_value ERRORS[] = {
    {"no_error", 0}, {"protocol_error", 1}, {"internal_error", 2}, {"flow_control_error", 3},
    {"settings_timeout", 4}, {"stream_closed", 5}, {"frame_size_error", 6},
    {"refused_stream", 7}, {"cancel", 8}, {"compression_error", 9}, {"connect_error", 10},
    {"enhance_your_calm", 11}, {"inadequate_security", 12}, {"http_1_1_required", 13},
    {NULL, 0}};

/* http2.settings: a setting's id by name (its value is the field's low 32 bits) */
static const struct proto_value SETTINGS[] = {
    {"settings_header_table_size", 1}, {"settings_enable_push", 2},
    {"settings_max_concurrent_streams", 3}, {"settings_initial_window_size", 4},
    {"settings_max_frame_size", 5}, {"settings_max_header_list_size", 6},
    {"settings_enable_connect_protocol", 8}, {NULL, 0}};

static const struct proto_field FIELDS[] = {
    {"http2.frametype", H2K_FRAMETYPE, h2_field, TYPES},
    {"http2.errorcode", H2K_ERRORCODE, h2_field, ERRORS},
    {"http2.priority", H2K_PRIORITY, h2_field, NULL},
    {"http2.window", H2K_WINDOW, h2_field, NULL},
    {"http2.size_update", H2K_SIZE_UPDATE, h2_field, NULL},
    {"http2.settings", H2K_SETTINGS, h2_field, SETTINGS},
};

static const char *const ANOMALIES[] = {
    [H2_AE_INVALID_FRAME_HEADER] = "http2.invalid_frame_header",
    [H2_AE_INVALID_CLIENT_MAGIC] = "http2.invalid_client_magic",
    [H2_AE_INVALID_FRAME_DATA] = "http2.invalid_frame_data",
    [H2_AE_INVALID_HEADER] = "http2.invalid_header",
    [H2_AE_INVALID_FRAME_LENGTH] = "http2.invalid_frame_length",
    [H2_AE_EXTRA_HEADER_DATA] = "http2.extra_header_data",
    [H2_AE_LONG_FRAME_DATA] = "http2.long_frame_data",
    [H2_AE_STREAM_ID_REUSE] = "http2.stream_id_reuse",
    [H2_AE_INVALID_HTTP1_SETTINGS] = "http2.invalid_http1_settings",
    [H2_AE_FAILED_DECOMPRESSION] = "http2.failed_decompression",
    [H2_AE_INVALID_RANGE] = "http2.invalid_range",
    [H2_AE_HEADER_INTEGER_OVERFLOW] = "http2.header_integer_overflow",
    [H2_AE_TOO_MANY_STREAMS] = "http2.too_many_streams",
    [H2_AE_AUTHORITY_HOST_MISMATCH] = "http2.authority_host_mismatch",
    [H2_AE_USERINFO_IN_URI] = "http2.userinfo_in_uri",
    [H2_AE_REASSEMBLY_LIMIT_REACHED] = "http2.reassembly_limit_reached",
    [H2_AE_DNS_REQUEST_TOO_LONG] = "http2.dns_request_too_long",
    [H2_AE_DNS_RESPONSE_TOO_LONG] = "http2.dns_response_too_long",
    [H2_AE_DATA_STREAM_ZERO] = "http2.data_stream_zero",
    [H2_AE_COMPRESSION_BOMB] = "http2.compression_bomb",
};

static const char *const COUNTERS[] = {
    [H2_C_STREAMS] = "http2_streams",
    [H2_C_FRAMES] = "http2_frames",
    [H2_C_STREAMS_SHED] = "http2_streams_shed",   /* past max-streams live streams */
    [H2_C_HEADERS_SHED] = "http2_headers_shed",   /* past H2_HEADERS_MAX or the copy limit */
    [H2_C_FACTS_SHED] = "http2_facts_shed",       /* frame facts past H2_LIST_MAX */
    [H2_C_BODY_LIMIT] = "http2_body_limit",
    [H2_C_MALFORMED] = "http2_malformed",         /* header blocks that did not decode */
    [H2_C_MEMCAP_SHED] = "http2_memcap_shed",     /* bytes not kept: the flow's memcap */
};

#define H2_KEY "app-layer.protocols.http2."
#define CFG(k, kd, member, lo) \
    {.key = k, .kind = kd, .offset = offsetof(struct http2_cfg, member), .min = lo}
static const struct osprey_parsers_cfg_key CFG_KEYS[] = {
    CFG(H2_KEY "max-streams", OSPREY_CFG_UINT, max_streams, 1),
    CFG(H2_KEY "http1-rules", OSPREY_CFG_BOOL, http1_rules, 0),
};
#undef CFG

static void http2_cfg_defaults(void *v)
{
    struct http2_cfg *c = v;
    c->max_streams = 4096;
    c->http1_rules = false;
}

const struct osprey_proto_def http2_proto = {
    .name = "http2",
    .flow_stat = "flow.http2",
    .eve_name = "http",
    .rules_of = "http",
    .buffer_rules_of = "dns",
    .l4 = 6,
    .probes = PROBES,
    .parse = http2_parse,
    .end = http2_end,
    .state_free = http2_free,
    .upgraded = http2_upgraded,
    .tx_id = http2_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = H2_C_STREAMS,
    .eve = http2_eve,
    .eve_tx_id = true,
    .cfg_keys = CFG_KEYS, .ncfg_keys = PROTO_N(CFG_KEYS),
    .cfg_size = sizeof(struct http2_cfg), .cfg_defaults = http2_cfg_defaults,
};
