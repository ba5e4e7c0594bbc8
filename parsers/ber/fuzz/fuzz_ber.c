/* fuzz_ber.c — libFuzzer target: the BER TLV reader alone on any bytes, every value walked
 * recursively (constructed ones through cursors, to BER_DEPTH_MAX), integers and explicit
 * tags read, every prefix of the input read too (a cut value must be MORE, never a read past
 * the end: ASan checks the bounds). Run it with parsers/ber/fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>

#include "ber.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void walk(const uint8_t *p, size_t n, int depth)
{
    struct ber_cur c = {p, n};
    struct ber_tlv t, in;
    while (ber_next(&c, &t)) {
        int64_t v;
        if (ber_int(&t, &v))
            sink += (uint64_t)v;
        if (ber_explicit(&t, &in))
            sink += in.len;
        if (t.constructed && depth < BER_DEPTH_MAX)
            walk(t.v, t.len, depth + 1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    walk(data, size, 0);
    struct ber_tlv t;
    for (size_t n = 0; n <= size && n < 64; n++)
        if (ber_read(data, n, &t) == BER_OK)
            sink += t.hdr + t.len;
    return 0;
}
