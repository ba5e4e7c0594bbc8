/* test_ber.c — the shared BER TLV reader (ber/ber.c): short and long lengths, the high tag
 * number form, values cut anywhere (BER_MORE, never a read past the end), what it refuses
 * (indefinite lengths, lengths over 4 octets, huge tags), integers, cursors and explicit
 * tags. */
#include "ber.h"
#include "ber_build.h"
#include "unit.h"

static void reads(void)
{
    struct ber_tlv t;
    static const uint8_t a[] = {0x02, 0x01, 0x05};
    CHECK(ber_read(a, sizeof a, &t) == BER_OK);
    CHECK(t.cls == BER_UNIVERSAL && !t.constructed && t.tag == 2 && t.len == 1 && t.hdr == 2);
    CHECK(t.v == a + 2);
    int64_t v;
    CHECK(ber_int(&t, &v) && v == 5);
    /* every prefix is MORE; the header alone gives the size */
    for (size_t n = 0; n < sizeof a; n++)
        CHECK(ber_read(a, n, &t) == BER_MORE);
    CHECK(ber_read(a, 2, &t) == BER_MORE && t.hdr == 2 && t.len == 1 && t.v == NULL);

    struct bb big = bb_tlv(0x04, (uint8_t[300]){0}, 300);
    CHECK(ber_read(big.p, big.n, &t) == BER_OK && t.hdr == 4 && t.len == 300);
    CHECK(ber_read(big.p, big.n - 1, &t) == BER_MORE && t.len == 300);

    static const uint8_t hi[] = {0x7f, 0x81, 0x00, 0x00}; /* [APPLICATION 128], empty */
    CHECK(ber_read(hi, sizeof hi, &t) == BER_OK && t.cls == BER_APPLICATION && t.constructed &&
          t.tag == 128 && t.len == 0);
    static const uint8_t huge[] = {0x1f, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x00};
    CHECK(ber_read(huge, sizeof huge, &t) == BER_BAD);
    static const uint8_t indef[] = {0x30, 0x80, 0x00, 0x00};
    CHECK(ber_read(indef, sizeof indef, &t) == BER_BAD);
    static const uint8_t long5[] = {0x04, 0x85, 1, 0, 0, 0, 0};
    CHECK(ber_read(long5, sizeof long5, &t) == BER_BAD);
    /* a 4-octet length past the buffer is MORE, not a read */
    static const uint8_t far[] = {0x04, 0x84, 0x7f, 0xff, 0xff, 0xff, 0x00};
    CHECK(ber_read(far, sizeof far, &t) == BER_MORE && t.len == 0x7fffffffu);
}

static void ints(void)
{
    struct ber_tlv t;
    int64_t v;
    struct bb b = bb_int(0x02, -1);
    CHECK(ber_read(b.p, b.n, &t) == BER_OK && t.len == 1 && ber_int(&t, &v) && v == -1);
    b = bb_int(0x02, 128);
    CHECK(ber_read(b.p, b.n, &t) == BER_OK && t.len == 2 && ber_int(&t, &v) && v == 128);
    b = bb_int(0x02, -129);
    CHECK(ber_read(b.p, b.n, &t) == BER_OK && ber_int(&t, &v) && v == -129);
    b = bb_int(0x02, INT64_MAX);
    CHECK(ber_read(b.p, b.n, &t) == BER_OK && ber_int(&t, &v) && v == INT64_MAX);
    static const uint8_t nine[] = {0x02, 0x09, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    CHECK(ber_read(nine, sizeof nine, &t) == BER_OK && !ber_int(&t, &v));
    static const uint8_t none[] = {0x02, 0x00};
    CHECK(ber_read(none, sizeof none, &t) == BER_OK && !ber_int(&t, &v));
}

static void cursors(void)
{
    /* [1] { SEQUENCE { INTEGER 7, OCTET STRING "ab" } } */
    struct bb seq = BB_SEQ(bb_int(0x02, 7), bb_str(0x04, "ab"));
    struct bb all = bb_wrap(0xa1, seq);
    struct ber_tlv t, in, x;
    CHECK(ber_read(all.p, all.n, &t) == BER_OK && ber_is(&t, BER_CONTEXT, 1) && t.constructed);
    CHECK(ber_explicit(&t, &in) && ber_is(&in, BER_UNIVERSAL, BER_SEQUENCE));
    struct ber_cur c = ber_in(&in);
    CHECK(!ber_expect(&c, BER_UNIVERSAL, BER_OCTET_STRING, &x)); /* left where it was */
    CHECK(ber_expect(&c, BER_UNIVERSAL, BER_INTEGER, &x));
    CHECK(ber_next(&c, &x) && x.len == 2 && !memcmp(x.v, "ab", 2));
    CHECK(!ber_next(&c, &x));
    /* a child running past its parent stops the walk */
    uint8_t bad[] = {0x30, 0x03, 0x04, 0x05, 'a'};
    CHECK(ber_read(bad, sizeof bad, &t) == BER_OK);
    c = ber_in(&t);
    CHECK(!ber_next(&c, &x) && c.n == 0);
    /* a primitive value has no explicit inner one */
    struct bb prim = bb_str(0x80, "x");
    CHECK(ber_read(prim.p, prim.n, &t) == BER_OK && !ber_explicit(&t, &x));
}

int main(void)
{
    reads();
    ints();
    cursors();
    return unit_report("test_ber");
}
