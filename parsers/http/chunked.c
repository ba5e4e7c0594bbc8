/* chunked.c — Transfer-Encoding: chunked (RFC 9112 §7.1), fed any number of bytes at a
 * time, read as leniently as browsers and libhtp read it:
 *  - a size line is everything up to LF; lines made only of CR, LF, SP, HT, VT, FF are
 *    skipped (blank lines before a size); the size is the hex digits after such leading
 *    bytes and spaces/tabs, whatever follows them (";ext", "x", a lone CR) is ignored;
 *  - after a chunk's data, everything up to the next LF is skipped;
 *  - a size line without any hex digit (or one that overflows) is not chunked at all: from
 *    that line on, the rest of the message is body as sent (identity until the connection
 *    closes), as libhtp falls back; so does a line whose first byte that is not such a
 *    control byte is no hex digit, even before its LF arrived;
 *  - a size above 2^31-1 is ignored and the next line read as a size.
 * Lines are not kept, only scanned, so a chunk split anywhere costs nothing extra. */
#include "http_int.h"

enum { CS_SIZE, CS_DATA, CS_DATA_END, CS_TRAILER, CS_DONE, CS_IDENTITY };
enum { SL_CTL, SL_SPACE, SL_HEX, SL_REST }; /* where in a size line */
#define LINE_MAX_BYTES 8192 /* a size or trailer line longer than this is malformed */

static bool is_ctl(uint8_t b)
{
    return b == '\r' || b == '\n' || b == ' ' || b == '\t' || b == 0x0b || b == 0x0c;
}

static void line_reset(struct http_chunked *c)
{
    c->line = 0;
    c->sl = SL_CTL;
    c->digits = 0;
    c->overflow = false;
    c->left = 0;
}

/* One byte of a size line (not its LF). */
static void size_byte(struct http_chunked *c, uint8_t b)
{
    c->line++;
    switch (c->sl) {
    case SL_CTL:
        if (is_ctl(b))
            return;
        c->sl = SL_SPACE;
        /* fall through */
    case SL_SPACE:
        if (b == ' ' || b == '\t')
            return;
        c->sl = SL_HEX;
        /* fall through */
    case SL_HEX: {
        int h = http_hexval(b);
        if (h < 0) {
            c->sl = SL_REST;
            return;
        }
        if (c->left >> 60)
            c->overflow = true;
        c->left = c->left * 16 + (uint64_t)h;
        c->digits++;
        return;
    }
    default:
        return;
    }
}

size_t http_chunked_feed(struct http_chunked *c, const uint8_t *d, size_t n, http_sink_fn sink,
                         void *arg, bool *done, bool *bad)
{
    size_t i = 0;
    size_t line_start = 0; /* where the size line being read began in d */
    bool line_here = c->st == CS_SIZE && c->line == 0; /* it began in this call */
    *done = *bad = false;
    while (i < n) {
        uint8_t b = d[i];
        switch (c->st) {
        case CS_SIZE:
            i++;
            c->framed++;
            if (b != '\n') {
                size_byte(c, b);
                if (c->line > LINE_MAX_BYTES) {
                    *bad = true;
                    return i;
                }
                break;
            }
            if (c->sl == SL_CTL) { /* a line of control bytes only: skipped */
                line_reset(c);
                line_here = true;
                line_start = i;
                break;
            }
            if (!c->digits || c->overflow) {
                /* not a chunk size: this line and all that follows is the body as sent */
                c->st = CS_IDENTITY;
                c->plain = true;
                sink(arg, d + line_start, i - line_start);
                break;
            }
            if (c->left > 0x7fffffff) { /* ignored, as libhtp does: read the next line */
                line_reset(c);
                line_here = true;
                line_start = i;
                break;
            }
            c->st = c->left ? CS_DATA : CS_TRAILER;
            c->line = 0;
            break;
        case CS_DATA: {
            size_t k = n - i < c->left ? n - i : (size_t)c->left;
            sink(arg, d + i, k);
            c->framed += k;
            i += k;
            c->left -= k;
            if (!c->left)
                c->st = CS_DATA_END;
            break;
        }
        case CS_DATA_END: /* the CRLF after the data, and any junk before the LF */
            i++;
            c->framed++;
            if (b == '\n') {
                c->st = CS_SIZE;
                line_reset(c);
                line_here = true;
                line_start = i;
            }
            break;
        case CS_TRAILER: /* trailer lines until an empty one */
            i++;
            if (b == '\n') {
                if (c->line == 0) {
                    c->st = CS_DONE;
                    *done = true;
                    return i;
                }
                c->line = 0;
            } else if (b != '\r' || c->line) {
                if (++c->line > LINE_MAX_BYTES) {
                    *bad = true;
                    return i;
                }
            }
            break;
        case CS_IDENTITY:
            sink(arg, d + i, n - i);
            c->framed += n - i;
            return n;
        default:
            *done = true;
            return i;
        }
    }
    /* a size line still open: when it began here and its first byte past the control
     * bytes is no hex digit, it will never be a size (libhtp decides as early) */
    if (c->st == CS_SIZE && line_here && c->sl == SL_REST && !c->digits) {
        c->st = CS_IDENTITY;
        c->plain = true;
        sink(arg, d + line_start, n - line_start);
    }
    return n;
}
