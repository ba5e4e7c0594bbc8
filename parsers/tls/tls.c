/* tls.c — TLS's descriptor: probes, events, buffers (incl. tls.random_time / random_bytes,
 * slices of the hellos' randoms), fields (versions, handshake state, chain, validity),
 * anomaly names, counters. Registered in core/registry.c. */
#include <stddef.h>

#include "tls_int.h"

static enum probe_verdict probe_client(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    return detect_tls_client_hello(d, n);
}

static const struct proto_probe PROBES[] = {{6, 0, probe_client}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [TLS_EV_CLIENT_HELLO] = {"tls_client_hello", 0, "client_hello_done"},
    [TLS_EV_SERVER_HELLO] = {"tls_server_hello", 1},
    [TLS_EV_CERTIFICATE] = {"tls_certificate", 1},
    /* the client's Certificate (mutual authentication): the certificate buffers then hold
     * its chain */
    [TLS_EV_CLIENT_CERTIFICATE] = {"tls_client_certificate", 0},
};

/* Suricata 8's TLS progress states (the firewall's hooks, `tls:server_cert_done`), in the
 * order Suricata ranks them. Osprey raises events for the hellos and the certificates; the
 * other states' rules run at the direction's next state with an event (core/hooks.c), and
 * the states after the last one (handshake done, finished) are not evaluated */
static const struct proto_hook HOOKS[] = {
    {"client_in_progress", 0, NULL},
    {"client_hello_done", 0, "tls_client_hello"},
    {"client_cert_done", 0, "tls_client_certificate"},
    {"client_handshake_done", 0, NULL},
    {"client_finished", 0, NULL},
    {"server_in_progress", 1, NULL},
    {"server_hello", 1, "tls_server_hello"},
    {"server_cert_done", 1, "tls_certificate"},
    {"server_hello_done", 1, NULL},
    {"server_handshake_done", 1, NULL},
    {"server_finished", 1, NULL},
};

static const uint8_t *buf(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                          uint32_t *len)
{
    (void)s;
    return tls_buffer_at(pf, (enum tls_buf)key, i, len);
}

/* tls.random_time (the random's first 4 bytes) and tls.random_bytes (the other 28): a slice
 * of the hello's random, no copy. key: the random buffer, + 0x100 for random_bytes. */
#define RANDOM_BYTES 0x100u
static const uint8_t *random_part(struct pflow *pf, unsigned key, uint32_t i,
                                  struct osprey_scratch *s, uint32_t *len)
{
    (void)i, (void)s;
    uint32_t n = 0;
    const uint8_t *r = tls_buffer_at(pf, (enum tls_buf)(key & 0xff), 0, &n);
    if (!r || n != 32)
        return NULL;
    bool time = !(key & RANDOM_BYTES);
    *len = time ? 4 : 28;
    return time ? r : r + 4;
}

#define B(name_, dir_, ev_, multi_, key_) \
    {.name = name_, .dir = dir_, .event = ev_, .multi = multi_, .late = false, .record = false, .key = key_, .get = buf}
static const struct proto_buffer BUFFERS[] = {
    B("tls.sni", 0, "tls_client_hello", false, TB_SNI),
    B("ja3.hash", 0, "tls_client_hello", false, TB_JA3_HASH),
    B("ja3.string", 0, "tls_client_hello", false, TB_JA3_STRING),
    B("ja4.hash", 0, "tls_client_hello", false, TB_JA4),
    B("ja3s.hash", 1, "tls_server_hello", false, TB_JA3S_HASH),
    B("ja3s.string", 1, "tls_server_hello", false, TB_JA3S_STRING),
    /* both sides: the client's under mutual authentication, the server's */
    B("tls.cert_subject", 0, "tls_client_certificate", false, TB_CERT_SUBJECT),
    B("tls.cert_subject", 1, "tls_certificate", false, TB_CERT_SUBJECT),
    B("tls.cert_issuer", 0, "tls_client_certificate", false, TB_CERT_ISSUER),
    B("tls.cert_issuer", 1, "tls_certificate", false, TB_CERT_ISSUER),
    B("tls.cert_serial", 0, "tls_client_certificate", false, TB_CERT_SERIAL),
    B("tls.cert_serial", 1, "tls_certificate", false, TB_CERT_SERIAL),
    B("tls.cert_fingerprint", 0, "tls_client_certificate", false, TB_CERT_FINGERPRINT),
    B("tls.cert_fingerprint", 1, "tls_certificate", false, TB_CERT_FINGERPRINT),
    B("tls.certs", 0, "tls_client_certificate", true, TB_CERTS),
    B("tls.certs", 1, "tls_certificate", true, TB_CERTS),
    B("tls.subjectaltname", 0, "tls_client_certificate", true, TB_SAN),
    B("tls.subjectaltname", 1, "tls_certificate", true, TB_SAN),
    B("tls.alpn", 0, "tls_client_hello", true, TB_CLIENT_ALPN),
    {.name = "tls.alpn.server", .alias = {"tls.alpn", NULL}, .dir = 1, .event = "tls_server_hello", .multi = true, .late = false, .record = false, .key = TB_SERVER_ALPN, .get = buf},
    B("tls.random", 0, "tls_client_hello", false, TB_CLIENT_RANDOM),
    {.name = "tls.random.server", .alias = {"tls.random", NULL}, .dir = 1, .event = "tls_server_hello", .multi = false, .late = false, .record = false, .key = TB_SERVER_RANDOM, .get = buf},
    {.name = "tls.random_time", .dir = 0, .event = "tls_client_hello", .multi = false, .late = false, .record = false, .key = TB_CLIENT_RANDOM, .get = random_part},
    {.name = "tls.random_time", .dir = 1, .event = "tls_server_hello", .multi = false, .late = false, .record = false, .key = TB_SERVER_RANDOM, .get = random_part},
    {.name = "tls.random_bytes", .dir = 0, .event = "tls_client_hello", .multi = false, .late = false, .record = false, .key = TB_CLIENT_RANDOM | RANDOM_BYTES, .get = random_part},
    {.name = "tls.random_bytes", .dir = 1, .event = "tls_server_hello", .multi = false, .late = false, .record = false, .key = TB_SERVER_RANDOM | RANDOM_BYTES, .get = random_part},
    /* "TLS 1.2" …, the latest hello's (for trace and EVE; rules have tls.version the
     * keyword, on the fields) */
    {.name = "tls.version", .dir = 0, .event = "tls_client_hello", .multi = false, .late = false, .record = true, .key = TB_VERSION, .get = buf},
};
#undef B

enum { TF_CLIENT_VERSION, TF_SERVER_VERSION, TF_STATE, TF_LAST_STATE,
       TF_CHAIN_LEN, TF_NOT_BEFORE, TF_NOT_AFTER };

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct tls_state *t = pf->state;
    if (!t || i > 0)
        return false;
    const struct tls_info *in = &t->wire.info;
    switch (key) {
    case TF_CLIENT_VERSION: *out = in->client_version; return true;
    case TF_SERVER_VERSION: *out = in->server_version; return true;
    case TF_STATE: *out = in->state; return true;
    case TF_LAST_STATE: *out = in->last_state; return true;
    case TF_CHAIN_LEN: *out = in->cert_chain_len; return true;
    case TF_NOT_BEFORE: *out = in->not_before; return in->has_validity;
    case TF_NOT_AFTER: *out = in->not_after; return in->has_validity;
    }
    return false;
}

static const struct proto_value STATES[] = {
    {"client_hello", TLS_SEEN_CLIENT_HELLO}, {"server_hello", TLS_SEEN_SERVER_HELLO},
    {"client_keyx", TLS_SEEN_CLIENT_KEYX},   {"server_keyx", TLS_SEEN_SERVER_KEYX},
    {"unknown", TLS_SEEN_UNKNOWN},           {NULL, 0},
};

static const struct proto_field FIELDS[] = {
    {"tls.client_version", TF_CLIENT_VERSION, field, NULL},
    {"tls.server_version", TF_SERVER_VERSION, field, NULL},
    {"tls.state", TF_STATE, field, STATES},       /* every handshake message seen */
    {"tls.last_state", TF_LAST_STATE, field, STATES},
    {"tls.cert_chain_len", TF_CHAIN_LEN, field, NULL}, /* the server's chain */
    /* the first certificate's validity, seconds since 1970 UTC */
    {"tls.not_before", TF_NOT_BEFORE, field, NULL},
    {"tls.not_after", TF_NOT_AFTER, field, NULL},
};

static const char *const ANOMALIES[] = {
    [TLS_AE_INVALID_RECORD_TYPE] = "tls.invalid_record_type",
    [TLS_AE_INVALID_RECORD_VERSION] = "tls.invalid_record_version",
    [TLS_AE_INVALID_HANDSHAKE_MESSAGE] = "tls.invalid_handshake_message", /* an unknown type */
    [TLS_AE_INVALID_CERTIFICATE] = "tls.invalid_certificate", /* the server's does not decode */
    /* a certificate's length past its message, or a DER element's header cut short */
    [TLS_AE_CERTIFICATE_INVALID_LENGTH] = "tls.certificate_invalid_length",
    /* the client's first record SSLv2-framed with a record length of 0 */
    [TLS_AE_INVALID_SSLV2_HEADER] = "tls.invalid_sslv2_header",
    [TLS_AE_ERROR_MESSAGE] = "tls.error_message_encountered", /* an SSLv2 ERROR message */
    /* a handshake record of fewer than 4 bytes, a record whose last bytes are too few for a
     * handshake message header, an SSLv2 CLIENT-HELLO record shorter than its fixed fields */
    [TLS_AE_INVALID_SSL_RECORD] = "tls.invalid_ssl_record",
    [TLS_AE_INVALID_ALERT] = "tls.invalid_alert_message", /* an alert record of 1 byte */
    /* a clear heartbeat of no known type or with less than 16 bytes of padding, a second one
     * from the same side before the other's */
    [TLS_AE_INVALID_HEARTBEAT] = "tls.invalid_heartbeat_message",
    /* a clear heartbeat whose payload_length runs past its record (CVE-2014-0160) */
    [TLS_AE_OVERFLOW_HEARTBEAT] = "tls.overflow_heartbeat_message",
    /* an encrypted heartbeat answered by a longer one (Heartbleed's response) */
    [TLS_AE_DATALEAK_HEARTBEAT] = "tls.dataleak_heartbeat_mismatch",
    /* more records start in one chunk of stream bytes than one per 6 of its bytes (SSLv2
     * records can be 3 bytes long; TLS ones are 6 at least): Suricata's loop guard */
    [TLS_AE_TOO_MANY_RECORDS] = "tls.too_many_records_in_packet",
    /* a hello whose fields run past the message (or an odd cipher suites length) */
    [TLS_AE_HANDSHAKE_INVALID_LENGTH] = "tls.handshake_invalid_length",
    [TLS_AE_INVALID_SNI_TYPE] = "tls.invalid_sni_type", /* a server_name not host_name */
    [TLS_AE_INVALID_SNI_LENGTH] = "tls.invalid_sni_length", /* 0, above 255, or past it */
    [TLS_AE_MULTIPLE_SNI] = "tls.multiple_sni_extensions", /* (the first one is kept) */
    /* the first certificate's part that does not decode (cert.c, TLS_CERT_*) */
    [TLS_AE_CERT_INVALID_VERSION] = "tls.certificate_invalid_version",
    [TLS_AE_CERT_INVALID_SERIAL] = "tls.certificate_invalid_serial",
    [TLS_AE_CERT_INVALID_ALGID] = "tls.certificate_invalid_algorithmidentifier",
    [TLS_AE_CERT_INVALID_X509NAME] = "tls.certificate_invalid_x509name",
    [TLS_AE_CERT_INVALID_DATE] = "tls.certificate_invalid_date",
    [TLS_AE_CERT_INVALID_EXTENSIONS] = "tls.certificate_invalid_extensions",
    [TLS_AE_CERT_INVALID_DER] = "tls.certificate_invalid_der",
};

static const char *const COUNTERS[] = {
    [TLS_C_HANDSHAKES] = "tls_handshakes",
    [TLS_C_MALFORMED] = "tls_malformed",
    [TLS_C_LIMIT] = "tls_limit", /* a handshake message over the 64 KiB kept, skipped */
};

/* osprey-trace --app: the hello's and the certificates' buffers, and the TLS fields */
#define TRACE_CERT                                                                         \
    {"tls.cert_subject", "tls.cert_issuer", "tls.cert_serial", "tls.cert_fingerprint",     \
     "tls.certs", "tls.subjectaltname", NULL}
static const struct proto_trace TRACE[] = {
    {"tls_client_hello",
     {"tls.sni", "ja3.string", "ja3.hash", "ja4.hash", "tls.version", "tls.alpn", "tls.random",
      NULL},
     true, NULL},
    {"tls_server_hello",
     {"ja3s.string", "ja3s.hash", "tls.version", "tls.alpn.server", "tls.random.server", NULL},
     true, NULL},
    {"tls_certificate", TRACE_CERT, true, NULL},
    {"tls_client_certificate", TRACE_CERT, true, NULL},
};
#undef TRACE_CERT

static const char *const ENCRYPTION_HANDLING[] = {"default", "bypass", "full", NULL};
static const struct osprey_parsers_cfg_key CFG_KEYS[] = {
    {.key = "app-layer.protocols.tls.encryption-handling", .kind = OSPREY_CFG_ENUM,
     .offset = offsetof(struct tls_cfg, encryption_handling), .names = ENCRYPTION_HANDLING},
};

const struct osprey_proto_def tls_proto = {
    .name = "tls",
    .raw_trigger = true, /* Suricata triggers raw reassembly at each record's end */
    .flow_stat = "flow.tls",
    .alias = {"ssl", NULL},
    .l4 = 6,
    .buffers_imply_dir = true,
    .suricata_stats = true,
    .probes = PROBES,
    .probe_rank = -1, /* before DNS (and the rest): a ClientHello is recognised first */
    .parse = tls_parse,
    .state_free = tls_free,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .hooks = HOOKS, .nhooks = PROTO_N(HOOKS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = TLS_C_HANDSHAKES,
    .eve = tls_eve,
    .trace = TRACE, .ntrace = PROTO_N(TRACE),
    .cfg_keys = CFG_KEYS, .ncfg_keys = PROTO_N(CFG_KEYS),
    .cfg_size = sizeof(struct tls_cfg),
};
