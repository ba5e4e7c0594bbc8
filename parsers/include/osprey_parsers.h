/* osprey_parsers.h — application-layer parsers (HTTP/1.x, DNS, TLS) as a UDE library on libmon.
 *
 * Contract between parsers/ (which implements it) and its users: rules/compile (sticky
 * buffers, app-layer rule headers) and the engine's outputs (app_proto, http/dns/tls records).
 * It uses libmon's public API only, and knows nothing of rules or outputs.
 *
 * Model (mOS §3, UDE libraries): osprey_parsers_define() defines, on an unfrozen engine, one
 * UDE per application-layer event below libmon's built-in events (CONN_NEW_DATA for TCP, PKT_IN
 * for UDP). Protocol detection looks at content, not ports. A user hangs its own UDEs under
 * these events (mon_define_event(eng, ev->http_request, my_filter, arg)); inside its filters and
 * handlers, osprey_parsers_buffer() returns the current transaction's buffers.
 *
 * Each application event runs once per message: three pipelined requests in one segment run
 * the http_request subtree three times, in order, each time with that request's buffers current.
 * A message split over any number of segments runs once, when complete (or when a limit or the
 * end of the flow cuts it short).
 *
 * Lifetime follows libmon's: define on the engine, freeze, then attach one worker per mon_ctx
 * (before osprey_detect_attach or any other user of the events on that context).
 */
#ifndef OSPREY_PARSERS_H
#define OSPREY_PARSERS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mon.h"

enum osprey_app_proto {
    OSPREY_APP_UNKNOWN = 0,  /* not decided yet */
    OSPREY_APP_HTTP,
    OSPREY_APP_DNS,
    OSPREY_APP_TLS,
    OSPREY_APP_FAILED,       /* decided: none of ours (EVE: "failed") */
    OSPREY_APP__COUNT
};
/* "http", "dns", "tls", "failed"; NULL for UNKNOWN (EVE leaves app_proto out). */
const char *osprey_app_proto_name(enum osprey_app_proto p);

/* Buffers. Each is a byte range valid until the handler/filter that asked returns. */
enum osprey_buf {
    /* HTTP request (valid under http_request and http_request_body, and under the response
     * events of the same transaction) */
    OB_HTTP_METHOD, OB_HTTP_URI, OB_HTTP_URI_RAW, OB_HTTP_REQUEST_LINE, OB_HTTP_PROTOCOL,
    OB_HTTP_HEADER, OB_HTTP_HEADER_RAW, OB_HTTP_COOKIE, OB_HTTP_USER_AGENT, OB_HTTP_HOST,
    OB_HTTP_HOST_RAW, OB_HTTP_REFERER, OB_HTTP_CONTENT_TYPE, OB_HTTP_REQUEST_BODY,
    /* HTTP response (valid under http_response and http_response_body) */
    OB_HTTP_STAT_CODE, OB_HTTP_STAT_MSG, OB_HTTP_RESPONSE_LINE, OB_HTTP_RESPONSE_HEADER,
    OB_HTTP_RESPONSE_HEADER_RAW, OB_HTTP_RESPONSE_COOKIE, OB_HTTP_RESPONSE_CONTENT_TYPE,
    OB_HTTP_RESPONSE_BODY,   /* dechunked and decompressed: Suricata's file_data */
    /* DNS (under dns_query / dns_response): the first question's name, dotted, lower case
     * as sent, decompressed */
    OB_DNS_QUERY,
    /* TLS */
    OB_TLS_SNI,              /* under tls_client_hello */
    OB_TLS_JA3_STRING, OB_TLS_JA3_HASH, /* under tls_client_hello: "771,4865-…" and its MD5 hex */
    OB_TLS_JA4,              /* under tls_client_hello */
    OB_TLS_JA3S_STRING, OB_TLS_JA3S_HASH, /* under tls_server_hello */
    OB_TLS_CERT_SUBJECT, OB_TLS_CERT_ISSUER, OB_TLS_CERT_SERIAL, /* under tls_certificate:
                                                    RFC 2253-like "C=US, O=…, CN=…" as Suricata */
    OB_TLS_VERSION,          /* "TLS 1.2" … under tls_client_hello / tls_server_hello */
    /* added after the first contract (same rules as above) */
    OB_TLS_CERT_FINGERPRINT, /* under tls_certificate: SHA-1 of the DER, "aa:bb:…" lower case */
    OB_HTTP_START,           /* request: start line + headers as sent, up to the empty line */
    OB_HTTP_ACCEPT, OB_HTTP_ACCEPT_ENC, OB_HTTP_ACCEPT_LANG, OB_HTTP_CONNECTION,
    OB_HTTP_CONTENT_LEN,     /* request headers (repeated ones joined by ", ") */
    OB_HTTP_SERVER, OB_HTTP_LOCATION, /* response headers */
    OB_DNS_PDU,              /* under dns_query / dns_response: the message as sent (without
                                TCP's length prefix), Suricata's dns.pdu frame */
    /* TLS, multi-buffers (Suricata's multiple buffer matching: a rule's content list matches
     * when it matches in one element): osprey_parsers_buffer gives the first element,
     * osprey_parsers_buffer_at each one */
    OB_TLS_CERTS,            /* under tls_certificate: each certificate of the server's chain,
                                DER, in the order sent (under tls_client_certificate the
                                client's, as the other certificate buffers) */
    OB_TLS_SAN,              /* under tls_certificate: the first certificate's subjectAltName
                                entries as text (DNS names, e-mail, URIs, IP addresses) */
    OB_TLS_CLIENT_ALPN,      /* under tls_client_hello: each protocol the client offers */
    OB_TLS_SERVER_ALPN,      /* under tls_server_hello: the protocol the server chose */
    /* TLS, single */
    OB_TLS_CLIENT_RANDOM,    /* under tls_client_hello: the hello's 32 random bytes */
    OB_TLS_SERVER_RANDOM,    /* under tls_server_hello */
    OB__COUNT
};
/* Element i (0, 1, …) of buffer b: of a multi-buffer, its i-th element; of any other buffer,
 * the buffer itself for i = 0. NULL (len 0) past the last element. */
const uint8_t *osprey_parsers_buffer_at(struct mon_ctx *ctx, const struct mon_flow *f,
                                        enum osprey_buf b, uint32_t i, uint32_t *len);
bool osprey_buf_is_multi(enum osprey_buf b);
/* Short stable name ("http.uri", "dns.query", "tls.sni", "ja3.hash" …) for debug output. */
const char *osprey_buf_name(enum osprey_buf b);

/* The application events, all UDEs of the engine the parsers were defined on. */
struct osprey_parser_events {
    mon_event_t app_detected;        /* the flow's protocol was decided (any outcome) */
    mon_event_t http_request;        /* request line + headers complete (to server) */
    mon_event_t http_request_body;   /* request body complete or cut at its limit */
    mon_event_t http_response;       /* status line + headers complete (to client) */
    mon_event_t http_response_body;  /* response body complete or cut (also at flow end when
                                        the response had no length) */
    mon_event_t http_request_done;   /* the request is complete, head and body (an empty one
                                        too), after http_request_body */
    mon_event_t http_response_done;  /* the response is complete, the same way */
    mon_event_t dns_query, dns_response;
    mon_event_t tls_client_hello, tls_server_hello, tls_certificate;
    mon_event_t tls_client_certificate; /* the client's Certificate (mutual authentication):
                                           the certificate buffers then hold its chain */
    mon_event_t app_anomaly;         /* an application-layer event (below) happened: runs once
                                        per occurrence, osprey_parsers_anomaly() says which,
                                        with the side of the direction it was seen in */
};

/* Application-layer events: what the parsers find malformed, by Suricata's names
 * (app-layer-event:NAME). X(ENUM_SUFFIX, "name") — add new events here only. */
#define OSPREY_APP_EVENTS(X)                                                                \
    X(HTTP_INVALID_REQUEST_CHUNK_LEN, "http.invalid_request_chunk_len")                     \
    X(HTTP_INVALID_RESPONSE_CHUNK_LEN, "http.invalid_response_chunk_len")                   \
    X(HTTP_DUP_CL_REQUEST, "http.duplicate_content_length_field_in_request")  /* differing */ \
    X(HTTP_DUP_CL_RESPONSE, "http.duplicate_content_length_field_in_response") /* values */  \
    X(HTTP_INVALID_TE_REQUEST, "http.invalid_transfer_encoding_value_in_request")           \
    X(HTTP_AUTH_UNRECOGNIZED, "http.request_auth_unrecognized") /* not basic/digest/bearer */ \
    X(DNS_MALFORMED_DATA, "dns.malformed_data")   /* a message that does not decode */      \
    X(DNS_Z_FLAG_SET, "dns.z_flag_set")           /* the reserved header bit is set */       \
    X(DNS_NOT_REQUEST, "dns.not_request")         /* a response sent to the server */        \
    X(DNS_NOT_RESPONSE, "dns.not_response")       /* a query sent to the client */           \
    X(TLS_INVALID_RECORD_TYPE, "tls.invalid_record_type")                                   \
    X(TLS_INVALID_RECORD_VERSION, "tls.invalid_record_version")                             \
    X(TLS_INVALID_HANDSHAKE_MESSAGE, "tls.invalid_handshake_message") /* an unknown type */ \
    X(TLS_INVALID_CERTIFICATE, "tls.invalid_certificate") /* the server's certificate does not \
                                                             decode */                       \
    X(TLS_CERTIFICATE_INVALID_LENGTH, "tls.certificate_invalid_length") /* a certificate's   \
                  length past its message, or a DER element's header cut short */

enum osprey_app_event {
#define OSPREY_X_ENUM(e, name) OSPREY_AE_##e,
    OSPREY_APP_EVENTS(OSPREY_X_ENUM)
#undef OSPREY_X_ENUM
    OSPREY_AE__COUNT
};
const char *osprey_app_event_name(enum osprey_app_event e);
/* Inside app_anomaly's subtree: the event being raised; -1 elsewhere. */
int osprey_parsers_anomaly(struct mon_ctx *ctx, const struct mon_flow *f);

struct osprey_parsers_cfg {
    uint32_t http_header_limit;      /* bytes of request/response line + headers; default 32768 */
    uint32_t http_request_body_limit;  /* default 1 MiB (after decoding); 0 = unlimited */
    uint32_t http_response_body_limit; /* default 1 MiB */
    bool http_decompress;            /* gzip/deflate response bodies (zlib); default true */
    uint32_t http_decompress_layer_limit; /* Content-Encoding layers undone; default 2 */
    bool http_lzma_enabled;          /* Content-Encoding: lzma undone (liblzma); default false */
    uint32_t http_lzma_memlimit;     /* bytes one lzma layer may use; default 1 MiB */
};
void osprey_parsers_cfg_defaults(struct osprey_parsers_cfg *cfg);

struct osprey_parsers;
struct osprey_parsers_worker;

/* Define the events on eng (not frozen). Returns 0, or -1 (out of memory / libmon error). */
int osprey_parsers_define(struct mon_engine *eng, const struct osprey_parsers_cfg *cfg,
                          struct osprey_parsers **out);
const struct osprey_parser_events *osprey_parsers_events(const struct osprey_parsers *p);
void osprey_parsers_free(struct osprey_parsers *p);

/* One per context, after mon_engine_freeze. Free the worker after mon_ctx_destroy (flows
 * that end when the context goes still finish their transactions). App events run with the
 * side of the message's receiver, as CONN_NEW_DATA: MON_SIDE_SVR for what the client sent
 * (also for UDP). */
struct osprey_parsers_worker *osprey_parsers_attach(const struct osprey_parsers *p,
                                                    struct mon_ctx *ctx);
void osprey_parsers_worker_free(struct osprey_parsers_worker *w);

/* Valid inside any filter or handler on that context (and in the flow-end callback). */
enum osprey_app_proto osprey_parsers_app_proto(struct mon_ctx *ctx, const struct mon_flow *f);
/* The current transaction's buffer b, or NULL (len 0) when it has none now. */
const uint8_t *osprey_parsers_buffer(struct mon_ctx *ctx, const struct mon_flow *f,
                                     enum osprey_buf b, uint32_t *len);
/* HTTP: the current transaction's status code (0 = no response yet) and its number in the
 * flow (0, 1, … in request order). */
int osprey_parsers_http_status(struct mon_ctx *ctx, const struct mon_flow *f);
uint32_t osprey_parsers_tx_id(struct mon_ctx *ctx, const struct mon_flow *f);
/* HTTP: bytes of the current transaction's response body as they were sent (chunk framing
 * and compression included, limits ignored): EVE's http "length", as Suricata counts it. */
uint64_t osprey_parsers_http_response_length(struct mon_ctx *ctx, const struct mon_flow *f);

/* A transaction (HTTP request+response, DNS message, TLS handshake) is complete: called once
 * for it, with its buffers current (for EVE http/dns/tls records). */
typedef void (*osprey_tx_fn)(struct mon_ctx *ctx, struct mon_flow *f, enum osprey_app_proto p,
                             void *arg);
void osprey_parsers_set_tx_cb(struct osprey_parsers_worker *w, osprey_tx_fn fn, void *arg);

/* DNS: the current message's header, first question and answers (for EVE dns records and
 * dns.* options). Names and rdata point into the parser's copy, valid as buffers are. */
#define OSPREY_DNS_MAX_ANSWERS 16
struct osprey_dns_rr {
    const uint8_t *name;     /* dotted, decompressed */
    uint32_t name_len;
    uint16_t type, rclass;
    uint32_t ttl;
    const uint8_t *rdata;    /* as text: A/AAAA addresses, CNAME/NS/PTR/MX names, one TXT
                                string (one rr per string); other types: none (len 0) */
    uint32_t rdata_len;
    bool has_soa;            /* an SOA record: its fields below */
    struct {
        const uint8_t *mname, *rname; /* dotted, decompressed */
        uint32_t mname_len, rname_len;
        uint32_t serial, refresh, retry, expire, minimum;
    } soa;
};
struct osprey_dns_info {
    uint16_t id, flags;      /* flags as on the wire: QR, opcode, AA, TC, RD, RA, rcode */
    bool response;
    uint8_t rcode;
    uint16_t qtype, qclass;  /* of the first question */
    uint16_t ancount;        /* as the header says */
    uint32_t nanswers;       /* answers decoded here (at most OSPREY_DNS_MAX_ANSWERS) */
    struct osprey_dns_rr answers[OSPREY_DNS_MAX_ANSWERS];
    uint32_t nauthorities;   /* the authority section, the same way */
    struct osprey_dns_rr authorities[OSPREY_DNS_MAX_ANSWERS];
    uint32_t nqueries;       /* the questions' names (at most OSPREY_DNS_MAX_ANSWERS) */
    struct osprey_dns_name { const uint8_t *name; uint32_t name_len; uint16_t type; }
        queries[OSPREY_DNS_MAX_ANSWERS];
    uint32_t nadditionals;   /* the additional records' names, the same way */
    struct osprey_dns_name additionals[OSPREY_DNS_MAX_ANSWERS];
};
/* true and *out filled inside the dns_query / dns_response events (and the tx callback). */
bool osprey_parsers_dns_info(struct mon_ctx *ctx, const struct mon_flow *f,
                             struct osprey_dns_info *out);

/* TLS: what the handshake showed so far (for the tls.* / ssl_* options that are not
 * buffers). Versions are wire values (0x0303 = TLS 1.2; 0x0002 = SSLv2). */
enum {
    OSPREY_TLS_SEEN_CLIENT_HELLO = 1 << 0, OSPREY_TLS_SEEN_SERVER_HELLO = 1 << 1,
    OSPREY_TLS_SEEN_CLIENT_KEYX = 1 << 2, OSPREY_TLS_SEEN_SERVER_KEYX = 1 << 3,
    OSPREY_TLS_SEEN_UNKNOWN = 1 << 4, /* a handshake message of another type */
};
struct osprey_tls_info {
    uint16_t client_version;  /* the ClientHello's (legacy) version; 0: none seen */
    uint16_t server_version;  /* the ServerHello's version, or its supported_versions choice */
    uint16_t version;         /* negotiated: server_version, else client_version */
    uint32_t state;           /* OSPREY_TLS_SEEN_* of the handshake messages seen */
    uint32_t last_state;      /* the latest one (ssl_state matches on it) */
    uint32_t cert_chain_len;  /* certificates in the server's Certificate message */
    bool has_validity;        /* the first certificate's validity, seconds since 1970 UTC */
    int64_t not_before, not_after;
};
/* true and *out filled when the flow is TLS (inside any filter or handler on the flow). */
bool osprey_parsers_tls_info(struct mon_ctx *ctx, const struct mon_flow *f,
                             struct osprey_tls_info *out);

/* Counters of one worker (anomalies: limits hit, malformed messages, decompression errors). */
struct osprey_parsers_stats {
    uint64_t flows[OSPREY_APP__COUNT];
    uint64_t http_requests, http_responses, dns_messages, tls_handshakes;
    uint64_t http_header_limit, http_body_limit, http_malformed, http_gzip_errors;
    uint64_t dns_malformed, tls_malformed;
    uint64_t http_tx_dropped;  /* more pipelined requests waiting than kept (8): the oldest
                                  was reported without its response */
    uint64_t tls_limit;        /* a handshake message over the 64 KiB kept, skipped */
};
const struct osprey_parsers_stats *osprey_parsers_worker_stats(
    const struct osprey_parsers_worker *w);

#endif
