/* ber.c — the bounded BER TLV reader (ber.h): identifier octets (low tag numbers and the
 * high-tag-number form), definite lengths in short or long form of up to 4 octets. Every
 * read is checked against the bytes given; nothing is copied. */
#include "ber.h"

enum ber_status ber_read(const uint8_t *p, size_t n, struct ber_tlv *t)
{
    t->hdr = t->len = 0;
    t->v = NULL;
    if (n < 1)
        return BER_MORE;
    size_t i = 0;
    uint8_t b = p[i++];
    t->cls = b >> 6;
    t->constructed = (b & 0x20) != 0;
    t->tag = b & 0x1f;
    if (t->tag == 0x1f) { /* high tag number: base-128 octets, top bit = more */
        uint32_t tag = 0;
        for (;;) {
            if (i >= n)
                return BER_MORE;
            b = p[i++];
            if (tag > (BER_TAG_MAX >> 7))
                return BER_BAD;
            tag = tag << 7 | (b & 0x7f);
            if (!(b & 0x80))
                break;
        }
        t->tag = tag;
    }
    if (i >= n)
        return BER_MORE;
    b = p[i++];
    uint32_t len = b;
    if (b & 0x80) {
        unsigned k = b & 0x7f;
        if (k == 0 || k > 4) /* indefinite (0x80), or longer than we accept */
            return BER_BAD;
        len = 0;
        for (unsigned j = 0; j < k; j++) {
            if (i >= n)
                return BER_MORE;
            len = len << 8 | p[i++];
        }
    }
    t->hdr = (uint32_t)i;
    t->len = len;
    if (len > n - i)
        return BER_MORE;
    t->v = p + i;
    return BER_OK;
}

bool ber_next(struct ber_cur *c, struct ber_tlv *t)
{
    if (!c->n || ber_read(c->p, c->n, t) != BER_OK) {
        c->n = 0;
        return false;
    }
    size_t k = (size_t)t->hdr + t->len;
    c->p += k;
    c->n -= k;
    return true;
}

bool ber_expect(struct ber_cur *c, uint8_t cls, uint32_t tag, struct ber_tlv *t)
{
    struct ber_cur save = *c;
    if (ber_next(c, t) && ber_is(t, cls, tag))
        return true;
    *c = save;
    return false;
}

bool ber_int(const struct ber_tlv *t, int64_t *v)
{
    if (t->len < 1 || t->len > 8)
        return false;
    uint64_t x = (t->v[0] & 0x80) ? ~0ull : 0; /* sign-extended */
    for (uint32_t i = 0; i < t->len; i++)
        x = x << 8 | t->v[i];
    *v = (int64_t)x;
    return true;
}

bool ber_explicit(const struct ber_tlv *t, struct ber_tlv *in)
{
    if (!t->constructed)
        return false;
    struct ber_cur c = ber_in(t);
    return ber_next(&c, in);
}
