/* inflate.c — gzip and deflate response bodies with zlib. The output is bounded by the
 * caller's limit (a zip bomb stops there); "deflate" is tried as zlib first, then as raw
 * deflate, as servers send both. */
#include <stdlib.h>
#include <zlib.h>

#include "http_int.h"

struct http_inflate {
    z_stream zs;
    bool gzip, started, raw_retry, ended;
};

struct http_inflate *http_inflate_new(bool gzip)
{
    struct http_inflate *z = calloc(1, sizeof *z);
    if (!z)
        return NULL;
    z->gzip = gzip;
    /* 15 + 32: zlib or gzip header, detected; deflate starts as zlib */
    if (inflateInit2(&z->zs, gzip ? 15 + 32 : 15) != Z_OK) {
        free(z);
        return NULL;
    }
    return z;
}

int http_inflate_feed(struct http_inflate *z, const uint8_t *d, size_t n, struct pbuf *out,
                      uint32_t max, bool *full)
{
    *full = false;
    if (z->ended)
        return 0;
    uint8_t buf[8192];
    z->zs.next_in = (Bytef *)d;
    z->zs.avail_in = (uInt)n;
    while (z->zs.avail_in) {
        z->zs.next_out = buf;
        z->zs.avail_out = sizeof buf;
        int rc = inflate(&z->zs, Z_NO_FLUSH);
        if (rc == Z_DATA_ERROR && !z->gzip && !z->started && !z->raw_retry) {
            /* "deflate" without the zlib header: start again as raw deflate */
            z->raw_retry = true;
            inflateEnd(&z->zs);
            if (inflateInit2(&z->zs, -15) != Z_OK)
                return -1;
            z->zs.next_in = (Bytef *)d;
            z->zs.avail_in = (uInt)n;
            continue;
        }
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
            return -1;
        size_t got = sizeof buf - z->zs.avail_out;
        if (got)
            z->started = true;
        if (got && pbuf_add(out, buf, got, max) < got) {
            *full = true;
            return 0;
        }
        if (rc == Z_STREAM_END) {
            z->ended = true;
            return 0;
        }
        if (rc == Z_BUF_ERROR && !got)
            break;
    }
    return 0;
}

void http_inflate_free(struct http_inflate *z)
{
    if (!z)
        return;
    inflateEnd(&z->zs);
    free(z);
}
