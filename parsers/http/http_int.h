/* http_int.h — what the HTTP parser's files share. Internal to parsers/http. */
#ifndef OSPREY_HTTP_INT_H
#define OSPREY_HTTP_INT_H

#include "parsers_int.h"

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
    uint64_t left;     /* bytes of chunk data still to come */
    uint32_t line;     /* bytes of the current size/trailer line (bounded) */
    bool any_digit;
    uint64_t framed;   /* bytes consumed up to the end of the last-chunk line ("0\r\n"):
                          the body as sent, trailer excluded, as libhtp counts it */
};
/* Feed n bytes; chunk data goes to sink(arg, data, len). Returns bytes consumed (the rest
 * belongs to the next message) — all n until the terminating empty line. *done once it is
 * complete; *bad when the framing broke (the rest of the stream cannot be framed). */
typedef void (*http_sink_fn)(void *arg, const uint8_t *d, size_t n);
size_t http_chunked_feed(struct http_chunked *c, const uint8_t *d, size_t n, http_sink_fn sink,
                         void *arg, bool *done, bool *bad);

/* inflate.c: gzip / deflate (zlib), output bounded by the caller. */
struct http_inflate;
struct http_inflate *http_inflate_new(bool gzip);  /* gzip, or deflate (zlib or raw) */
/* Decompress n bytes, appending to out up to max (0 = none). -1 on a stream error. */
int http_inflate_feed(struct http_inflate *z, const uint8_t *d, size_t n, struct pbuf *out,
                      uint32_t max, bool *full);
void http_inflate_free(struct http_inflate *z);

/* head.c: one message head (start line + headers + the empty line), parsed into buffers. */
struct http_msg {
    bool present;
    bool body_run;             /* its body event ran (complete, or cut at the limit) */
    bool cut;                  /* body hit its limit */
    uint64_t wire_len;         /* body bytes as sent: chunk framing and compression included,
                                  whatever the limit kept (Suricata's http "length") */
    struct pbuf copy;          /* every head buffer lives in here */
    struct span sp[OB__COUNT];
    struct pbuf body;
};

struct http_head_info {        /* what framing needs from a head */
    bool chunked;
    bool has_length;
    uint64_t length;
    int encoding;              /* 0 none, 1 gzip, 2 deflate */
    int status;                /* responses */
    bool is_head;              /* request method HEAD */
    bool is_connect;           /* request method CONNECT */
    bool malformed;
    bool cl_ambiguous;         /* Content-Length repeated with another or no number */
};
/* request: true for a request head. Returns 0, or -1 when the start line is not HTTP. */
int http_head_parse(struct http_msg *m, bool request, const uint8_t *d, uint32_t n,
                    struct http_head_info *info);

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

enum http_dir_state { HS_HEAD, HS_BODY_LEN, HS_BODY_CHUNKED, HS_BODY_CLOSE, HS_DEAD };

struct http_dir {
    uint8_t st;
    uint32_t scan;             /* bytes of the staged head already searched for its end */
    uint64_t left;
    struct http_chunked ch;
    struct http_inflate *z;
    uint32_t tx;               /* id of the message being parsed */
    bool lost;                 /* responses: skipping to the next status line */
};

struct http_state {
    struct http_tx tx[HTTP_TX_RING];
    uint32_t nreq, nresp;
    struct http_dir d[2];
    struct http_tx *cur;
};

#endif
