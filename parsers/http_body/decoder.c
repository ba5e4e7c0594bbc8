/* decoder.c — Content-Encoding layers of a response body, decoded as browsers (and
 * libhtp) do rather than as a strict decoder would:
 *  - gzip: the member header is read here (FEXTRA, FNAME, FCOMMENT, FHCRC skipped, reserved
 *    flag bits ignored), the data is raw deflate, and the trailer (CRC-32, ISIZE) is never
 *    checked: a bad trailer still gives the inflated data. Bytes after the end are ignored.
 *  - deflate: raw deflate first; zlib-wrapped data fails that at once and is retried as zlib.
 *  - a layer that fails before it produced anything is retried as the next coding
 *    (gzip -> deflate -> zlib -> gzip; lzma -> deflate ...), three times at most, then passes
 *    its input through unchanged. A layer that fails after producing output keeps what it
 *    produced and ignores the rest.
 *  - lzma ("LZMA alone" streams, liblzma) only when enabled, with a memory limit.
 * Bounded: the body kept is cut at the caller's limit, and the bytes all layers may produce
 * together are capped (a zip bomb, or a bomb inside a bomb, stops there). */
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "http_body.h"

enum { GZ_HEAD, GZ_XLEN, GZ_EXTRA, GZ_NAME, GZ_COMMENT, GZ_HCRC, GZ_DATA };
#define GZ_FHCRC 0x02
#define GZ_FEXTRA 0x04
#define GZ_FNAME 0x08
#define GZ_FCOMMENT 0x10
#define MAX_RESTARTS 3

struct layer {
    uint8_t coding;     /* enum http_coding, changed by restarts */
    uint8_t restarts;
    bool passthrough, ended, failed, produced;
    uint8_t gz_st, gz_flags;
    uint8_t gz_head[13]; /* gzip's fixed header, or the 13-byte header of an lzma stream */
    uint8_t gz_have;    /* bytes of the fixed header (or of XLEN / HCRC) seen */
    uint32_t gz_xlen;
    bool z_init, lz_init;
    /* the first bytes fed, while nothing came out: a retry as another coding starts from
     * them, so where the body was split into segments does not matter (libhtp retries
     * with the last segment only) */
    uint16_t nhold;
    bool hold_over;
    uint8_t hold[512];
    z_stream zs;
    lzma_stream lz;
};

struct http_body_decoder {
    int n;
    struct layer l[HTTP_BODY_MAX_LAYERS]; /* l[0] gets the bytes as sent */
    struct http_body_decoder_cfg cfg;
    struct pbuf *out;
    uint32_t max;
    bool full;
    uint64_t work; /* bytes produced by all layers so far */
    uint32_t errors; /* layers that failed or gave up decoding */
};

static void layer_close(struct layer *y)
{
    if (y->z_init)
        inflateEnd(&y->zs);
    if (y->lz_init)
        lzma_end(&y->lz);
    y->z_init = y->lz_init = false;
}

/* (Re)start layer y as coding c. false when the coding cannot run (lzma disabled). */
static bool layer_start(struct http_body_decoder *dc, struct layer *y, uint8_t c)
{
    layer_close(y);
    y->coding = c;
    y->gz_st = GZ_HEAD;
    y->gz_have = 0;
    y->gz_xlen = 0;
    y->ended = y->failed = false;
    switch (c) {
    case HC_GZIP:
    case HC_DEFLATE:
        memset(&y->zs, 0, sizeof y->zs);
        y->z_init = inflateInit2(&y->zs, -15) == Z_OK;
        return y->z_init;
    case HC_ZLIB:
        memset(&y->zs, 0, sizeof y->zs);
        y->z_init = inflateInit2(&y->zs, 15) == Z_OK;
        return y->z_init;
    case HC_LZMA:
        if (!dc->cfg.lzma_enabled)
            return false;
        y->lz = (lzma_stream)LZMA_STREAM_INIT;
        /* the dictionary is clamped to the limit (see lzma_header): room for it and the
         * decoder's own state */
        y->lz_init = lzma_alone_decoder(&y->lz, dc->cfg.lzma_memlimit + (1u << 16)) == LZMA_OK;
        return y->lz_init;
    default:
        return false;
    }
}

static void feed(struct http_body_decoder *dc, int i, const uint8_t *d, size_t n);

/* Output of layer i goes to layer i+1, the last one's to the body. */
static void emit(struct http_body_decoder *dc, int i, const uint8_t *d, size_t n)
{
    if (!n)
        return;
    dc->l[i].produced = true;
    dc->work += n;
    if (dc->work > dc->cfg.work_limit) {
        dc->full = true; /* a bomb: stop decoding this body */
        return;
    }
    feed(dc, i + 1, d, n);
}

/* false once nothing more can come out of the layers below i (body full, or every later
 * layer ended): decoding further would only burn time. */
static bool downstream_open(const struct http_body_decoder *dc, int i)
{
    if (dc->full)
        return false;
    for (int k = i + 1; k < dc->n; k++)
        if (!dc->l[k].passthrough && (dc->l[k].ended || dc->l[k].failed))
            return false;
    return true;
}

enum { DEC_OK, DEC_ERR };

static int decode(struct http_body_decoder *dc, int i, const uint8_t *d, size_t n);

/* Skip the gzip member header; the layer moves to GZ_DATA at its end. Returns the bytes
 * used; *err when the magic is wrong. */
static size_t gzip_header(struct layer *y, const uint8_t *d, size_t n, int *err)
{
    size_t i = 0;
    *err = 0;
    while (i < n && y->gz_st != GZ_DATA) {
        switch (y->gz_st) {
        case GZ_HEAD: {
            uint8_t b = d[i++];
            y->gz_head[y->gz_have++] = b;
            if ((y->gz_have == 1 && b != 0x1f) || (y->gz_have == 2 && b != 0x8b) ||
                (y->gz_have == 3 && b != 8)) {
                *err = 1;
                return i;
            }
            if (y->gz_have == 10) {
                y->gz_flags = y->gz_head[3];
                y->gz_have = 0;
                y->gz_st = GZ_XLEN;
            }
            break;
        }
        case GZ_XLEN:
            if (!(y->gz_flags & GZ_FEXTRA)) {
                y->gz_st = GZ_EXTRA;
                break;
            }
            y->gz_xlen |= (uint32_t)d[i++] << (8 * y->gz_have);
            if (++y->gz_have == 2)
                y->gz_st = GZ_EXTRA;
            break;
        case GZ_EXTRA: {
            size_t k = n - i < y->gz_xlen ? n - i : y->gz_xlen;
            i += k;
            y->gz_xlen -= (uint32_t)k;
            if (!y->gz_xlen)
                y->gz_st = GZ_NAME;
            break;
        }
        case GZ_NAME:
        case GZ_COMMENT: { /* zero-terminated strings, when flagged */
            uint8_t flag = y->gz_st == GZ_NAME ? GZ_FNAME : GZ_FCOMMENT;
            if (y->gz_flags & flag) {
                const uint8_t *z = memchr(d + i, 0, n - i);
                if (!z) {
                    i = n;
                    break;
                }
                i = (size_t)(z - d) + 1;
            }
            y->gz_st++;
            y->gz_have = 0;
            break;
        }
        case GZ_HCRC:
            if (!(y->gz_flags & GZ_FHCRC)) {
                y->gz_st = GZ_DATA;
                break;
            }
            i++;
            if (++y->gz_have == 2)
                y->gz_st = GZ_DATA;
            break;
        default:
            break;
        }
    }
    return i;
}

static int decode_lzma(struct http_body_decoder *dc, int i, const uint8_t *d, size_t n)
{
    struct layer *y = &dc->l[i];
    uint8_t buf[8192];
    y->lz.next_in = d;
    y->lz.avail_in = n;
    while (y->lz.avail_in && downstream_open(dc, i)) {
        y->lz.next_out = buf;
        y->lz.avail_out = sizeof buf;
        lzma_ret rc = lzma_code(&y->lz, LZMA_RUN);
        emit(dc, i, buf, sizeof buf - y->lz.avail_out);
        if (rc == LZMA_STREAM_END) {
            y->ended = true;
            return DEC_OK;
        }
        if (rc != LZMA_OK)
            return DEC_ERR;
    }
    return DEC_OK;
}

/* A retried coding's first output counts only if its first bytes decode without an error
 * (libhtp takes erroneous output on the first try only): clear text labelled gzip would
 * otherwise "inflate" into junk as raw deflate. The output of this call is staged (up to
 * PROBE_MAX) and emitted when the call ends well. */
#define PROBE_MAX 65536
static int probe_zlib(struct http_body_decoder *dc, int i, const uint8_t *d, size_t n)
{
    struct layer *y = &dc->l[i];
    uint8_t *stage = malloc(PROBE_MAX);
    if (!stage)
        return DEC_ERR;
    size_t have = 0;
    int rc = Z_OK;
    y->zs.next_in = (Bytef *)d;
    y->zs.avail_in = (uInt)n;
    while (y->zs.avail_in && have < PROBE_MAX) {
        y->zs.next_out = stage + have;
        y->zs.avail_out = (uInt)(PROBE_MAX - have);
        rc = inflate(&y->zs, Z_NO_FLUSH);
        size_t got = PROBE_MAX - have - y->zs.avail_out;
        have += got;
        if (rc == Z_STREAM_END || (rc == Z_BUF_ERROR && !got))
            break;
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            free(stage);
            return DEC_ERR;
        }
    }
    if (rc == Z_STREAM_END)
        y->ended = true;
    emit(dc, i, stage, have);
    free(stage);
    if (y->zs.avail_in && !y->ended && downstream_open(dc, i)) /* past the stage: go on */
        return decode(dc, i, y->zs.next_in, y->zs.avail_in);
    return DEC_OK;
}

/* Decode n bytes with layer i's current coding. */
static int decode(struct http_body_decoder *dc, int i, const uint8_t *d, size_t n)
{
    struct layer *y = &dc->l[i];
    uint8_t buf[8192];
    if (y->coding == HC_GZIP && y->gz_st != GZ_DATA) {
        int err;
        size_t k = gzip_header(y, d, n, &err);
        if (err)
            return DEC_ERR;
        d += k, n -= k;
        if (!n)
            return DEC_OK;
    }
    if (y->coding == HC_LZMA && y->gz_have < 13) {
        /* The header names a dictionary size that liblzma allocates at once (8 MiB is
         * common for a few bytes of data). A decoder that grows its window as it goes
         * (libhtp's) accepts such a stream under a small memory limit as long as the data
         * stays within it; clamping the size to the limit does the same. */
        while (n && y->gz_have < 13)
            y->gz_head[y->gz_have++] = *d++, n--;
        if (y->gz_have < 13)
            return DEC_OK;
        uint32_t dict = (uint32_t)y->gz_head[1] | (uint32_t)y->gz_head[2] << 8 |
                        (uint32_t)y->gz_head[3] << 16 | (uint32_t)y->gz_head[4] << 24;
        uint64_t cap = dc->cfg.lzma_memlimit > 4096 ? dc->cfg.lzma_memlimit : 4096;
        if (dict > cap) {
            for (int k = 0; k < 4; k++)
                y->gz_head[1 + k] = (uint8_t)(cap >> (8 * k));
        }
        int rc = decode_lzma(dc, i, y->gz_head, 13);
        if (rc != DEC_OK || !n)
            return rc;
    }
    if (y->coding == HC_LZMA)
        return decode_lzma(dc, i, d, n);
    if (y->restarts && !y->produced)
        return probe_zlib(dc, i, d, n);
    y->zs.next_in = (Bytef *)d;
    y->zs.avail_in = (uInt)n;
    while (y->zs.avail_in && downstream_open(dc, i)) {
        y->zs.next_out = buf;
        y->zs.avail_out = sizeof buf;
        int rc = inflate(&y->zs, Z_NO_FLUSH);
        size_t got = sizeof buf - y->zs.avail_out;
        emit(dc, i, buf, got);
        if (rc == Z_STREAM_END) {
            y->ended = true; /* what follows (a trailer, a second member) is ignored */
            return DEC_OK;
        }
        if (rc == Z_BUF_ERROR && !got)
            break;
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            return DEC_ERR;
    }
    return DEC_OK;
}

static uint8_t next_coding(uint8_t c)
{
    switch (c) {
    case HC_GZIP: return HC_DEFLATE;
    case HC_DEFLATE: return HC_ZLIB;
    case HC_ZLIB: return HC_GZIP;
    default: return HC_DEFLATE; /* lzma */
    }
}

static void feed(struct http_body_decoder *dc, int i, const uint8_t *d, size_t n)
{
    if (dc->full || !n)
        return;
    if (i == dc->n) {
        if (pbuf_add(dc->out, d, n, dc->max) < n)
            dc->full = true;
        return;
    }
    struct layer *y = &dc->l[i];
    if (y->passthrough) {
        emit(dc, i, d, n);
        return;
    }
    if (y->ended || y->failed)
        return;
    if (!y->produced && !y->hold_over) {
        if (y->nhold + n <= sizeof y->hold) {
            memcpy(y->hold + y->nhold, d, n);
            y->nhold = (uint16_t)(y->nhold + n);
        } else {
            y->hold_over = true;
        }
    }
    while (decode(dc, i, d, n) != DEC_OK) {
        if (y->produced) {
            y->failed = true; /* keep what it gave; the rest of this layer is lost */
            dc->errors++;
            return;
        }
        /* nothing came out yet: try the next coding, from the first byte when it is held */
        bool started = false;
        while (!started && y->restarts < MAX_RESTARTS) {
            y->restarts++;
            started = layer_start(dc, y, next_coding(y->coding));
        }
        if (!y->hold_over)
            d = y->hold, n = y->nhold;
        if (!started) {
            layer_close(y);
            y->passthrough = true; /* not compressed after all: the bytes as sent */
            dc->errors++;
            emit(dc, i, d, n);
            return;
        }
    }
}

struct http_body_decoder *http_body_decoder_new(const uint8_t *codings, int n,
                                      const struct http_body_decoder_cfg *cfg)
{
    if (n <= 0)
        return NULL;
    if (n > HTTP_BODY_MAX_LAYERS)
        n = HTTP_BODY_MAX_LAYERS;
    struct http_body_decoder *dc = calloc(1, sizeof *dc);
    if (!dc)
        return NULL;
    dc->cfg = *cfg;
    dc->n = n;
    /* the header lists codings in the order they were applied: the last one is undone
     * first, so it is layer 0 */
    for (int k = 0; k < n; k++) {
        struct layer *y = &dc->l[k];
        if (!layer_start(dc, y, codings[n - 1 - k])) {
            /* lzma while disabled: passed through, as libhtp does */
            layer_close(y);
            y->passthrough = true;
        }
    }
    return dc;
}

bool http_body_decoder_feed(struct http_body_decoder *dc, const uint8_t *d, size_t n, struct pbuf *out,
                       uint32_t max)
{
    dc->out = out;
    dc->max = max;
    feed(dc, 0, d, n);
    return dc->full;
}

uint32_t http_body_decoder_errors(const struct http_body_decoder *dc)
{
    return dc->errors;
}

void http_body_decoder_free(struct http_body_decoder *dc)
{
    if (!dc)
        return;
    for (int k = 0; k < dc->n; k++)
        layer_close(&dc->l[k]);
    free(dc);
}
