/* content_search.c — where a content's bytes first occur in a buffer, case-sensitive or not.
 *
 * Rules re-search their contents in every buffer a fast pattern raises them for, and a
 * stream rule in its whole window (up to DET_WINDOW bytes before the new ones) each time:
 * on ET Open that is several times the capture's bytes. glibc's memmem has no caseless
 * form, and a memchr per candidate first byte stalls on common ones (' ', '/', 'e'). Here,
 * as in the well-known "first and last byte" SIMD filter, many positions are tested at once
 * for the pattern's first and last bytes (letters folded when caseless); only the positions
 * where both agree are compared in full. SSE2 (every x86-64) tests 16 positions per step;
 * elsewhere the same test runs a byte at a time. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "opt_eval.h"

static int fold(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static bool letter(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool equal_at(const uint8_t *a, const uint8_t *p, size_t m, bool nocase)
{
    if (!nocase)
        return memcmp(a, p, m) == 0;
    for (size_t i = 0; i < m; i++)
        if (fold(a[i]) != fold(p[i]))
            return false;
    return true;
}

/* One position of the pattern as a byte test: (b | mask) == want (mask 0x20 folds a letter). */
static void probe(uint8_t c, bool nocase, uint8_t *mask, uint8_t *want)
{
    bool f = nocase && letter(c);
    *mask = f ? 0x20 : 0;
    *want = f ? (uint8_t)fold(c) : c;
}

int64_t content_search(const uint8_t *hay, size_t n, const uint8_t *pat, size_t m, bool nocase)
{
    if (m == 0 || m > n)
        return m == 0 ? 0 : -1;
    uint8_t fm, fw, lm, lw;
    probe(pat[0], nocase, &fm, &fw);
    probe(pat[m - 1], nocase, &lm, &lw);
    size_t last = n - m; /* the last possible start */
    size_t i = 0;
#ifdef __SSE2__
    const __m128i vfm = _mm_set1_epi8((char)fm), vfw = _mm_set1_epi8((char)fw);
    const __m128i vlm = _mm_set1_epi8((char)lm), vlw = _mm_set1_epi8((char)lw);
    for (; i + 16 <= last + 1; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(hay + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(hay + i + m - 1));
        unsigned bits = (unsigned)_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(_mm_or_si128(a, vfm), vfw),
                          _mm_cmpeq_epi8(_mm_or_si128(b, vlm), vlw)));
        while (bits) {
            unsigned k = (unsigned)__builtin_ctz(bits);
            if (equal_at(hay + i + k, pat, m, nocase))
                return (int64_t)(i + k);
            bits &= bits - 1;
        }
    }
#endif
    for (; i <= last; i++)
        if ((uint8_t)(hay[i] | fm) == fw && (uint8_t)(hay[i + m - 1] | lm) == lw &&
            equal_at(hay + i, pat, m, nocase))
            return (int64_t)i;
    return -1;
}
