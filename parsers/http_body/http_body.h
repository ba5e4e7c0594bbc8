/* http_body.h — what HTTP/1 (parsers/http) and HTTP/2 (parsers/http2) share about a message
 * body: its content codings undone (gzip, deflate, zlib, lzma, stacked, as browsers and libhtp
 * decode them, bounded) and the body settings both read (the limits of what is inspected and
 * kept, whether to decompress). The whole interface of parsers/http_body. */
#ifndef OSPREY_HTTP_BODY_H
#define OSPREY_HTTP_BODY_H

#include "parsers_int.h"

/* The body settings HTTP/1 and HTTP/2 share (app-layer.protocols.http.*: HTTP's descriptor
 * reads the keys; HTTP's settings struct begins with this one, so HTTP/2 reads it from HTTP's
 * registry slot). */
struct http_body_cfg {
    /* Suricata's request-/response-body-limit: the body bytes (after decoding) rules inspect;
     * 0 = unlimited (100 KiB each, Suricata's defaults) */
    uint32_t request_body_limit;
    uint32_t response_body_limit;
    uint32_t body_file_limit;       /* the body bytes kept for its file (hashes, magic,
                                       file-store, multipart parts) when more than the
                                       inspection limit; past it the file is TRUNCATED
                                       (1 MiB: Suricata's stream.reassembly.depth) */
    bool decompress;                /* undo Content-Encoding (true) */
};

/* The body bytes rules inspect, and the bytes kept (the larger of that and the file limit;
 * 0 = unlimited), for a request (dir 0) or a response. */
static inline uint32_t http_body_inspect_limit(const struct http_body_cfg *c, int dir)
{
    return dir == 0 ? c->request_body_limit : c->response_body_limit;
}
static inline uint32_t http_body_keep_limit(const struct http_body_cfg *c, int dir)
{
    uint32_t in = http_body_inspect_limit(c, dir);
    if (!in || !c->body_file_limit)
        return 0;
    return in > c->body_file_limit ? in : c->body_file_limit;
}

/* decoder.c: Content-Encoding layers (gzip, deflate, zlib, lzma) as browsers decode them,
 * output bounded by the caller's limit and a work cap. */
#define HTTP_BODY_MAX_LAYERS 8
enum http_coding { HC_NONE, HC_GZIP, HC_DEFLATE, HC_ZLIB, HC_LZMA };
struct http_body_decoder_cfg {
    bool lzma_enabled;
    uint64_t lzma_memlimit;  /* bytes liblzma may allocate per layer */
    uint64_t work_limit;     /* bytes all layers together may produce for one body */
};
struct http_body_decoder;
/* codings in the order the header lists them (applied first to last); n >= 1. */
struct http_body_decoder *http_body_decoder_new(const uint8_t *codings, int n,
                                                const struct http_body_decoder_cfg *cfg);
/* Decode n bytes, appending to out up to max (0 = none). true once the body is full (the
 * limit or the work cap reached): nothing more will be appended. */
bool http_body_decoder_feed(struct http_body_decoder *dc, const uint8_t *d, size_t n,
                            struct pbuf *out, uint32_t max);
/* Layers that failed (kept what they produced) or gave up (passed their input through). */
uint32_t http_body_decoder_errors(const struct http_body_decoder *dc);
void http_body_decoder_free(struct http_body_decoder *dc);

#endif
