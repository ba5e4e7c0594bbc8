/* siphash.c — SipHash-c-d written from the specification (Aumasson & Bernstein, 2012):
 * SipHash-2-4, and SipHash-1-3 (fewer rounds, for hash tables: the flow table's key). */
#include "siphash_internal.h"

#include <endian.h>
#include <string.h>

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

#define SIPROUND                                                    \
    do {                                                            \
        v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);   \
        v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;                      \
        v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;                      \
        v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);   \
    } while (0)

/* One word, little-endian: a plain load on this byte order (a byte loop is not always turned
 * into one by the compiler, and the flow key is hashed on every packet). */
static uint64_t load_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return le64toh(v);
}

/* c rounds a word, d to finish: constants at each call, so each variant is unrolled */
static inline uint64_t siphash(int c, int d, const uint64_t key[2], const void *data, size_t len)
{
    const uint8_t *in = data;
    uint64_t v0 = 0x736f6d6570736575ULL ^ key[0];
    uint64_t v1 = 0x646f72616e646f6dULL ^ key[1];
    uint64_t v2 = 0x6c7967656e657261ULL ^ key[0];
    uint64_t v3 = 0x7465646279746573ULL ^ key[1];
    size_t full = len & ~(size_t)7;

    for (size_t i = 0; i < full; i += 8) {
        uint64_t m = load_le64(in + i);
        v3 ^= m;
        for (int r = 0; r < c; r++)
            SIPROUND;
        v0 ^= m;
    }
    uint8_t tail[8] = {0};
    memcpy(tail, in + full, len & 7);
    uint64_t b = ((uint64_t)len << 56) | load_le64(tail);
    v3 ^= b;
    for (int r = 0; r < c; r++)
        SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    for (int r = 0; r < d; r++)
        SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t mon_siphash24(const uint64_t key[2], const void *data, size_t len)
{
    return siphash(2, 4, key, data, len);
}

uint64_t mon_siphash13(const uint64_t key[2], const void *data, size_t len)
{
    return siphash(1, 3, key, data, len);
}
