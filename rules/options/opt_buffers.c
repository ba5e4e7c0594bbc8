/* opt_buffers.c — sticky buffers and the classic http_* content modifiers.
 *
 * Three spellings meet here: Suricata's dotted sticky buffers (`http.uri; content:"x";`) with
 * their older underscore names (`dns_query`, `tls_sni`, `http_header_names` …), Snort 3's
 * sticky `http_uri;` and the classic modifiers `content:"x"; http_uri;` that Snort 2 and
 * Suricata share. The last two are the same keywords (OPT_HTTP_LEGACY): the rule's dialect
 * decides (rule.c). Snort 3 buffers take optional selectors (`http_header:field user-agent`,
 * `http_uri:path`); classic ones take no argument.
 */
#include <stdio.h>
#include <string.h>

#include "buffers.h"
#include "opt_params.h"
#include "osprey_parsers.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

/* Snort 3 selectors of the HTTP buffers (any number of each; nothing is kept): the message
 * ones of every HTTP buffer, a header's field, the URI's parts (an unknown one is reported
 * with the URI parts only). */
#define MESSAGE_SELECTORS                                                                  \
    {.name = "request", .type = PT_FLAG, .flags = P_REPEAT | P_UNLISTED},                  \
    {.name = "with_body", .type = PT_FLAG, .flags = P_REPEAT | P_UNLISTED},                \
    {.name = "with_header", .type = PT_FLAG, .flags = P_REPEAT | P_UNLISTED},              \
    {.name = "with_trailer", .type = PT_FLAG, .flags = P_REPEAT | P_UNLISTED}
static const struct opt_param SELECTORS[] = {MESSAGE_SELECTORS};
static const struct opt_param HEADER_SELECTORS[] = {
    {.name = "field", .type = PT_NAME, .flags = P_REPEAT, .what = "a header name"},
    MESSAGE_SELECTORS};
static const struct opt_param URI_SELECTORS[] = {
    {.name = "path", .type = PT_FLAG, .flags = P_REPEAT},
    {.name = "query", .type = PT_FLAG, .flags = P_REPEAT},
    {.name = "fragment", .type = PT_FLAG, .flags = P_REPEAT},
    {.name = "host", .type = PT_FLAG, .flags = P_REPEAT},
    {.name = "port", .type = PT_FLAG, .flags = P_REPEAT},
    {.name = "scheme", .type = PT_FLAG, .flags = P_REPEAT},
    {.name = "user_info", .type = PT_FLAG, .flags = P_REPEAT},
    MESSAGE_SELECTORS};

static int parse_http_selector(struct rule_ctx *c, char *val)
{
    static const struct opt_params SPEC = {OPT_PARAMS(SELECTORS), .item = "selector",
                                           .empty = "empty selector"};
    static const struct opt_params HEADER = {OPT_PARAMS(HEADER_SELECTORS), .item = "selector",
                                             .empty = "empty selector"};
    static const struct opt_params URI = {OPT_PARAMS(URI_SELECTORS), .item = "URI part",
                                          .unknown = PU_CHOICE, .empty = "empty selector"};
    if (val == NULL)
        return 0;
    if (!c->snort3)
        return opt_error(c, val, "takes no argument (selectors are Snort 3 syntax)");
    unsigned b = c->def->buffer;
    const struct opt_params *spec = b == BUF_HTTP_URI || b == BUF_HTTP_URI_RAW ? &URI
                                  : b == BUF_HTTP_HEADER || b == BUF_HTTP_HEADER_RAW ? &HEADER
                                                                                     : &SPEC;
    return opt_params_parse(c, val, spec, NULL, NULL);
}

/* Snort 3 http_param:"name"[,nocase] */
static int parse_http_param(struct rule_ctx *c, char *val)
{
    const char *end = val + strlen(val), *after;
    const uint8_t *s;
    uint32_t n;
    if (parse_quoted(c, val, end, 0, &s, &n, &after) < 0)
        return -1;
    after = skip_ws(after, end);
    if (after < end) {
        if (*after != ',' || !slice_eq(skip_ws(after + 1, end),
                                       (size_t)(end - skip_ws(after + 1, end)), "nocase"))
            return opt_error(c, after, "expected ', nocase' after the parameter name");
    }
    return 0;
}

/* Suricata 8: `http.connection: to_client;` names the side of a buffer both messages have
 * (for => rules); no other argument. */
static int parse_sticky_side(struct rule_ctx *c, char *val)
{
    if (val == NULL)
        return 0;
    static const char *const SIDES[] = {"to_server", "to_client", NULL};
    int k = parse_choice(c, val, strlen(val), SIDES, "side");
    if (k < 0)
        return -1;
    c->side = k == 0 ? OSPREY_SIDE_TO_SERVER : OSPREY_SIDE_TO_CLIENT;
    return 0;
}

/* The listed frame buffer ("frame:PROTO.TYPE", buffers.h) of protocol p[0..pn) and type:
 * PROTO spelled as in the rule or any other name the parsers register for the same protocol
 * (`alert http … frame:request` is frame:http1.request); BUF_FRAME_OTHER: none. */
static uint16_t frame_of(const char *p, size_t pn, const char *type)
{
    char want[32];
    if (!pn || pn >= sizeof want)
        return BUF_FRAME_OTHER;
    memcpy(want, p, pn);
    want[pn] = '\0';
    int id = osprey_app_proto_find(want);
    for (unsigned b = 0; b < BUF_COUNT; b++) {
        const char *name = osprey_rules_buffer_name(b), *dot;
        if (b == BUF_FRAME_OTHER || strncmp(name, "frame:", 6) || !(dot = strchr(name + 6, '.')))
            continue;
        char proto[32];
        size_t xn = (size_t)(dot - (name + 6));
        if (xn >= sizeof proto || strcmp(dot + 1, type))
            continue;
        memcpy(proto, name + 6, xn);
        proto[xn] = '\0';
        if (!strcmp(proto, want) || (id >= 0 && osprey_app_proto_find(proto) == id))
            return (uint16_t)b;
    }
    return BUF_FRAME_OTHER;
}

/* frame:NAME — Suricata's frames: PROTO.TYPE, or TYPE alone for the rule's protocol
 * (`alert http1 … frame:request`, `alert sip … frame:request.line`). The frames buffers.h
 * lists are found by name (the parsers fill HTTP/1's request and response, DNS's pdu, SIP's
 * and DCERPC's); the others select a buffer detection does not fill (their contents reject
 * the rule). No protocol is named here. */
static int parse_frame(struct rule_ctx *c, char *val)
{
    const char *dot = strchr(val, '.');
    const char *proto = c->rule->proto ? c->rule->proto : "";
    const char *type = dot ? dot + 1 : val;
    if (!*type || strspn(type, "abcdefghijklmnopqrstuvwxyz0123456789_.") != strlen(type))
        return opt_error(c, val, "'%s' is not a frame name", val);
    uint16_t b = dot ? frame_of(val, (size_t)(dot - val), type) : BUF_FRAME_OTHER;
    if (b == BUF_FRAME_OTHER) /* TYPE alone (perhaps with dots) under the rule's protocol */
        b = frame_of(proto, strlen(proto), val);
    c->buffer = b;
    c->opt->buffer = b;
    return 0;
}

#define STICKY(name, dial, buf)                                                         \
    {name, OPT_STICKY, dial, ARG_OPTIONAL, BUF_##buf, parse_sticky_side, false, NULL}
/* the buffers detection fills (buffer_inspectable) */
#define STICKY_DONE(name, dial, buf)                                                    \
    {name, OPT_STICKY, dial, ARG_OPTIONAL, BUF_##buf, parse_sticky_side, true, NULL}
#define LEGACY_DONE(name, dial, buf)                                                    \
    {name, OPT_HTTP_LEGACY, dial, ARG_OPTIONAL, BUF_##buf, parse_http_selector, true, NULL}
#define STICKY_SEL(name, dial, buf)                                                     \
    {name, OPT_STICKY, dial, ARG_OPTIONAL, BUF_##buf, parse_http_selector, false, NULL}
#define LEGACY(name, dial, buf)                                                         \
    {name, OPT_HTTP_LEGACY, dial, ARG_OPTIONAL, BUF_##buf, parse_http_selector, false, NULL}

static const struct opt_def DEFS[] = {
    /* every dialect */
    STICKY_DONE("pkt_data", D_ALL, PKT),
    STICKY_DONE("file_data", D_ALL, FILE_DATA),
    STICKY_DONE("base64_data", D_ALL, BASE64),
    STICKY("dce_stub_data", D_ALL, DCE_STUB),
    /* classic modifiers / Snort 3 sticky buffers */
    LEGACY_DONE("http_uri", D_ALL, HTTP_URI),
    LEGACY_DONE("http_raw_uri", D_ALL, HTTP_URI_RAW),
    LEGACY_DONE("http_header", D_ALL, HTTP_HEADER),
    LEGACY_DONE("http_raw_header", D_ALL, HTTP_HEADER_RAW),
    LEGACY_DONE("http_cookie", D_ALL, HTTP_COOKIE),
    LEGACY("http_raw_cookie", D_S2 | D_S3, HTTP_COOKIE_RAW),
    LEGACY_DONE("http_method", D_ALL, HTTP_METHOD),
    LEGACY_DONE("http_client_body", D_ALL, HTTP_REQUEST_BODY),
    LEGACY_DONE("http_stat_code", D_ALL, HTTP_STAT_CODE),
    LEGACY_DONE("http_stat_msg", D_ALL, HTTP_STAT_MSG),
    LEGACY_DONE("http_user_agent", D_SURI, HTTP_USER_AGENT),
    LEGACY_DONE("http_host", D_SURI, HTTP_HOST),
    LEGACY_DONE("http_raw_host", D_SURI, HTTP_HOST_RAW),
    LEGACY_DONE("http_server_body", D_SURI, HTTP_RESPONSE_BODY),
    /* Snort 3 only */
    STICKY_DONE("raw_data", D_S3, RAW), /* the payload as it came: Osprey normalizes none of it (Telnet, FTP) */
    STICKY("js_data", D_S3, JS_DATA),
    STICKY("vba_data", D_S3, VBA_DATA),
    STICKY_SEL("http_version", D_S3, HTTP_VERSION),
    STICKY_SEL("http_true_ip", D_S3, HTTP_TRUE_IP),
    STICKY_SEL("http_raw_request", D_S3, HTTP_RAW_REQUEST),
    STICKY_SEL("http_raw_status", D_S3, HTTP_RAW_STATUS),
    STICKY_SEL("http_raw_body", D_S3, HTTP_RAW_BODY),
    STICKY_SEL("http_trailer", D_S3, HTTP_TRAILER),
    STICKY_SEL("http_raw_trailer", D_S3, HTTP_RAW_TRAILER),
    {"http_param", OPT_STICKY, D_S3, ARG_REQUIRED, BUF_HTTP_PARAM, parse_http_param, false, NULL},
    /* Snort 2 and 3 */
    STICKY("sip_header", D_S2 | D_S3, SIP_HEADER),
    STICKY("sip_body", D_S2 | D_S3, SIP_BODY),
    /* Suricata, older underscore names */
    STICKY_DONE("http_request_line", D_SURI, HTTP_REQUEST_LINE),
    STICKY_DONE("http_response_line", D_SURI, HTTP_RESPONSE_LINE),
    STICKY_DONE("http_accept", D_SURI, HTTP_ACCEPT),
    STICKY_DONE("http_accept_enc", D_SURI, HTTP_ACCEPT_ENC),
    STICKY_DONE("http_accept_lang", D_SURI, HTTP_ACCEPT_LANG),
    STICKY_DONE("http_connection", D_SURI, HTTP_CONNECTION),
    STICKY_DONE("http_content_len", D_SURI, HTTP_CONTENT_LEN),
    STICKY_DONE("http_content_type", D_SURI, HTTP_CONTENT_TYPE),
    STICKY_DONE("http_start", D_SURI, HTTP_START),
    STICKY_DONE("http_protocol", D_SURI, HTTP_PROTOCOL),
    STICKY_DONE("http_header_names", D_SURI, HTTP_HEADER_NAMES),
    STICKY_DONE("http_referer", D_SURI, HTTP_REFERER),
    STICKY_DONE("dns_query", D_SURI, DNS_QUERY),
    STICKY_DONE("tls_sni", D_SURI, TLS_SNI),
    STICKY_DONE("tls_cert_subject", D_SURI, TLS_CERT_SUBJECT),
    STICKY_DONE("tls_cert_issuer", D_SURI, TLS_CERT_ISSUER),
    STICKY_DONE("tls_cert_serial", D_SURI, TLS_CERT_SERIAL),
    STICKY_DONE("tls_cert_fingerprint", D_SURI, TLS_CERT_FINGERPRINT),
    STICKY_DONE("ja3_hash", D_SURI, JA3_HASH),
    STICKY_DONE("ja3_string", D_SURI, JA3_STRING),
    STICKY_DONE("ja3s_hash", D_SURI, JA3S_HASH),
    STICKY_DONE("ja3s_string", D_SURI, JA3S_STRING),
    STICKY("ssh_proto", D_SURI, SSH_PROTO),
    STICKY("ssh_software", D_SURI, SSH_SOFTWARE),
    STICKY("krb5_cname", D_SURI, KRB5_CNAME),
    STICKY("krb5_sname", D_SURI, KRB5_SNAME),
    STICKY("smb_named_pipe", D_SURI, SMB_NAMED_PIPE),
    STICKY("smb_share", D_SURI, SMB_SHARE),
    STICKY("dnp3_data", D_SURI, DNP3_DATA),
    /* Suricata dotted names */
    STICKY_DONE("file.data", D_SURI, FILE_DATA),
    STICKY("file.name", D_SURI, FILE_NAME),
    STICKY("file.magic", D_SURI, FILE_MAGIC),
    STICKY("dcerpc.stub_data", D_SURI, DCE_STUB),
    STICKY_DONE("http.uri", D_SURI, HTTP_URI),
    STICKY_DONE("http.uri.raw", D_SURI, HTTP_URI_RAW),
    STICKY_DONE("http.method", D_SURI, HTTP_METHOD),
    STICKY_DONE("http.request_line", D_SURI, HTTP_REQUEST_LINE),
    STICKY_DONE("http.request_body", D_SURI, HTTP_REQUEST_BODY),
    STICKY_DONE("http.header", D_SURI, HTTP_HEADER),
    STICKY_DONE("http.header.raw", D_SURI, HTTP_HEADER_RAW),
    STICKY_DONE("http.cookie", D_SURI, HTTP_COOKIE),
    STICKY_DONE("http.user_agent", D_SURI, HTTP_USER_AGENT),
    STICKY_DONE("http.host", D_SURI, HTTP_HOST),
    STICKY_DONE("http.host.raw", D_SURI, HTTP_HOST_RAW),
    STICKY_DONE("http.accept", D_SURI, HTTP_ACCEPT),
    STICKY_DONE("http.accept_enc", D_SURI, HTTP_ACCEPT_ENC),
    STICKY_DONE("http.accept_lang", D_SURI, HTTP_ACCEPT_LANG),
    STICKY_DONE("http.connection", D_SURI, HTTP_CONNECTION),
    STICKY_DONE("http.content_type", D_SURI, HTTP_CONTENT_TYPE),
    STICKY_DONE("http.content_len", D_SURI, HTTP_CONTENT_LEN),
    STICKY_DONE("http.start", D_SURI, HTTP_START),
    STICKY_DONE("http.protocol", D_SURI, HTTP_PROTOCOL),
    STICKY_DONE("http.header_names", D_SURI, HTTP_HEADER_NAMES),
    STICKY_DONE("http.referer", D_SURI, HTTP_REFERER),
    STICKY_DONE("http.response_line", D_SURI, HTTP_RESPONSE_LINE),
    STICKY_DONE("http.response_body", D_SURI, HTTP_RESPONSE_BODY),
    STICKY_DONE("http.stat_code", D_SURI, HTTP_STAT_CODE),
    STICKY_DONE("http.stat_msg", D_SURI, HTTP_STAT_MSG),
    STICKY_DONE("http.server", D_SURI, HTTP_SERVER),
    STICKY_DONE("http.location", D_SURI, HTTP_LOCATION),
    STICKY_DONE("http.request_header", D_SURI, HTTP_REQUEST_HEADER),
    STICKY_DONE("http.response_header", D_SURI, HTTP_RESPONSE_HEADER),
    STICKY("http2.header_name", D_SURI, HTTP2_HEADER_NAME),
    STICKY_DONE("dns.query", D_SURI, DNS_QUERY),
    STICKY_DONE("dns.answer.name", D_SURI, DNS_ANSWER_NAME),
    STICKY_DONE("dns.queries.rrname", D_SURI, DNS_QUERIES_RRNAME),
    STICKY_DONE("dns.answers.rrname", D_SURI, DNS_ANSWERS_RRNAME),
    STICKY_DONE("dns.authorities.rrname", D_SURI, DNS_AUTHORITIES_RRNAME),
    STICKY_DONE("dns.additionals.rrname", D_SURI, DNS_ADDITIONALS_RRNAME),
    STICKY_DONE("dns.response.rrname", D_SURI, DNS_RESPONSE_RRNAME),
    STICKY_DONE("dns.query.name", D_SURI, DNS_QUERY_NAME),
    STICKY_DONE("tls.sni", D_SURI, TLS_SNI),
    STICKY_DONE("tls.cert_subject", D_SURI, TLS_CERT_SUBJECT),
    STICKY_DONE("tls.cert_issuer", D_SURI, TLS_CERT_ISSUER),
    STICKY_DONE("tls.cert_serial", D_SURI, TLS_CERT_SERIAL),
    STICKY_DONE("tls.cert_fingerprint", D_SURI, TLS_CERT_FINGERPRINT),
    STICKY_DONE("tls.certs", D_SURI, TLS_CERTS),
    STICKY_DONE("tls.subjectaltname", D_SURI, TLS_SUBJECTALTNAME),
    STICKY_DONE("tls.random", D_SURI, TLS_RANDOM),
    STICKY_DONE("tls.random_time", D_SURI, TLS_RANDOM_TIME),
    STICKY_DONE("tls.random_bytes", D_SURI, TLS_RANDOM_BYTES),
    STICKY_DONE("tls.alpn", D_SURI, TLS_ALPN),
    STICKY_DONE("ja3.hash", D_SURI, JA3_HASH),
    STICKY_DONE("ja3.string", D_SURI, JA3_STRING),
    STICKY_DONE("ja3s.hash", D_SURI, JA3S_HASH),
    STICKY_DONE("ja3s.string", D_SURI, JA3S_STRING),
    STICKY_DONE("ja4.hash", D_SURI, JA4_HASH),
    STICKY("ssh.proto", D_SURI, SSH_PROTO),
    STICKY("ssh.software", D_SURI, SSH_SOFTWARE),
    STICKY("ssh.hassh", D_SURI, SSH_HASSH),
    STICKY("ssh.hassh.string", D_SURI, SSH_HASSH_STRING),
    STICKY("ssh.hassh.server", D_SURI, SSH_HASSH_SERVER),
    STICKY("ssh.hassh.server.string", D_SURI, SSH_HASSH_SERVER_STRING),
    STICKY("ssh-hassh", D_SURI, SSH_HASSH), /* the names before Suricata 6 */
    STICKY("ssh-hassh-string", D_SURI, SSH_HASSH_STRING),
    STICKY("ssh-hassh-server", D_SURI, SSH_HASSH_SERVER),
    STICKY("ssh-hassh-server-string", D_SURI, SSH_HASSH_SERVER_STRING),
    STICKY("smb.named_pipe", D_SURI, SMB_NAMED_PIPE),
    STICKY("smb.share", D_SURI, SMB_SHARE),
    STICKY("smb.ntlmssp_user", D_SURI, SMB_NTLMSSP_USER),
    STICKY("smb.ntlmssp_domain", D_SURI, SMB_NTLMSSP_DOMAIN),
    STICKY("krb5.cname", D_SURI, KRB5_CNAME),
    STICKY("krb5.sname", D_SURI, KRB5_SNAME),
    STICKY("sip.method", D_SURI, SIP_METHOD),
    STICKY("sip.uri", D_SURI, SIP_URI),
    STICKY("sip.protocol", D_SURI, SIP_PROTOCOL),
    STICKY("sip.stat_code", D_SURI, SIP_STAT_CODE),
    STICKY("sip.stat_msg", D_SURI, SIP_STAT_MSG),
    STICKY("sip.request_line", D_SURI, SIP_REQUEST_LINE),
    STICKY("sip.response_line", D_SURI, SIP_RESPONSE_LINE),
    STICKY("sip.from", D_SURI, SIP_FROM),
    STICKY("sip.to", D_SURI, SIP_TO),
    STICKY("sip.via", D_SURI, SIP_VIA),
    STICKY("sip.user_agent", D_SURI, SIP_USER_AGENT),
    STICKY("sip.content_type", D_SURI, SIP_CONTENT_TYPE),
    STICKY("sip.content_length", D_SURI, SIP_CONTENT_LENGTH),
    STICKY("sdp.origin", D_SURI, SDP_ORIGIN),
    STICKY("sdp.session_name", D_SURI, SDP_SESSION_NAME),
    STICKY("sdp.session_info", D_SURI, SDP_SESSION_INFO),
    STICKY("sdp.uri", D_SURI, SDP_URI),
    STICKY("sdp.email", D_SURI, SDP_EMAIL),
    STICKY("sdp.phone_number", D_SURI, SDP_PHONE_NUMBER),
    STICKY("sdp.connection_data", D_SURI, SDP_CONNECTION_DATA),
    STICKY("sdp.bandwidth", D_SURI, SDP_BANDWIDTH),
    STICKY("sdp.time", D_SURI, SDP_TIME),
    STICKY("sdp.repeat_time", D_SURI, SDP_REPEAT_TIME),
    STICKY("sdp.timezone", D_SURI, SDP_TIMEZONE),
    STICKY("sdp.encryption_key", D_SURI, SDP_ENCRYPTION_KEY),
    STICKY("sdp.attribute", D_SURI, SDP_ATTRIBUTE),
    STICKY("sdp.media.media", D_SURI, SDP_MEDIA_MEDIA),
    STICKY("sdp.media.media_info", D_SURI, SDP_MEDIA_MEDIA_INFO),
    STICKY("sdp.media.session_info", D_SURI, SDP_MEDIA_MEDIA_INFO), /* its docs' spelling */
    STICKY("sdp.media.connection_data", D_SURI, SDP_MEDIA_CONNECTION_DATA),
    STICKY("sdp.media.encryption_key", D_SURI, SDP_MEDIA_ENCRYPTION_KEY),
    STICKY("snmp.community", D_SURI, SNMP_COMMUNITY),
    STICKY("snmp.usm", D_SURI, SNMP_USM),
    STICKY("ldap.request.dn", D_SURI, LDAP_REQUEST_DN),
    STICKY("ldap.request.attribute_type", D_SURI, LDAP_REQUEST_ATTRIBUTE_TYPE),
    STICKY("ldap.responses.dn", D_SURI, LDAP_RESPONSES_DN),
    STICKY("ldap.responses.message", D_SURI, LDAP_RESPONSES_MESSAGE),
    STICKY("ldap.responses.attribute_type", D_SURI, LDAP_RESPONSES_ATTRIBUTE_TYPE),
    STICKY("quic.sni", D_SURI, QUIC_SNI),
    STICKY("quic.ua", D_SURI, QUIC_UA),
    STICKY("quic.version", D_SURI, QUIC_VERSION),
    STICKY("quic.cyu.hash", D_SURI, QUIC_CYU_HASH),
    STICKY("quic.cyu.string", D_SURI, QUIC_CYU_STRING),
    STICKY("mqtt.connect.clientid", D_SURI, MQTT_CONNECT_CLIENTID),
    STICKY("mqtt.connect.username", D_SURI, MQTT_CONNECT_USERNAME),
    STICKY("mqtt.connect.password", D_SURI, MQTT_CONNECT_PASSWORD),
    STICKY("mqtt.connect.willtopic", D_SURI, MQTT_CONNECT_WILLTOPIC),
    STICKY("mqtt.connect.willmessage", D_SURI, MQTT_CONNECT_WILLMESSAGE),
    STICKY("mqtt.connect.protocol_string", D_SURI, MQTT_CONNECT_PROTOCOL_STRING),
    STICKY("mqtt.publish.topic", D_SURI, MQTT_PUBLISH_TOPIC),
    STICKY("mqtt.publish.message", D_SURI, MQTT_PUBLISH_MESSAGE),
    STICKY("mqtt.subscribe.topic", D_SURI, MQTT_SUBSCRIBE_TOPIC),
    STICKY("mqtt.unsubscribe.topic", D_SURI, MQTT_UNSUBSCRIBE_TOPIC),
    STICKY("dnp3.data", D_SURI, DNP3_DATA),
    STICKY("ike.vendor", D_SURI, IKE_VENDOR),
    STICKY("ike.key_exchange_payload", D_SURI, IKE_KEY_EXCHANGE),
    STICKY("ike.nonce_payload", D_SURI, IKE_NONCE),
    STICKY("ike.init_spi", D_SURI, IKE_INIT_SPI),
    STICKY("ike.resp_spi", D_SURI, IKE_RESP_SPI),
    STICKY("ntp.reference_id", D_SURI, NTP_REFERENCE_ID),
    STICKY("pgsql.query", D_SURI, PGSQL_QUERY),
    STICKY("mdns.queries.rrname", D_SURI, MDNS_QUERIES_RRNAME),
    STICKY("mdns.answers.rrname", D_SURI, MDNS_ANSWERS_RRNAME),
    STICKY("mdns.authorities.rrname", D_SURI, MDNS_AUTHORITIES_RRNAME),
    STICKY("mdns.additionals.rrname", D_SURI, MDNS_ADDITIONALS_RRNAME),
    STICKY("mdns.response.rrname", D_SURI, MDNS_RESPONSE_RRNAME),
    STICKY("enip.product_name", D_SURI, ENIP_PRODUCT_NAME),
    STICKY("enip.service_name", D_SURI, ENIP_SERVICE_NAME),
    STICKY("rfb.name", D_SURI, RFB_NAME),
    STICKY("ftp.command", D_SURI, FTP_COMMAND),
    STICKY("ftp.command_data", D_SURI, FTP_COMMAND_DATA),
    STICKY("ftp.reply", D_SURI, FTP_REPLY),
    STICKY("ftp.completion_code", D_SURI, FTP_COMPLETION_CODE),
    STICKY("smtp.helo", D_SURI, SMTP_HELO),
    STICKY("smtp.mail_from", D_SURI, SMTP_MAIL_FROM),
    STICKY("smtp.rcpt_to", D_SURI, SMTP_RCPT_TO),
    STICKY("email.from", D_SURI, EMAIL_FROM),
    STICKY("email.to", D_SURI, EMAIL_TO),
    STICKY("email.cc", D_SURI, EMAIL_CC),
    STICKY("email.subject", D_SURI, EMAIL_SUBJECT),
    STICKY("email.date", D_SURI, EMAIL_DATE),
    STICKY("email.message_id", D_SURI, EMAIL_MESSAGE_ID),
    STICKY("email.x_mailer", D_SURI, EMAIL_X_MAILER),
    STICKY("email.url", D_SURI, EMAIL_URL),
    STICKY("email.received", D_SURI, EMAIL_RECEIVED),
    STICKY("pop3.args", D_SURI, POP3_ARGS),
    STICKY("pop3.response", D_SURI, POP3_RESPONSE),
    STICKY_DONE("tcp.hdr", D_SURI, TCP_HDR),
    STICKY_DONE("udp.hdr", D_SURI, UDP_HDR),
    STICKY_DONE("ipv4.hdr", D_SURI, IPV4_HDR),
    STICKY_DONE("ipv6.hdr", D_SURI, IPV6_HDR),
    STICKY_DONE("icmpv4.hdr", D_SURI, ICMPV4_HDR),
    STICKY_DONE("icmpv6.hdr", D_SURI, ICMPV6_HDR),
    /* the packet's address, 4 or 16 bytes (Suricata 8): for dataset/datarep only */
    STICKY_DONE("ip.src", D_SURI, IP_SRC),
    STICKY_DONE("ip.dst", D_SURI, IP_DST),
    STICKY("websocket.payload", D_SURI, WEBSOCKET_PAYLOAD),
    {"frame", OPT_STICKY, D_SURI, ARG_REQUIRED, BUF_FRAME_OTHER, parse_frame, true, NULL},
};
OPT_TABLE(opt_table_buffers, DEFS);
