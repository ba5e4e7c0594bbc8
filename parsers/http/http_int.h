/* http_int.h — what the HTTP parser's files share. Internal to parsers/http. */
#ifndef OSPREY_HTTP_INT_H
#define OSPREY_HTTP_INT_H

#include "http_body.h"
#include "parsers_int.h"

extern const struct osprey_proto_def http_proto;

/* The parser's own buffers (spans of a message's copy, or its body); rows of http_proto's
 * buffer table (http.c) name them. Request ones first, then the response's. */
enum http_buf {
    HB_METHOD, HB_URI, HB_URI_RAW, HB_REQUEST_LINE, HB_PROTOCOL, HB_HEADER, HB_HEADER_RAW,
    HB_COOKIE, HB_USER_AGENT, HB_HOST, HB_HOST_RAW, HB_REFERER, HB_CONTENT_TYPE,
    HB_REQUEST_BODY, HB_START, HB_ACCEPT, HB_ACCEPT_ENC, HB_ACCEPT_LANG, HB_CONNECTION,
    HB_CONTENT_LEN,
    HB_STAT_CODE, /* the response's from here */
    HB_STAT_MSG, HB_RESPONSE_LINE, HB_RESPONSE_HEADER, HB_RESPONSE_HEADER_RAW,
    HB_RESPONSE_COOKIE, HB_RESPONSE_CONTENT_TYPE, HB_RESPONSE_BODY, HB_SERVER, HB_LOCATION,
    HB__COUNT
};
static inline bool http_buf_is_response(enum http_buf b) { return b >= HB_STAT_CODE; }

/* rows of http_proto.events / .anomalies / .counters */
enum { HTTP_EV_REQUEST_LINE, HTTP_EV_REQUEST, HTTP_EV_REQUEST_BODY, HTTP_EV_REQUEST_DONE, HTTP_EV_RESPONSE,
       HTTP_EV_RESPONSE_BODY, HTTP_EV_RESPONSE_DONE };
enum { HTTP_AE_INVALID_REQUEST_CHUNK_LEN, HTTP_AE_INVALID_RESPONSE_CHUNK_LEN,
       HTTP_AE_DUP_CL_REQUEST, HTTP_AE_DUP_CL_RESPONSE, HTTP_AE_INVALID_TE_REQUEST,
       HTTP_AE_AUTH_UNRECOGNIZED, HTTP_AE_MISSING_PROTOCOL, HTTP_AE_FIELD_TOO_LONG,
       HTTP_AE_TOO_MANY_LAYERS, HTTP_AE_BODY_UNEXPECTED, HTTP_AE_FAILED_PROTOCOL_CHANGE,
       /* libhtp's warnings on a head (http_head_info) */
       HTTP_AE_LEADING_WS, HTTP_AE_METHOD_DELIM, HTTP_AE_URI_DELIM, HTTP_AE_REQ_REPETITION,
       HTTP_AE_RESP_REPETITION, HTTP_AE_REQ_MISSING_COLON, HTTP_AE_RESP_MISSING_COLON,
       HTTP_AE_REQ_HEADER_INVALID, HTTP_AE_RESP_HEADER_INVALID, HTTP_AE_REQ_FOLDING,
       HTTP_AE_MISSING_HOST, HTTP_AE_HOST_AMBIGUOUS, HTTP_AE_HEADER_HOST_INVALID,
       HTTP_AE_URI_HOST_INVALID, HTTP_AE_INVALID_CL_REQUEST, HTTP_AE_INVALID_CL_RESPONSE,
       HTTP_AE_RESP_ABNORMAL_TE, HTTP_AE_RESP_CHUNKED_OLD, HTTP_AE_RESP_INVALID_PROTOCOL,
       HTTP_AE_RESP_INVALID_STATUS, HTTP_AE_REQUEST_LINE_INVALID, HTTP_AE_CONTINUE_SEEN,
       HTTP_AE_UNMATCHED_RESPONSE, HTTP_AE_ABNORMAL_CE, HTTP_AE_RESP_FIELD_TOO_LONG,
       HTTP_AE_REQUEST_LINE_INCOMPLETE, HTTP_AE_RESP_FOLDING };
enum { HTTP_C_REQUESTS, HTTP_C_RESPONSES, HTTP_C_HEADER_LIMIT, HTTP_C_BODY_LIMIT,
       HTTP_C_MALFORMED, HTTP_C_GZIP_ERRORS, HTTP_C_TX_DROPPED };

/* stream.c */
void http_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void http_end(struct pflow *pf, struct mon_flow *f);
/* Bytes of direction dir were lost: abandon the message in progress, find the next head. */
void http_gap(struct pflow *pf, struct mon_flow *f, int dir);
/* The current transaction's buffer b, NULL when it has none. */
const uint8_t *http_buffer(struct pflow *pf, enum http_buf b, uint32_t *len);
int http_status(const struct pflow *pf);
uint64_t http_response_wire_len(const struct pflow *pf);
uint32_t http_tx_id(const struct pflow *pf);
void http_free(void *state);
void http_trim(void *state); /* the connection closed: bodies and decoders go */

/* probe.c */
enum probe_verdict detect_http_request(const uint8_t *d, size_t n);
enum probe_verdict detect_http_response(const uint8_t *d, size_t n);

/* derived.c: buffers built from the parser's (Suricata's http.header_names, http.start, the
 * single-header buffers, http.header without cookies, the HTTP/1 frames, one element per
 * header line), in the caller's scratch. */
enum http_derived {
    HD_REQ_HEADER_NAMES, HD_RESP_HEADER_NAMES, HD_REQ_START, HD_RESP_START,
    HD_REQ_CONTENT_LEN, HD_RESP_CONTENT_LEN, HD_REQ_CONNECTION, HD_RESP_CONNECTION,
    HD_ACCEPT, HD_ACCEPT_ENC, HD_ACCEPT_LANG, HD_LOCATION, HD_SERVER,
    HD_REQ_HEADER, HD_RESP_HEADER, HD_REQ_FRAME, HD_RESP_FRAME,
    HD_REQ_HEADER_LINES, HD_RESP_HEADER_LINES /* multi: one element per header */
};
const uint8_t *http_derived(struct pflow *pf, unsigned which, uint32_t i,
                            struct osprey_scratch *s, uint32_t *len);

#define HTTP_TX_RING 8   /* requests kept waiting for their responses (pipelining) */

/* uri.c: Suricata's http.uri from the raw request target: percent-decoded, dot segments
 * removed, repeated slashes collapsed, the query kept (decoded); an absolute target
 * ("http://host/p") gives its path. Writes at most cap bytes; returns the length. */
uint32_t http_uri_normalize(const uint8_t *raw, uint32_t n, uint8_t *out, uint32_t cap);
/* The value of a hex digit, or -1 (also used by chunked.c for chunk sizes). */
int http_hexval(uint8_t c);
/* The host from an absolute request target, or NULL. */
const uint8_t *http_uri_host(const uint8_t *raw, uint32_t n, uint32_t *hl);

/* chunked.c: Transfer-Encoding: chunked, incrementally. */
struct http_chunked {
    uint8_t st;        /* enum in chunked.c */
    uint8_t sl;        /* where in a size line (enum in chunked.c) */
    bool overflow;     /* the size has more hex digits than 64 bits hold */
    uint32_t digits;   /* hex digits of the size line so far */
    uint64_t left;     /* bytes of chunk data still to come (the size while reading it) */
    uint32_t line;     /* bytes of the current size/trailer line (bounded) */
    bool plain;        /* a size line held no size: the rest is body as sent */
    uint64_t framed;   /* bytes consumed up to the end of the last-chunk line ("0\r\n"):
                          the body as sent, trailer excluded, as libhtp counts it */
};
/* Feed n bytes; chunk data goes to sink(arg, data, len). Returns bytes consumed (the rest
 * belongs to the next message) — all n until the terminating empty line. *done once it is
 * complete; *bad when the framing broke (a size or trailer line over 8 KiB). A size line
 * that holds no size turns the rest of the message into plain body (sunk as it comes,
 * never done: the connection's end ends it), as libhtp reads it. */
typedef void (*http_sink_fn)(void *arg, const uint8_t *d, size_t n);
size_t http_chunked_feed(struct http_chunked *c, const uint8_t *d, size_t n, http_sink_fn sink,
                         void *arg, bool *done, bool *bad);

/* resp_head.c: the response status line and headers as libhtp reads them. */
struct rh_header {
    uint32_t ns, ne;   /* the name, trimmed, in the head */
    uint32_t val, vlen; /* the unfolded, trimmed value, in the copy */
    bool no_colon;     /* a line without a colon: all of it is the value */
};
struct rh_out {
    struct pbuf *copy; /* values are unfolded into it */
    struct rh_header *h;
    int nh, max;
};
enum { RH_DONE, RH_MORE };
/* Headers from *pos of d[0..n): RH_DONE with *pos past the empty line that ends them, or
 * RH_MORE with *pos at the first header not complete yet (read again from there). o may
 * be NULL (only finding the end). */
int http_resp_headers(const uint8_t *d, uint32_t n, uint32_t *pos, struct rh_out *o);
/* The status line from p: its text ends at *le; returns the position after its line end
 * (CR LF, CR or LF), or -1 when it is not complete. */
int http_resp_line(const uint8_t *d, uint32_t n, uint32_t p, uint32_t *le);
/* Does this line look like a status line (spaces/NUL, then "http", any case)? */
bool http_resp_line_is_http(const uint8_t *l, uint32_t n);
bool http_is_space(uint8_t c); /* SP HT CR LF VT FF */
bool http_is_tchar(uint8_t c); /* RFC 9110's token characters (head.c) */
/* probe.c: is p[0..n) a method libhtp knows (its HtpMethod names, case as sent)? */
bool http_method_known(const uint8_t *p, size_t n);

/* host.c: a "host[:port]" as libhtp reads it (host without the port, port or -1); false
 * when the host name or the port is not valid. */
struct http_hostport {
    const uint8_t *host;
    uint32_t host_len;
    int32_t port;
};
bool http_hostport(const uint8_t *v, uint32_t n, struct http_hostport *out);
bool http_hostname_valid(const uint8_t *h, uint32_t n);
/* Same host (case-insensitive), and same port when both name one. */
bool http_host_same(const struct http_hostport *a, const struct http_hostport *b);

/* head.c: one message head (start line + headers + the empty line), parsed into buffers. */
struct http_msg {
    bool present;
    bool done_run;             /* its message-complete event ran */
    bool body_run;             /* its body event ran (complete, or cut at the limit) */
    bool cut;                  /* body hit its limit */
    bool unexpected;           /* http.request_body_unexpected was raised for it */
    uint64_t wire_len;         /* body bytes as sent: chunk framing and compression included,
                                  whatever the limit kept (Suricata's http "length") */
    struct pbuf copy;          /* every head buffer lives in here */
    struct span sp[HB__COUNT];
    struct pbuf body;
    uint32_t file;             /* its body's file (files.c, core/files.h); 0: none yet */
    bool file_none;            /* its body makes no file (a GET's) */
    bool files_done;           /* its multipart parts were made files */
};

struct http_head_info {        /* what framing needs from a head */
    bool chunked;
    bool has_length;
    bool has_te, has_cl;       /* responses: the headers are there (whatever they say) */
    uint64_t length;
    uint8_t codings[16];       /* responses: Content-Encoding, each listed coding in order */
    int ncodings;
    bool ce_single;            /* one known coding named exactly: no layer limit applies */
    int ce_abnormal_at;        /* the first listed coding libhtp finds abnormal (a gzip or
                                  deflate spelled otherwise, an unknown one); -1 none */
    int status;                /* responses */
    bool is_head;              /* request method HEAD */
    bool is_connect;           /* request method CONNECT */
    bool malformed;
    bool cl_ambiguous;         /* Content-Length repeated with another or no number */
    bool te_invalid;           /* requests: Transfer-Encoding without "chunked" */
    bool auth_unrecognized;    /* requests: Authorization of a scheme libhtp does not know */
    /* what libhtp logs about a head (Suricata's events; raised by stream.c) */
    bool leading_ws;           /* requests: whitespace before the method */
    bool method_delim;         /* requests: a delimiter after the method other than SP */
    bool uri_delim;            /* requests: URI and protocol split by other whitespace */
    bool repeated;             /* a header name a second time */
    bool missing_colon;        /* a header line without colon */
    bool name_invalid;         /* a header name that is not a token */
    bool bad_folding;          /* a folded line with no header before it */
    bool host_missing;         /* requests: HTTP/1.1 or later without Host */
    bool host_ambiguous;       /* requests: the Host header names another host than the URI */
    bool hosth_invalid, hostu_invalid; /* requests: the Host header's, the URI's host */
    bool cl_invalid;           /* a Content-Length without digits (no chunked coding) */
    bool te_abnormal;          /* responses: Transfer-Encoding with "chunked", not only it */
    bool proto_old;            /* responses: a protocol below HTTP/1.1 */
    bool proto_invalid;        /* responses: no HTTP/0.9, 1.0 or 1.1 */
    bool status_invalid;       /* responses: no status 100-999 */
};
/* request: true for a request head. The head is d[0..n); a response head may look at
 * bytes after it up to avail (line ends are decided by what follows them). Returns 0, or
 * -1 when the start line is not HTTP. */
int http_head_parse(struct http_msg *m, bool request, const uint8_t *d, uint32_t n,
                    uint32_t avail, struct http_head_info *info);
/* anomalies.c: the warnings noted in info raised as Suricata's events (dir: the head's) */
struct http_tx;
void http_head_anomalies(struct pflow *pf, struct mon_flow *f, int dir,
                         const struct http_tx *t, const struct http_head_info *info);
/* A protocol "HTTP/x.y" as libhtp numbers it: 9, 10, 11; -1 for any other. */
int http_protocol_number(const uint8_t *p, uint32_t n);

struct http_tx {
    uint32_t id;
    bool used;
    bool is_head;
    bool is_connect;
    bool simple;               /* an HTTP/0.9 request: its response is a body without head */
    bool done;                 /* reported with the tx callback */
    int status;
    struct http_msg req, resp;
};

enum http_dir_state { HS_HEAD, HS_BODY_LEN, HS_BODY_CHUNKED, HS_BODY_CLOSE, HS_DEAD,
                      HS_REQ_TAIL /* a request is in: the lines after it in the same chunk
                                     that name no method are more of its body (libhtp) */ };

struct http_dir {
    uint8_t st;
    uint32_t scan;             /* bytes of the staged head already searched for its end */
    uint64_t left;
    struct http_chunked ch;
    struct http_body_decoder *z;
    uint32_t tx;               /* id of the message being parsed */
    bool lost;                 /* responses: skipping to the next status line */
    uint32_t line_len;         /* requests: bytes of the head's line being received */
    bool field_long;           /* requests: http.request_field_too_long raised for this head */
    bool seen_100;             /* responses: a 100 Continue came for the response awaited */
    bool line_seen;            /* requests: http_request_line ran for the head being received
                                  (its transaction is hd->tx, made then) */
};

/* libhtp's hard limit of one request head line (its field_limit): a longer line raises
 * http.request_field_too_long, once per head. */
#define HTTP_FIELD_LIMIT 18000u

/* HTTP's settings (app-layer.protocols.http.*: its descriptor's cfg keys; the slot
 * pflow_cfg reads). The body settings come first: HTTP/2 reads them from this slot as the
 * shared library's struct (../http_body/http_body.h), never this one. */
struct http_cfg {
    struct http_body_cfg body;      /* body limits, decompress (HTTP/2's bodies too) */
    uint32_t header_limit;          /* bytes of request/response line + headers (32768) */
    uint32_t decompress_layer_limit; /* Content-Encoding layers undone (2) */
    bool lzma_enabled;              /* lzma undone (liblzma; false) */
    uint32_t lzma_memlimit;         /* bytes one lzma layer may use (1 MiB) */
};

struct http_state {
    struct http_tx tx[HTTP_TX_RING];
    uint32_t nreq, nresp;
    struct http_dir d[2];
    struct http_tx *cur;
};

/* multipart.c: a multipart/form-data request's parts, spans of its kept body (at most max);
 * -1 when the request is not multipart/form-data. complete: its delimiter came after it. */
struct http_part {
    uint32_t hdr_off, hdr_len;   /* its header lines ("Name: value\r\n") */
    uint32_t data_off, data_len;
    bool complete;
};
#define HTTP_PARTS_MAX 32
int http_multipart(const struct http_msg *req, struct http_part *parts, int max);

/* files.c: the bodies as files (core/files.h). n decoded bytes of the body of t's message
 * in direction dir (its file opens with the first; a multipart request's parts become files
 * when it is complete); the message's file(s) are complete or cut. */
void http_file_data(struct pflow *pf, struct http_tx *t, int dir, const uint8_t *d, size_t n);
void http_file_close(struct pflow *pf, struct http_tx *t, int dir, bool truncated);
/* file.data of a request: its files' bytes, element by element (a multipart request's parts
 * with a filename; a POST or PUT request's whole body) */
const uint8_t *http_file_buffer(struct pflow *pf, unsigned key, uint32_t i,
                                struct osprey_scratch *s, uint32_t *len);

/* eve.c: its EVE object; the hostname as EVE writes it (the Host header's case) */
bool http_eve(struct pflow *pf, struct osprey_jw *w);
const uint8_t *http_hostname(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len);

#endif
