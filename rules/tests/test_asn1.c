/* test_asn1.c — compile/asn1.c, the asn1 keyword's BER walker, on hand-made encodings:
 * each check on the node it looks at, definite and indefinite lengths, nesting, malformed
 * and truncated objects, the 30-frame and 30-level limits, and the three offset forms. */
#include <string.h>

#include "asn1.h"
#include "unit.h"

static struct opt_asn1 oversize(uint32_t n)
{
    return (struct opt_asn1){.has_oversize = true, .oversize_length = n};
}

static const struct opt_asn1 BITS = {.bitstring_overflow = true};
static const struct opt_asn1 REAL = {.double_overflow = true};

#define WALK(a, bytes) asn1_walk(&(a), (const uint8_t *)(bytes), sizeof(bytes) - 1)

static void test_oversize_length(void)
{
    /* OCTET STRING of 5: above 4, not above 5 */
    struct opt_asn1 a4 = oversize(4), a5 = oversize(5);
    CHECK(WALK(a4, "\x04\x05" "abcde"));
    CHECK(!WALK(a5, "\x04\x05" "abcde"));
    /* the long form counts the same: 0x81 0x05 */
    CHECK(WALK(a4, "\x04\x81\x05" "abcde"));
    /* a SEQUENCE's own length counts too, and its elements are tested */
    CHECK(WALK(a4, "\x30\x07\x04\x05" "abcde"));
    struct opt_asn1 a6 = oversize(6);
    CHECK(!WALK(a6, "\x30\x06\x02\x01\x01\x02\x01\x02"));
    struct opt_asn1 a0 = oversize(0);
    CHECK(WALK(a0, "\x30\x03\x02\x01\x01")); /* a nested INTEGER of 1 byte, SEQUENCE of 3 */
    CHECK(!WALK(a0, "\x05\x00"));            /* NULL: length 0 is never above 0 */
}

static void test_overlong_and_truncated_lengths(void)
{
    struct opt_asn1 a = oversize(2);
    /* a length past the buffer: the object is malformed, nothing is tested */
    CHECK(!WALK(a, "\x04\x10" "abc"));
    CHECK(!WALK(a, "\x04\x84\x7f\xff\xff\xff" "abc"));
    /* more length octets than 8, the reserved 0xff, a header cut short */
    CHECK(!WALK(a, "\x04\x89\x00\x00\x00\x00\x00\x00\x00\x00\x03" "abc"));
    CHECK(!WALK(a, "\x04\xff" "abc"));
    CHECK(!WALK(a, "\x04"));
    CHECK(!WALK(a, "\x04\x82\x00"));
    /* an element longer than its SEQUENCE */
    CHECK(!WALK(a, "\x30\x03\x04\x05" "abcde"));
    /* a malformed object after a tripping one: the first still counts */
    CHECK(WALK(a, "\x04\x03" "abc" "\x04\x10" "x"));
    /* a malformed one first: decoding stops before the tripping one */
    CHECK(!WALK(a, "\x04\x10" "x" "\x04\x03" "abc"));
}

static void test_indefinite_lengths(void)
{
    struct opt_asn1 a = oversize(3);
    /* an indefinite SEQUENCE: its elements are tested, its own length is not */
    CHECK(WALK(a, "\x30\x80\x04\x04" "abcd" "\x00\x00"));
    CHECK(!WALK(a, "\x30\x80\x04\x02" "ab" "\x04\x02" "cd" "\x00\x00"));
    /* no end-of-contents: malformed */
    CHECK(!WALK(a, "\x30\x80\x04\x04" "abcd"));
    /* a primitive cannot have an indefinite length */
    CHECK(!WALK(a, "\x04\x80" "abcd" "\x00\x00"));
    /* an opaque (context-specific) indefinite node: its contents' length up to the EOC */
    CHECK(WALK(a, "\xa0\x80\x04\x02" "ab" "\x00\x00"));  /* 4 bytes of contents > 3 */
    struct opt_asn1 a4 = oversize(4);
    CHECK(!WALK(a4, "\xa0\x80\x04\x02" "ab" "\x00\x00"));
    /* an object after an indefinite one is decoded too */
    CHECK(WALK(a4, "\x30\x80\x00\x00" "\x04\x05" "abcde"));
}

static void test_nested_and_opaque(void)
{
    /* a BIT STRING inside SEQUENCE inside SET: found */
    CHECK(WALK(BITS, "\x31\x05\x30\x03\x03\x01\xff"));
    /* inside an application or context tag: not descended (der-parser leaves them raw) */
    CHECK(!WALK(BITS, "\x60\x03\x03\x01\xff"));
    CHECK(!WALK(BITS, "\xa1\x05\x30\x03\x03\x01\xff"));
    /* but the opaque node's own length is tested */
    struct opt_asn1 a = oversize(4);
    CHECK(WALK(a, "\x60\x05\x30\x03\x03\x01\x00"));
    /* a primitive SEQUENCE is malformed */
    CHECK(!WALK(BITS, "\x10\x03\x03\x01\xff"));
    /* high tag numbers (several identifier octets) are read */
    CHECK(WALK(a, "\x9f\x81\x00\x05" "abcde"));
    CHECK(!WALK(a, "\x9f\x81\x81\x81\x81\x00\x05" "abcde")); /* more than 28 bits */
}

static void test_bitstring_overflow(void)
{
    /* 1 byte of bits but 255 unused: overflow; 7 or 8 unused: not */
    CHECK(WALK(BITS, "\x03\x01\xff"));
    CHECK(!WALK(BITS, "\x03\x01\x07"));
    CHECK(!WALK(BITS, "\x03\x01\x08"));
    CHECK(WALK(BITS, "\x03\x01\x09"));
    /* length 2 allows up to 16 */
    CHECK(!WALK(BITS, "\x03\x02\x10\x00"));
    CHECK(WALK(BITS, "\x03\x02\x11\x00"));
    /* only the universal primitive BIT STRING: a context tag 3 or a constructed one is not */
    CHECK(!WALK(BITS, "\x83\x01\xff"));
    CHECK(!WALK(BITS, "\x23\x03\x03\x01\x00"));
    /* an empty BIT STRING has no unused-bits octet */
    CHECK(!WALK(BITS, "\x03\x00"));
    /* without the check asked for, nothing */
    struct opt_asn1 none = {0};
    CHECK(!WALK(none, "\x03\x01\xff"));
}

static void test_double_overflow(void)
{
    uint8_t b[300];
    /* a REAL of 257 bytes in the decimal encoding (first octet 0x05: top bits 00) */
    b[0] = 0x09, b[1] = 0x82, b[2] = 0x01, b[3] = 0x01;
    memset(b + 4, 0x05, 257);
    CHECK(asn1_walk(&REAL, b, 261));
    /* 256 bytes: no */
    b[3] = 0x00;
    CHECK(!asn1_walk(&REAL, b, 260));
    /* 257 bytes in the binary encoding (first octet 0x80) or a special value (0x40): no */
    b[3] = 0x01;
    b[4] = 0x80;
    CHECK(!asn1_walk(&REAL, b, 261));
    b[4] = 0x40;
    CHECK(!asn1_walk(&REAL, b, 261));
    /* an OCTET STRING of the same bytes: no */
    b[0] = 0x04;
    b[4] = 0x05;
    CHECK(!asn1_walk(&REAL, b, 261));
}

static void test_frame_limit(void)
{
    /* 30 top-level objects, the last tripping: a match; a 31st: nothing at all */
    uint8_t b[200];
    struct opt_asn1 a = oversize(1);
    uint32_t n = 0;
    for (int i = 0; i < 29; i++)
        b[n++] = 0x05, b[n++] = 0x00; /* NULL */
    b[n++] = 0x04, b[n++] = 0x02, b[n++] = 'a', b[n++] = 'b';
    CHECK(asn1_walk(&a, b, n));
    b[n++] = 0x05, b[n++] = 0x00;
    CHECK(!asn1_walk(&a, b, n));
    /* even a malformed 31st: the limit is met before it is read */
    b[n - 1] = 0x05;
    CHECK(!asn1_walk(&a, b, n));
    /* a tripping first object and a malformed 30th: decoding stops there, the first counts */
    b[0] = 0x04, b[1] = 0x02, b[2] = 'a', b[3] = 'b'; /* over the first two NULLs */
    b[58] = 0x04, b[59] = 0x7f;                       /* the 29th: past the end */
    CHECK(asn1_walk(&a, b, 60));
    b[0] = 0x05, b[1] = 0x00, b[2] = 0x05, b[3] = 0x00; /* NULLs again: nothing trips */
    CHECK(!asn1_walk(&a, b, 60));
}

static void test_depth_limit(void)
{
    /* 29 nested SEQUENCEs around a tripping BIT STRING (30 levels): found; one more level
     * is too deep and the object is malformed */
    uint8_t b[200];
    for (int levels = 29; levels <= 30; levels++) {
        uint32_t n = 0;
        for (int i = 0; i < levels; i++) {
            b[n++] = 0x30;
            b[n++] = (uint8_t)(2 * (levels - 1 - i) + 3);
        }
        b[n++] = 0x03, b[n++] = 0x01, b[n++] = 0xff;
        CHECK(asn1_walk(&BITS, b, n) == (levels == 29));
    }
    /* the same with indefinite lengths */
    for (int levels = 29; levels <= 30; levels++) {
        uint32_t n = 0;
        for (int i = 0; i < levels; i++)
            b[n++] = 0x30, b[n++] = 0x80;
        b[n++] = 0x03, b[n++] = 0x01, b[n++] = 0xff;
        for (int i = 0; i < levels; i++)
            b[n++] = 0, b[n++] = 0;
        CHECK(asn1_walk(&BITS, b, n) == (levels == 29));
    }
}

static void test_deep_nesting_is_refused_without_recursion(void)
{
    /* 5000 levels: refused at the 31st, in bounded stack */
    static uint8_t b[10003];
    for (int i = 0; i < 5000; i++)
        b[2 * i] = 0x30, b[2 * i + 1] = 0x80;
    b[10000] = 0x03, b[10001] = 0x01, b[10002] = 0xff;
    CHECK(!asn1_walk(&BITS, b, sizeof b));
}

static void test_offsets(void)
{
    const uint8_t buf[] = "AA\x03\x01\xff";
    uint32_t len = 5;
    struct opt_asn1 a = BITS;
    /* from the start: "AA" is not BER (0x41 0x41: a length past the end) */
    CHECK(!asn1_match(&a, buf, 0, len, 0));
    a.has_absolute = true, a.offset = 2;
    CHECK(asn1_match(&a, buf, 0, len, 0));
    a.offset = 5; /* at the end: nothing to decode */
    CHECK(!asn1_match(&a, buf, 0, len, 0));
    a.has_absolute = false, a.has_relative = true, a.offset = 0;
    CHECK(asn1_match(&a, buf, 0, len, 2));  /* the previous match ended at 2 */
    CHECK(!asn1_match(&a, buf, 0, len, 1));
    a.offset = -2;
    CHECK(asn1_match(&a, buf, 0, len, 4));
    CHECK(!asn1_match(&a, buf, 0, len, 1)); /* before the buffer */
    /* a stream window: buf holds positions 100.. ; offsets are positions */
    a.has_relative = false, a.has_absolute = true, a.offset = 102;
    CHECK(asn1_match(&a, buf, 100, 100 + len, 0));
    a.offset = 2; /* slid out of the window */
    CHECK(!asn1_match(&a, buf, 100, 100 + len, 0));
}

int main(void)
{
    test_oversize_length();
    test_overlong_and_truncated_lengths();
    test_indefinite_lengths();
    test_nested_and_opaque();
    test_bitstring_overflow();
    test_double_overflow();
    test_frame_limit();
    test_depth_limit();
    test_deep_nesting_is_refused_without_recursion();
    test_offsets();
    return unit_report("test_asn1");
}
