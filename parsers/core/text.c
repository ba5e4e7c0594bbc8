/* text.c — text helpers the protocols share: lines of a buffer, decimal numbers, hex and
 * UUID text. Each is bounded by its arguments (no copy past the caller's room). */
#include <stdio.h>
#include <string.h>

#include "parsers_int.h"

bool pline_next(const uint8_t *d, size_t n, size_t at, size_t *end, size_t *next)
{
    const uint8_t *lf = at < n ? memchr(d + at, '\n', n - at) : NULL;
    size_t e = lf ? (size_t)(lf - d) : n;
    *next = lf ? e + 1 : n;
    *end = e > at && d[e - 1] == '\r' ? e - 1 : e;
    return lf != NULL;
}

size_t pdec_u32(const uint8_t *d, size_t n, uint32_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    for (; i < n && d[i] >= '0' && d[i] <= '9'; i++) {
        v = v * 10 + (uint64_t)(d[i] - '0');
        if (v > UINT32_MAX)
            v = (uint64_t)UINT32_MAX + 1; /* saturated: stays above the limit */
    }
    *out = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
    return i;
}

void phex(char *out, const uint8_t *d, size_t n)
{
    static const char X[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = X[d[i] >> 4];
        out[2 * i + 1] = X[d[i] & 15];
    }
    out[2 * n] = '\0';
}

void puuid_text(char out[37], const uint8_t u[16])
{
    /* 8-4-4-4-12 hex digits, the 16 bytes in order */
    static const uint8_t GROUP[] = {4, 2, 2, 2, 6};
    size_t at = 0, k = 0;
    for (size_t g = 0; g < sizeof GROUP; g++) {
        if (g)
            out[at++] = '-';
        phex(out + at, u + k, GROUP[g]);
        at += 2u * GROUP[g];
        k += GROUP[g];
    }
}
