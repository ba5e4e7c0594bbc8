/* test_mpm_heads.c — compile/mpm_heads.c: the stream patterns only a stream's first bytes can
 * serve. Which patterns are head patterns (bounded by every rule, within DET_MPM_BOUND_MAX,
 * not runs, only in the streaming stream matcher), and, with a real bounded Hyperscan database,
 * that feeding a stream in chunks of every length remembers exactly the head patterns with an
 * occurrence ending within their bound in the bytes fed so far (a brute-force search decides),
 * however the occurrence is split across chunks. */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"
#include "unit.h"

struct pat {
    const char *bytes;
    uint32_t len, maxend;
};

static const struct pat PATS[] = {
    {"\x03\x00", 2, 2},          /* 0: head, at the very start */
    {"XY", 2, 12},               /* 1: head */
    {"hello", 5, UINT32_MAX},    /* 2: unbounded: the stream's */
    {"ZZZZ", 4, 40},             /* 3: a run: the run scanner's */
    {"tail", 4, 300},            /* 4: bound past DET_MPM_BOUND_MAX: the stream's */
    {"ab", 2, 0},                /* 5: no rule bounds it (an application rule's, via) */
    {"lo X", 4, 9},              /* 6: head */
    {"\x13\x0e", 2, 30},         /* 7: head, the largest bound of the heads */
};
#define NPATS (sizeof PATS / sizeof *PATS)

static void make(struct det_mpm *m)
{
    memset(m, 0, sizeof *m);
    m->kind = DK_STREAM;
    m->streaming = m->grouped = true;
    m->n = NPATS;
    m->pat = calloc(NPATS, sizeof *m->pat);
    m->len = calloc(NPATS, sizeof *m->len);
    m->nocase = calloc(NPATS, sizeof *m->nocase);
    m->maxend = calloc(NPATS, sizeof *m->maxend);
    m->gen = calloc(NPATS, sizeof *m->gen);
    m->place_at = calloc(NPATS + 1, sizeof *m->place_at);
    for (uint32_t i = 0; i < NPATS; i++) {
        m->pat[i] = (const uint8_t *)PATS[i].bytes;
        m->len[i] = PATS[i].len;
        m->maxend[i] = PATS[i].maxend;
        m->gen[i] = 1u << 0; /* wanted in group 0 at any port */
    }
}

static void unmake(struct det_mpm *m)
{
    hs_free_database(m->hdb[0]);
    free(m->pat);
    free(m->len);
    free(m->nocase);
    free(m->maxend);
    free(m->gen);
    free(m->place_at);
    free(m->is_run);
    free(m->runs);
    free(m->run_bound);
    free(m->is_head);
}

static void test_which_patterns_are_heads(void)
{
    struct det_mpm m;
    make(&m);
    CHECK(det_mpm_find_runs(&m) == 0 && det_mpm_find_heads(&m) == 0);
    bool want[NPATS] = {true, true, false, false, false, false, true, true};
    for (uint32_t i = 0; i < NPATS; i++) {
        CHECK(m.is_head[i] == want[i]);
        CHECK(det_mpm_head_left_out(&m, i, false) == want[i]);
        CHECK(!det_mpm_head_left_out(&m, i, true)); /* block databases keep them */
    }
    CHECK_EQ_U(m.nheads, 4);
    CHECK_EQ_U(m.head_reach, 30);
    unmake(&m);

    /* block mode (detect.stream-mpm: block) and the other kinds keep every pattern */
    make(&m);
    m.streaming = false;
    CHECK(det_mpm_find_heads(&m) == 0 && m.nheads == 0 && !m.is_head && m.head_reach == 0);
    unmake(&m);
    make(&m);
    m.kind = DK_PKT;
    CHECK(det_mpm_find_heads(&m) == 0 && m.nheads == 0 && !m.is_head);
    unmake(&m);
}

/* Does head pattern id occur ending within its bound in s[0..n)? */
static bool in_head(const struct det_mpm *m, uint32_t id, const uint8_t *s, size_t n)
{
    for (size_t e = m->len[id]; e <= n && e <= m->maxend[id]; e++)
        if (!memcmp(s + e - m->len[id], m->pat[id], m->len[id]))
            return true;
    return false;
}

static bool remembered(const struct det_side *s, uint32_t id)
{
    for (uint32_t i = 0; i < s->nseen; i++)
        if (s->seen[i].id == id)
            return true;
    return false;
}

static void test_every_chunking(void)
{
    struct det_mpm m;
    make(&m);
    CHECK(det_mpm_find_runs(&m) == 0 && det_mpm_find_heads(&m) == 0);
    uint32_t ids[NPATS], n = 0;
    for (uint32_t i = 0; i < NPATS; i++)
        if (m.is_head[i])
            ids[n++] = i;
    CHECK(det_mpm_compile_block(&m, ids, n, &m.hdb[0], NULL) == 0 && m.hdb[0]);
    hs_scratch_t *scratch = NULL;
    CHECK(hs_alloc_scratch(m.hdb[0], &scratch) == HS_SUCCESS);
    /* |03 00| at 0; "lo X" ends at 9 (its bound); "XY" ends at 11; |13 0e| at 25 and past its
     * bound at 31; a second |03 00| and "XY" far past every bound */
    static const uint8_t data[] = "\x03\x00hello XY and \x13\x0e more \x13\x0e\x03\x00 XY tail";
    size_t len = sizeof data - 1;
    struct osprey_detect_prefilter pf = {0};
    for (size_t chunk = 1; chunk <= len; chunk++) {
        struct det_side s = {0};
        uint8_t copy[sizeof data];
        s.buf = copy; /* the side's copy, filled as det_stream_fill fills it */
        for (size_t at = 0; at < len; at += chunk) {
            size_t k = len - at < chunk ? len - at : chunk;
            memcpy(copy + at, data + at, k);
            det_mpm_feed_heads(&m, &s, scratch, &pf, copy + at, k, at);
            s.len += (uint32_t)k;
            for (uint32_t i = 0; i < NPATS; i++)
                CHECK(remembered(&s, i) == (m.is_head[i] && in_head(&m, i, data, at + k)));
        }
        free(s.seen);
    }
    CHECK(pf.scans > 0);
    /* bytes that do not follow the copy's start (not expected): every head pattern counts as
     * found, so the rules decide */
    struct det_side s = {0};
    s.buf = (uint8_t *)(uintptr_t)data;
    det_mpm_feed_heads(&m, &s, scratch, &pf, data + 3, 4, 1);
    for (uint32_t i = 0; i < NPATS; i++)
        CHECK(remembered(&s, i) == m.is_head[i]);
    free(s.seen);
    hs_free_scratch(scratch);
    unmake(&m);
}

int main(void)
{
    test_which_patterns_are_heads();
    test_every_chunking();
    return unit_report("test_mpm_heads");
}
