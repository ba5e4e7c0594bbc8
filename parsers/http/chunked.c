/* chunked.c — Transfer-Encoding: chunked (RFC 9112 §7.1), fed any number of bytes at a
 * time: "<hex size>[;ext]\r\n<data>\r\n" … "0\r\n" [trailer lines] "\r\n". Lines are not
 * kept, only counted, so a chunk split anywhere (one byte per segment) costs nothing extra. */
#include "http_int.h"

enum { CS_SIZE, CS_EXT, CS_DATA, CS_DATA_END, CS_TRAILER, CS_DONE };
#define LINE_MAX_BYTES 8192 /* a size or trailer line longer than this is malformed */

size_t http_chunked_feed(struct http_chunked *c, const uint8_t *d, size_t n, http_sink_fn sink,
                         void *arg, bool *done, bool *bad)
{
    size_t i = 0;
    *done = *bad = false;
    while (i < n) {
        uint8_t b = d[i];
        if (c->st != CS_TRAILER && c->st != CS_DONE)
            c->framed++; /* each state but CS_DATA consumes one byte per turn */
        switch (c->st) {
        case CS_SIZE: {
            int h = http_hexval(b);
            i++;
            if (h >= 0) {
                if (c->left >> 59) {
                    *bad = true; /* a size beyond 2^63: nobody sends that honestly */
                    return i;
                }
                c->left = c->left * 16 + (uint64_t)h;
                c->any_digit = true;
            } else if (b == '\n') {
                if (!c->any_digit) {
                    *bad = true;
                    return i;
                }
                c->any_digit = false;
                c->line = 0;
                c->st = c->left ? CS_DATA : CS_TRAILER;
            } else if (b == ';' || b == ' ' || b == '\t' || b == '\r') {
                c->st = CS_EXT;
            } else {
                *bad = true;
                return i;
            }
            break;
        }
        case CS_EXT: /* chunk extensions and the CR: skipped to the LF */
            i++;
            if (b == '\n') {
                if (!c->any_digit) {
                    *bad = true;
                    return i;
                }
                c->any_digit = false;
                c->line = 0;
                c->st = c->left ? CS_DATA : CS_TRAILER;
            } else if (++c->line > LINE_MAX_BYTES) {
                *bad = true;
                return i;
            }
            break;
        case CS_DATA: {
            size_t k = n - i < c->left ? n - i : (size_t)c->left;
            sink(arg, d + i, k);
            c->framed += k - 1; /* (the turn counted one) */
            i += k;
            c->left -= k;
            if (!c->left)
                c->st = CS_DATA_END;
            break;
        }
        case CS_DATA_END: /* the CRLF after the data (a bare LF is tolerated) */
            i++;
            if (b == '\n')
                c->st = CS_SIZE;
            else if (b != '\r') {
                *bad = true;
                return i;
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
        default:
            *done = true;
            return i;
        }
    }
    return i;
}
