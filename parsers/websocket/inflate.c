/* inflate.c — permessage-deflate (RFC 7692 §7.2.2): a compressed message is a raw deflate
 * stream without its final empty block's 0x00 0x00 0xff 0xff; the four bytes are put back and
 * the message inflated with zlib, continuing the direction's window (context takeover: one
 * inflater per direction for the flow's life). Output is bounded: at most max bytes kept (the
 * rest inflated into a scratch and dropped, so the window stays right), and the work per
 * message is bounded too (a bomb stops there, cut, and the direction inflates no more). */
#include <stdlib.h>
#include <zlib.h>

#include "websocket_int.h"

#define WS_INFLATE_WORK_MAX (64u << 20) /* bytes one message may inflate to, kept or not */

static z_stream *inflater(struct ws_side *s)
{
    if (s->z)
        return s->z;
    z_stream *z = calloc(1, sizeof *z);
    if (!z)
        return NULL;
    if (inflateInit2(z, -15) != Z_OK) { /* raw deflate, the largest window */
        free(z);
        return NULL;
    }
    return s->z = z;
}

static bool run(z_stream *z, const uint8_t *d, size_t n, struct pbuf *out, uint32_t max,
                bool *cut, uint64_t *work)
{
    uint8_t chunk[4096];
    z->next_in = (Bytef *)d;
    z->avail_in = (uInt)n;
    while (z->avail_in) {
        z->next_out = chunk;
        z->avail_out = sizeof chunk;
        int rc = inflate(z, Z_SYNC_FLUSH);
        size_t got = sizeof chunk - z->avail_out;
        *work += got;
        if (got && pbuf_add(out, chunk, got, max) != got)
            *cut = true;
        if (rc == Z_STREAM_END) {
            inflateReset(z); /* a final block: the next message starts a new stream */
            continue;
        }
        if (rc == Z_BUF_ERROR && !got)
            break; /* nothing more can come of these bytes */
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            return false;
        if (*work > WS_INFLATE_WORK_MAX) {
            *cut = true;
            return true;
        }
    }
    return true;
}

bool ws_inflate(struct ws_side *s, const uint8_t *d, size_t n, struct pbuf *out, uint32_t max,
                bool *cut)
{
    static const uint8_t tail[4] = {0x00, 0x00, 0xff, 0xff};
    z_stream *z = inflater(s);
    uint64_t work = 0;
    *cut = false;
    if (!z || !run(z, d, n, out, max, cut, &work) ||
        (work <= WS_INFLATE_WORK_MAX && !run(z, tail, sizeof tail, out, max, cut, &work))) {
        ws_inflate_free(s);
        s->z_failed = true;
        return false;
    }
    if (work > WS_INFLATE_WORK_MAX) { /* a bomb: what came out stands, the window is lost */
        ws_inflate_free(s);
        s->z_failed = true;
    }
    return true;
}

void ws_inflate_free(struct ws_side *s)
{
    if (!s->z)
        return;
    inflateEnd(s->z);
    free(s->z);
    s->z = NULL;
}
