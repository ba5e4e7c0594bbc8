/* mpm_runs.c — stream fast patterns that are one byte repeated ("AAAAAAAAAAAAAAAA",
 * |90 90 90 90|, |00 00 00|), found by a scan for runs instead of by Hyperscan.
 *
 * Why: a side's Hyperscan stream reports every end of every pattern (a side remembers the last
 * one, filters.c), and inside a run of that byte such a pattern ends at every position: one
 * report per byte, each costing Hyperscan's confirmation and our callback. On the benchmark one
 * ET pattern of sixteen 'A's was 61 % of all stream reports (164,390 of 269,556) and 3 % of the
 * processing. A run is one event however long it is: its last end is all a side keeps, so the
 * run scanner reports each run once, at its end (and again when a run reaching the end of the
 * fed bytes goes on in the next ones).
 * Packet and application databases report a pattern once per buffer (HS_FLAG_SINGLEMATCH),
 * but Hyperscan still confirms and checks it at every byte of a run (on bench-s a packet
 * pattern of five zero bytes 158,087 times, a file_data one of three 145,769 times): they
 * leave them out too, and the buffers they scan go through the run scanner as well, which
 * reports each pattern once and applies the bounds Hyperscan would (det_mpm_scan_runs). The
 * stream matcher's block databases (its arrival ones, detect.stream-mpm: block) keep them. */
#include <emmintrin.h>
#include <immintrin.h>
#include <stdlib.h>

#include "detect_int.h"

/* Shorter runs than this are not worth it: two equal bytes in a row are everywhere. */
#define RUN_MIN 3

bool det_mpm_one_byte(const struct det_mpm *m, uint32_t id)
{
    const uint8_t *p = m->pat[id];
    for (uint32_t i = 1; i < m->len[id]; i++)
        if (p[i] != p[0])
            return false;
    return true;
}

static bool is_run(const struct det_mpm *m, uint32_t id)
{
    uint8_t c = m->pat[id][0];
    /* a caseless letter run also matches mixed case ("aAaA"): left to Hyperscan */
    return m->len[id] >= RUN_MIN && !(m->nocase[id] && (c | 0x20) >= 'a' && (c | 0x20) <= 'z') &&
           det_mpm_one_byte(m, id);
}

static int cmp_run(const void *a, const void *b, void *arg)
{
    const struct det_mpm *m = arg;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (m->pat[x][0] != m->pat[y][0])
        return m->pat[x][0] < m->pat[y][0] ? -1 : 1;
    return m->len[x] < m->len[y] ? -1 : m->len[x] > m->len[y];
}

int det_mpm_find_runs(struct det_mpm *m)
{
    if (m->n == 0 || (m->kind == DK_STREAM && !m->streaming))
        return 0; /* (the stream matcher's block mode keeps them in its databases) */
    if (!(m->is_run = calloc(m->n, sizeof *m->is_run)) ||
        !(m->runs = malloc(m->n * sizeof *m->runs)))
        return -1;
    for (uint32_t i = 0; i < m->n; i++)
        if ((m->is_run[i] = is_run(m, i)))
            m->runs[m->nruns++] = i;
    qsort_r(m->runs, m->nruns, sizeof *m->runs, cmp_run, m); /* by byte, then length */
    for (uint32_t c = 0, k = 0; c <= 256; c++) {
        while (k < m->nruns && m->pat[m->runs[k]][0] < c)
            k++;
        m->run_at[c] = k;
    }
    for (uint32_t c = 0; c < 256; c++) /* (most bytes have none: their runs are skipped) */
        m->run_min[c] = m->run_at[c] < m->run_at[c + 1] ? m->len[m->runs[m->run_at[c]]]
                                                        : UINT32_MAX;
    if (m->kind == DK_STREAM)
        return 0;
    /* a block database's bounds, as Hyperscan's max_offset would apply them */
    if (m->nruns && !(m->run_bound = calloc(m->nruns, sizeof *m->run_bound)))
        return -1;
    m->run_reach = 0;
    for (uint32_t k = 0; k < m->nruns; k++) {
        m->run_bound[k] = det_mpm_bound_of(m, m->runs[k], false);
        if (!m->run_bound[k])
            m->run_reach = UINT32_MAX;
        else if (m->run_bound[k] > m->run_reach)
            m->run_reach = m->run_bound[k];
    }
    return 0;
}

/* The first i' >= i where p[i'] == p[i'+1] == p[i'+2] (a run of RUN_MIN starts), or n:
 * 16 positions a step (SSE2, every x86-64), the last few one by one. */
static size_t next_run_sse2(const uint8_t *p, size_t i, size_t n)
{
    for (; i + 18 <= n; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + i + 1));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(p + i + 2));
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(a, b), _mm_cmpeq_epi8(b, c)));
        if (mask)
            return i + (size_t)__builtin_ctz(mask);
    }
    for (; i + 2 < n; i++)
        if (p[i] == p[i + 1] && p[i + 1] == p[i + 2])
            return i;
    return n;
}

/* The same, 32 positions a step where the CPU has AVX2 (the scanner was 2 % of the benchmark's
 * instructions with SSE2 alone); the tail goes to the SSE2 one. */
__attribute__((target("avx2"))) static size_t next_run_avx2(const uint8_t *p, size_t i, size_t n)
{
    for (; i + 34 <= n; i += 32) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 1));
        __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 2));
        unsigned mask = (unsigned)_mm256_movemask_epi8(
            _mm256_and_si256(_mm256_cmpeq_epi8(a, b), _mm256_cmpeq_epi8(b, c)));
        if (mask)
            return i + (size_t)__builtin_ctz(mask);
    }
    return next_run_sse2(p, i, n);
}

static bool use_avx2;

__attribute__((constructor)) static void pick_next_run(void)
{
    use_avx2 = __builtin_cpu_supports("avx2");
}

bool det_mpm_runs_avx2(bool on)
{
    pick_next_run();
    use_avx2 = on && use_avx2;
    return use_avx2;
}

static inline size_t next_run(const uint8_t *p, size_t i, size_t n)
{
    return use_avx2 ? next_run_avx2(p, i, n) : next_run_sse2(p, i, n);
}

/* The first i' >= i where p[i'] != c, or n. */
static size_t run_end(const uint8_t *p, size_t i, size_t n, uint8_t c)
{
    __m128i v = _mm_set1_epi8((char)c);
    for (; i + 16 <= n; i += 16) {
        unsigned ne = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
                          _mm_loadu_si128((const __m128i *)(const void *)(p + i)), v)) ^ 0xffffu;
        if (ne)
            return i + (size_t)__builtin_ctz(ne);
    }
    while (i < n && p[i] == c)
        i++;
    return i;
}

/* A run of len bytes c ends at stream offset end: every run pattern of c it holds ends there. */
static void report(const struct det_mpm *m, struct det_side *s, uint8_t c, uint32_t len,
                   uint64_t end)
{
    for (uint32_t k = m->run_at[c]; k < m->run_at[c + 1]; k++) {
        uint32_t id = m->runs[k];
        if (m->len[id] > len)
            break; /* (by length) */
        if (det_mpm_wanted(m, &s->grp, id))
            det_side_remember(s, id, end);
    }
}

void det_mpm_scan_runs(const struct det_mpm *m, const uint8_t *p, size_t n,
                       void (*found)(uint32_t id, void *arg), void *arg)
{
    if (n > m->run_reach)
        n = m->run_reach; /* every run pattern bounded: no run starting later can serve */
    uint64_t done = 0;    /* runs[k] for k < 64 found already (the others are found again) */
    for (size_t i = 0; i < n;) {
        size_t j = next_run(p, i, n);
        if (j == n)
            break;
        uint8_t c = p[j];
        i = run_end(p, j + RUN_MIN, n, c);
        if (i - j < m->run_min[c])
            continue;
        for (uint32_t k = m->run_at[c]; k < m->run_at[c + 1]; k++) {
            uint32_t id = m->runs[k];
            if (m->len[id] > i - j)
                break; /* (by length) */
            if (m->run_bound[k] && j + m->len[id] > m->run_bound[k])
                continue; /* its first end in this run is past its bound */
            if (k < 64 && (done >> k & 1))
                continue;
            if (k < 64)
                done |= 1ull << k;
            found(id, arg);
        }
    }
}

void det_mpm_feed_runs(const struct det_mpm *m, struct det_side *s, const uint8_t *p, size_t n)
{
    if (n == 0)
        return;
    uint64_t at = s->fed; /* stream offset of p[0] */
    size_t i = 0;
    if (s->run_len && p[0] == s->run_byte) {
        /* the run the bytes fed before ended in goes on */
        uint8_t c = s->run_byte;
        i = run_end(p, 0, n, c);
        s->run_len += (uint32_t)i;
        if (s->run_len >= m->run_min[c])
            report(m, s, c, s->run_len, at + i);
    }
    while (i < n) {
        size_t j = next_run(p, i, n);
        if (j == n)
            break;
        uint8_t c = p[j];
        i = run_end(p, j + RUN_MIN, n, c);
        s->run_byte = c;
        s->run_len = (uint32_t)(i - j);
        if (s->run_len >= m->run_min[c])
            report(m, s, c, s->run_len, at + i);
    }
    /* the run the bytes end in, for the next ones (a run reaching the end is s->run_* now) */
    if (!(s->run_len && i == n && p[n - 1] == s->run_byte)) {
        uint8_t c = p[n - 1];
        size_t k = n - 1;
        while (k > 0 && p[k - 1] == c)
            k--;
        s->run_byte = c;
        s->run_len = (uint32_t)(n - k);
    }
    s->fed = at + n;
}
