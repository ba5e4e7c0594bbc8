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

/* decompress.c: Content-Encoding layers (gzip, deflate, zlib, lzma) as browsers decode
 * them, output bounded by the caller's limit and a work cap. */
#define HTTP_MAX_LAYERS 8
enum http_coding { HC_NONE, HC_GZIP, HC_DEFLATE, HC_ZLIB, HC_LZMA };
struct http_decoder_cfg {
    bool lzma_enabled;
    uint64_t lzma_memlimit;  /* bytes liblzma may allocate per layer */
    uint64_t work_limit;     /* bytes all layers together may produce for one body */
};
struct http_decoder;
/* codings in the order the header lists them (applied first to last); n >= 1. */
struct http_decoder *http_decoder_new(const uint8_t *codings, int n,
                                      const struct http_decoder_cfg *cfg);
/* Decode n bytes, appending to out up to max (0 = none). true once the body is full (the
 * limit or the work cap reached): nothing more will be appended. */
bool http_decoder_feed(struct http_decoder *dc, const uint8_t *d, size_t n, struct pbuf *out,
                       uint32_t max);
/* Layers that failed (kept what they produced) or gave up (passed their input through). */
uint32_t http_decoder_errors(const struct http_decoder *dc);
void http_decoder_free(struct http_decoder *dc);

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

/* head.c: one message head (start line + headers + the empty line), parsed into buffers. */
struct http_msg {
    bool present;
    bool done_run;             /* its message-complete event ran */
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
    bool has_te, has_cl;       /* responses: the headers are there (whatever they say) */
    uint64_t length;
    uint8_t codings[16];       /* responses: Content-Encoding, each listed coding in order */
    int ncodings;
    bool ce_single;            /* one known coding named exactly: no layer limit applies */
    int status;                /* responses */
    bool is_head;              /* request method HEAD */
    bool is_connect;           /* request method CONNECT */
    bool malformed;
    bool cl_ambiguous;         /* Content-Length repeated with another or no number */
    bool te_invalid;           /* requests: Transfer-Encoding without "chunked" */
    bool auth_unrecognized;    /* requests: Authorization of a scheme libhtp does not know */
};
/* request: true for a request head. The head is d[0..n); a response head may look at
 * bytes after it up to avail (line ends are decided by what follows them). Returns 0, or
 * -1 when the start line is not HTTP. */
int http_head_parse(struct http_msg *m, bool request, const uint8_t *d, uint32_t n,
                    uint32_t avail, struct http_head_info *info);

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
    struct http_decoder *z;
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
