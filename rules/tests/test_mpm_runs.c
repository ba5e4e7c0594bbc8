/* test_mpm_runs.c — compile/mpm_runs.c: the stream patterns of one repeated byte, found by the
 * run scanner instead of Hyperscan. Which patterns count as runs, and, over streams cut into
 * chunks at every length (runs across chunk ends, across the scanner's 16-byte steps, at the
 * very start and end), the last end of each run pattern must be what a search of every
 * occurrence finds. */
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

    /* pseudo-random bytes over a small alphabet: many short runs, some long */
    static uint8_t rnd[3000];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof rnd; i++) {
        x = x * 1103515245u + 12345u;
        uint32_t v = (x >> 16) % 16;
        rnd[i] = v < 6 ? 'A' : v < 9 ? 0 : v < 11 ? 'B' : v < 12 ? 0x90 : (uint8_t)('a' + v);
    }
    for (size_t chunk = 1; chunk <= 70; chunk++)
        feed_and_compare(&m, rnd, sizeof rnd, chunk);
    feed_and_compare(&m, rnd, sizeof rnd, sizeof rnd);
    unmake(&m);
}

int main(void)
{
    test_which_patterns_are_runs();
    test_last_ends_over_every_chunking();
    return unit_report("test_mpm_runs");
}
