/* test_mpm_runs.c — compile/mpm_runs.c: the stream patterns of one repeated byte, found by the
 * run scanner instead of Hyperscan. Which patterns count as runs, and, over streams cut into
 * chunks at every length (runs across chunk ends, across the scanner's 16-byte steps, at the
 * very start and end), the last end of each run pattern must be what a search of every
 * occurrence finds; in a packet or application buffer, each run pattern found once when an
 * occurrence ends within its bound, as a Hyperscan block database would report it. Both the
 * scanner's AVX2 and SSE2 steps are run. */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"
#include "unit.h"

struct pat {
    const char *bytes;
    uint32_t len;
    bool nocase;
};

static void make(struct det_mpm *m, const struct pat *p, uint32_t n)
{
    memset(m, 0, sizeof *m);
    m->kind = DK_STREAM;
    m->streaming = true;
    m->n = n;
    m->pat = calloc(n, sizeof *m->pat);
    m->len = calloc(n, sizeof *m->len);
    m->nocase = calloc(n, sizeof *m->nocase);
    for (uint32_t i = 0; i < n; i++) {
        m->pat[i] = (const uint8_t *)p[i].bytes;
        m->len[i] = p[i].len;
        m->nocase[i] = p[i].nocase;
    }
}

static void unmake(struct det_mpm *m)
{
    free(m->pat);
    free(m->len);
    free(m->nocase);
    free(m->is_run);
    free(m->runs);
}

static const struct pat PATS[] = {
    {"AAAAAAAAAAAAAAAA", 16, false}, /* 0: run */
    {"AAA", 3, false},               /* 1: run */
    {"\x00\x00\x00\x00", 4, false},  /* 2: run */
    {"aaaa", 4, true},               /* 3: caseless letters: left to Hyperscan */
    {"\x90\x90\x90", 3, true},       /* 4: caseless, not a letter: a run */
    {"AA", 2, false},                /* 5: too short */
    {"AAAB", 4, false},              /* 6: not one byte */
    {"BBBBBBBB", 8, false},          /* 7: run */
};
#define NPATS (sizeof PATS / sizeof *PATS)

static void test_which_patterns_are_runs(void)
{
    struct det_mpm m;
    make(&m, PATS, NPATS);
    CHECK(det_mpm_find_runs(&m) == 0);
    bool want[NPATS] = {true, true, true, false, true, false, false, true};
    for (uint32_t i = 0; i < NPATS; i++)
        CHECK(m.is_run[i] == want[i]);
    CHECK_EQ_U(m.nruns, 5);
    /* by byte, then by length: 00×4, A×3, A×16, B×8, 90×3 */
    CHECK_EQ_U(m.runs[0], 2);
    CHECK_EQ_U(m.runs[1], 1);
    CHECK_EQ_U(m.runs[2], 0);
    CHECK_EQ_U(m.runs[3], 7);
    CHECK_EQ_U(m.runs[4], 4);
    CHECK_EQ_U(m.run_at['A'], 1);
    CHECK_EQ_U(m.run_at['A' + 1], 3);
    CHECK_EQ_U(m.run_at[256], 5);
    unmake(&m);

    /* a matcher that is not the streaming stream one keeps every pattern in Hyperscan */
    make(&m, PATS, NPATS);
    m.streaming = false;
    CHECK(det_mpm_find_runs(&m) == 0 && m.nruns == 0 && !m.is_run);
    unmake(&m);
}

/* The last end (offset after the last byte) of pattern p in s[0..n), 0 when absent. */
static uint64_t last_end(const struct pat *p, const uint8_t *s, size_t n)
{
    for (size_t e = n; e >= p->len; e--)
        if (!memcmp(s + e - p->len, p->bytes, p->len))
            return e;
    return 0;
}

static uint64_t seen_end(const struct det_side *s, uint32_t id)
{
    for (uint32_t i = 0; i < s->nseen; i++)
        if (s->seen[i].id == id)
            return s->seen[i].end;
    return 0;
}

/* Feed data in chunks of chunk bytes; after every chunk each run pattern's remembered end must
 * be its last end in the bytes fed so far. */
static void feed_and_compare(struct det_mpm *m, const uint8_t *data, size_t n, size_t chunk)
{
    struct det_side s;
    memset(&s, 0, sizeof s);
    s.grp.cls = DMG__N; /* ungrouped: every pattern wanted */
    for (size_t at = 0; at < n; at += chunk) {
        size_t k = n - at < chunk ? n - at : chunk;
        det_mpm_feed_runs(m, &s, data + at, k);
        CHECK_EQ_U(s.fed, at + k);
        for (uint32_t r = 0; r < m->nruns; r++) {
            uint32_t id = m->runs[r];
            if (seen_end(&s, id) != last_end(&PATS[id], data, at + k)) {
                CHECK_EQ_U(seen_end(&s, id), last_end(&PATS[id], data, at + k));
                fprintf(stderr, "  pattern %u, chunk %zu, after %zu bytes\n", id, chunk,
                        at + k);
                free(s.seen);
                return;
            }
        }
    }
    free(s.seen);
}

/* Pseudo-random bytes over a small alphabet (A, zero, B, 0x90, letters): many short runs of
 * the run patterns' bytes, some long. */
static void fill_runs(uint8_t *b, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t v = (seed >> 16) % 16;
        b[i] = v < 6 ? 'A' : v < 9 ? 0 : v < 11 ? 'B' : v < 12 ? 0x90 : (uint8_t)('a' + v);
    }
}

static void test_last_ends_over_every_chunking(void)
{
    struct det_mpm m;
    make(&m, PATS, NPATS);
    CHECK(det_mpm_find_runs(&m) == 0);
    /* runs of every length around the patterns', at the start, the end, next to each other */
    static uint8_t data[400];
    size_t n = 0;
    const struct {
        uint8_t c;
        size_t len;
    } parts[] = {{'A', 2},  {'x', 1},  {'A', 3},  {'y', 1},    {'A', 15}, {'B', 8},  {'A', 16},
                 {0, 3},    {'A', 1},  {0, 4},    {'z', 2},    {'A', 40}, {0x90, 3}, {'B', 7},
                 {'q', 1},  {'A', 17}, {0, 33},   {'r', 1},    {'B', 9},  {'A', 3},  {0, 5}};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        memset(data + n, parts[i].c, parts[i].len);
        n += parts[i].len;
    }
    for (size_t chunk = 1; chunk <= n; chunk++)
        feed_and_compare(&m, data, n, chunk);

    static uint8_t rnd[3000];
    fill_runs(rnd, sizeof rnd, 12345);
    for (size_t chunk = 1; chunk <= 70; chunk++)
        feed_and_compare(&m, rnd, sizeof rnd, chunk);
    feed_and_compare(&m, rnd, sizeof rnd, sizeof rnd);
    unmake(&m);
}

/* ---- block kinds: a packet or application buffer ---- */

struct found {
    uint32_t n[NPATS];
};

static void on_found(uint32_t id, void *arg)
{
    ((struct found *)arg)->n[id]++;
}

/* The first end of pattern p in s[0..n), 0 when absent. */
static uint64_t first_end(const struct pat *p, const uint8_t *s, size_t n)
{
    for (size_t e = p->len; e <= n; e++)
        if (!memcmp(s + e - p->len, p->bytes, p->len))
            return e;
    return 0;
}

/* Every run pattern is found once when it occurs ending within its bound (none: anywhere), as a
 * Hyperscan block database with HS_FLAG_SINGLEMATCH and max_offset reports it. */
static void scan_and_compare(const struct det_mpm *m, const uint8_t *data, size_t n)
{
    struct found f;
    memset(&f, 0, sizeof f);
    det_mpm_scan_runs(m, data, n, on_found, &f);
    for (uint32_t k = 0; k < m->nruns; k++) {
        uint32_t id = m->runs[k];
        uint64_t e = first_end(&PATS[id], data, n);
        uint32_t b = m->maxend[id] <= DET_MPM_BOUND_MAX ? m->maxend[id] : 0;
        uint32_t want = e && (!b || e <= b);
        if (f.n[id] != want) {
            CHECK_EQ_U(f.n[id], want);
            fprintf(stderr, "  pattern %u, bound %u, %zu bytes\n", id, b, n);
            return;
        }
    }
}

static void test_block_buffers(void)
{
    static uint8_t rnd[2000];
    fill_runs(rnd, sizeof rnd, 777);
    /* unbounded (an application buffer's) and bounded ones (a packet's: depth, dsize) */
    static const uint32_t bounds[][NPATS] = {
        {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX,
         UINT32_MAX},
        {40, 3, 299, UINT32_MAX, 5, 2, 9, 300},
        {16, 200, 4, 10, 3, 2, 4, 8},
    };
    for (size_t t = 0; t < sizeof bounds / sizeof *bounds; t++) {
        struct det_mpm m;
        make(&m, PATS, NPATS);
        m.kind = t ? DK_PKT : DK_APP;
        m.maxend = calloc(NPATS, sizeof *m.maxend);
        memcpy(m.maxend, bounds[t], sizeof bounds[t]);
        CHECK(det_mpm_find_runs(&m) == 0 && m.nruns == 5);
        /* every bounded: runs starting past the largest bound are not looked at */
        CHECK_EQ_U(m.run_reach, t == 2 ? 200 : UINT32_MAX);
        for (size_t off = 0; off < 200; off += 7)
            for (size_t n = 0; off + n <= sizeof rnd && n < 400; n += 13)
                scan_and_compare(&m, rnd + off, n);
        scan_and_compare(&m, rnd, sizeof rnd);
        /* one long run of each: found once however long */
        static uint8_t runs[600];
        memset(runs, 'A', 300);
        memset(runs + 300, 0, 300);
        scan_and_compare(&m, runs, sizeof runs);
        free(m.maxend);
        free(m.run_bound);
        unmake(&m);
    }
}

int main(void)
{
    test_which_patterns_are_runs();
    /* the scanner's AVX2 steps (where the CPU has them), then its SSE2 ones alone */
    bool avx2 = det_mpm_runs_avx2(true);
    test_last_ends_over_every_chunking();
    test_block_buffers();
    if (avx2) {
        CHECK(!det_mpm_runs_avx2(false));
        test_last_ends_over_every_chunking();
        test_block_buffers();
    }
    return unit_report("test_mpm_runs");
}
