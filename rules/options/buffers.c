/* buffers.c — buffer names (see buffers.h). */
#include "buffers.h"

#include "osprey_rules.h"

static const char *const BUFFER_NAMES[] = {
#define RULE_BUFFER_NAME(id, name) name,
    RULE_BUFFERS(RULE_BUFFER_NAME)
#undef RULE_BUFFER_NAME
};

const char *osprey_rules_buffer_name(unsigned buffer)
{
    return buffer < BUF_COUNT ? BUFFER_NAMES[buffer] : "?";
}

/* The buffers detection can inspect: the packet/stream, its headers, and the application buffers the
 * parsers fill (rules/compile/app.c maps each to its parser buffer and event). */
bool buffer_inspectable(unsigned buffer)
{
    switch (buffer) {
    case BUF_PKT: case BUF_RAW: case BUF_BASE64:
    case BUF_IPV4_HDR: case BUF_IPV6_HDR: case BUF_TCP_HDR: case BUF_UDP_HDR:
    case BUF_ICMPV4_HDR: case BUF_ICMPV6_HDR: /* packet headers (compile/pkt_units.c) */
    case BUF_HTTP_METHOD: case BUF_HTTP_URI: case BUF_HTTP_URI_RAW: case BUF_HTTP_REQUEST_LINE:
    case BUF_HTTP_PROTOCOL: case BUF_HTTP_HEADER: case BUF_HTTP_HEADER_RAW:
    case BUF_HTTP_COOKIE: case BUF_HTTP_USER_AGENT: case BUF_HTTP_HOST: case BUF_HTTP_HOST_RAW:
    case BUF_HTTP_REFERER: case BUF_HTTP_CONTENT_TYPE: case BUF_HTTP_REQUEST_BODY:
    case BUF_HTTP_STAT_CODE: case BUF_HTTP_STAT_MSG: case BUF_HTTP_RESPONSE_LINE:
    case BUF_HTTP_RESPONSE_BODY: case BUF_FILE_DATA:
    case BUF_HTTP_HEADER_NAMES: case BUF_HTTP_START: case BUF_HTTP_CONTENT_LEN:
    case BUF_HTTP_CONNECTION: case BUF_HTTP_ACCEPT: case BUF_HTTP_ACCEPT_ENC:
    case BUF_HTTP_ACCEPT_LANG: case BUF_HTTP_LOCATION: case BUF_HTTP_SERVER:
    case BUF_HTTP_REQUEST_HEADER: case BUF_HTTP_RESPONSE_HEADER:
    case BUF_FRAME_HTTP1_REQUEST: case BUF_FRAME_HTTP1_RESPONSE: case BUF_FRAME_DNS_PDU:
    case BUF_DNS_QUERY: case BUF_DNS_QUERIES_RRNAME: case BUF_DNS_ANSWERS_RRNAME:
    case BUF_DNS_AUTHORITIES_RRNAME: case BUF_DNS_QUERY_NAME: case BUF_DNS_ANSWER_NAME:
    case BUF_DNS_ADDITIONALS_RRNAME: case BUF_DNS_RESPONSE_RRNAME:
    case BUF_TLS_SNI: case BUF_JA3_HASH: case BUF_JA3_STRING: case BUF_JA4_HASH:
    case BUF_JA3S_HASH: case BUF_JA3S_STRING:
    case BUF_TLS_CERT_SUBJECT: case BUF_TLS_CERT_ISSUER: case BUF_TLS_CERT_SERIAL:
    case BUF_TLS_CERT_FINGERPRINT: case BUF_TLS_CERTS: case BUF_TLS_SUBJECTALTNAME:
    case BUF_TLS_ALPN: case BUF_TLS_RANDOM: case BUF_TLS_RANDOM_TIME: case BUF_TLS_RANDOM_BYTES:
        return true;
    default:
        return false;
    }
}
