/* test_content_search.c — content_search against the obvious byte-by-byte search: random
 * buffers over a small alphabet (many near misses, letters in both cases, bytes that fold to
 * letters only when they are letters), patterns taken from the buffer or made up, every
 * length around the 16-byte steps, matches at the very start and end. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opt_eval.h"
#include "unit.h"

static int fold(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int64_t naive(const uint8_t *h, size_t n, const uint8_t *p, size_t m, bool nocase)
{
    if (m == 0)
        return 0;
    for (size_t i = 0; i + m <= n; i++) {
        size_t k = 0;
        while (k < m && (nocase ? fold(h[i + k]) == fold(p[k]) : h[i + k] == p[k]))
            k++;
        if (k == m)
            return (int64_t)i;
    }
    return -1;
}

static uint32_t rnd = 12345;
static uint32_t next(void)
{
    rnd = rnd * 1103515245u + 12345u;
    return rnd >> 8;
}

/* a, A, b, B, '@' (0x40: | 0x20 is '`', not a letter), '`', 0xc1, NUL */
static const uint8_t ALPHA[] = {'a', 'A', 'b', 'B', '@', '`', 0xc1, 0};

static void test_random_agrees(void)
{
    uint8_t h[200], p[40];
    int disagree = 0, found = 0;
    for (int round = 0; round < 20000; round++) {
        size_t n = next() % sizeof h, m = 1 + next() % 24;
        for (size_t i = 0; i < n; i++)
            h[i] = ALPHA[next() % sizeof ALPHA];
        if (n >= m && next() % 2) { /* often a pattern that is there, maybe in the other case */
            size_t at = next() % (n - m + 1);
            for (size_t k = 0; k < m; k++)
                p[k] = next() % 2 && h[at + k] >= 'a' && h[at + k] <= 'z' ? h[at + k] - 32
                                                                          : h[at + k];
        } else {
            for (size_t k = 0; k < m; k++)
                p[k] = ALPHA[next() % sizeof ALPHA];
        }
        for (int nc = 0; nc < 2; nc++) {
            int64_t want = naive(h, n, p, m, nc), got = content_search(h, n, p, m, nc);
            disagree += want != got;
            found += want >= 0;
        }
    }
    CHECK_EQ_U(disagree, 0);
    CHECK(found > 1000); /* the rounds did test matches, not only misses */
}

static void test_edges(void)
{
    const uint8_t *h = (const uint8_t *)"GET /index.html HTTP/1.1\r\nHost: example\r\n\r\n";
    size_t n = strlen((const char *)h);
    CHECK(content_search(h, n, (const uint8_t *)"GET", 3, false) == 0);
    CHECK(content_search(h, n, (const uint8_t *)"\r\n\r\n", 4, false) == (int64_t)n - 4);
    CHECK(content_search(h, n, (const uint8_t *)"host:", 5, false) == -1);
    CHECK(content_search(h, n, (const uint8_t *)"host:", 5, true) == 26);
    CHECK(content_search(h, n, (const uint8_t *)"EXAMPLE", 7, true) == 32);
    CHECK(content_search(h, 3, (const uint8_t *)"GET ", 4, false) == -1); /* longer than hay */
    CHECK(content_search(h, n, (const uint8_t *)"", 0, false) == 0);
    /* '@' is not 'A' folded: no caseless match of a non-letter against a letter */
    CHECK(content_search((const uint8_t *)"x@y", 3, (const uint8_t *)"`", 1, true) == -1);
    /* a match straddling the last full 16-byte step and the byte-wise tail */
    uint8_t big[64];
    memset(big, 'z', sizeof big);
    memcpy(big + 45, "needle", 6);
    for (size_t len = 51; len <= sizeof big; len++)
        CHECK(content_search(big, len, (const uint8_t *)"NEEDLE", 6, true) == 45);
    CHECK(content_search(big, 50, (const uint8_t *)"needle", 6, false) == -1);
}

int main(void)
{
    test_random_agrees();
    test_edges();
    return unit_report("test_content_search");
}
