/* bencode.c — a bounded bencode reader (BEP 3): integers `i<digits>e`, strings
 * `<len>:<bytes>`, lists `l…e`, dictionaries `d…e`, read in place over one datagram. Nothing
 * is copied; a string's length is checked against the bytes left, an integer must fit int64, nesting past BENC_MAX_DEPTH is an error (counted by the caller). Written for the
 * DHT parser; no recursion (benc_skip walks with a depth counter). */
#include "bt_int.h"

void benc_init(struct benc *b, const uint8_t *p, size_t n)
{
    b->p = p, b->n = n, b->off = 0, b->depth = 0, b->too_deep = false;
}

/* digits up to `end` while they fit int64; false when none or too many */
static bool digits(struct benc *b, uint8_t end, bool sign, int64_t *out)
{
    bool neg = false;
    if (sign && b->off < b->n && b->p[b->off] == '-')
        neg = true, b->off++;
    size_t start = b->off;
    int64_t v = 0;
    while (b->off < b->n && b->p[b->off] >= '0' && b->p[b->off] <= '9') {
        int d = b->p[b->off] - '0';
        if (v > (INT64_MAX - d) / 10) /* 19 digits can exceed int64 */
            return false;
        v = v * 10 + d;
        b->off++;
    }
    if (b->off == start || b->off >= b->n || b->p[b->off] != end)
        return false;
    /* a leading zero (other than 0 itself) and -0 are invalid bencode */
    if ((b->off - start > 1 && b->p[start] == '0') || (neg && v == 0))
        return false;
    b->off++;
    *out = neg ? -v : v;
    return true;
}

enum benc_type benc_next(struct benc *b, struct benc_val *v)
{
    v->t = BENC_ERR;
    if (b->off >= b->n)
        return BENC_ERR;
    uint8_t c = b->p[b->off];
    if (c == 'i') {
        b->off++;
        if (!digits(b, 'e', true, &v->i))
            return BENC_ERR;
        return v->t = BENC_INT;
    }
    if (c >= '0' && c <= '9') {
        int64_t len;
        if (!digits(b, ':', false, &len) || (uint64_t)len > b->n - b->off)
            return BENC_ERR;
        v->s = b->p + b->off, v->len = (size_t)len;
        b->off += (size_t)len;
        return v->t = BENC_STR;
    }
    if (c == 'l' || c == 'd') {
        if (b->depth >= BENC_MAX_DEPTH) {
            b->too_deep = true;
            return BENC_ERR;
        }
        b->depth++, b->off++;
        return v->t = c == 'l' ? BENC_LIST : BENC_DICT;
    }
    if (c == 'e' && b->depth > 0) {
        b->depth--, b->off++;
        return v->t = BENC_END;
    }
    return BENC_ERR;
}

bool benc_skip(struct benc *b)
{
    unsigned until = b->depth - 1; /* the depth outside the container just opened */
    struct benc_val v;
    while (b->depth > until)
        if (benc_next(b, &v) == BENC_ERR)
            return false;
    return true;
}
