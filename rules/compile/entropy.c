/* entropy.c — see entropy.h. */
#include "entropy.h"

#include <math.h>

double shannon_entropy(const uint8_t *buf, uint32_t n)
{
    if (n == 0)
        return 0;
    uint32_t count[256] = {0};
    for (uint32_t i = 0; i < n; i++)
        count[buf[i]]++;
    double h = 0;
    for (int b = 0; b < 256; b++)
        if (count[b]) {
            double p = (double)count[b] / n;
            h -= p * log2(p);
        }
    return h;
}

bool entropy_match(const struct opt_entropy *e, const uint8_t *buf, uint32_t len)
{
    if (e->offset > len)
        return false;
    uint32_t n = len - e->offset;
    if (e->bytes && e->bytes < n)
        n = e->bytes;
    double h = shannon_entropy(buf + e->offset, n);
    switch (e->op) {
    case CMP_GT: return h > e->lo;
    case CMP_GE: return h >= e->lo;
    case CMP_LT: return h < e->lo;
    case CMP_LE: return h <= e->lo;
    case CMP_NE: return h != e->lo;
    case CMP_RANGE: return (h > e->lo && h < e->hi) != e->negated;
    default: return h == e->lo;
    }
}
