/* mpm.c — the fast-pattern matcher of one buffer kind: a Hyperscan literal database over
 * every rule's fast pattern, scanned once per buffer (the filter is in filters.c).
 *
 * Patterns are deduplicated on (bytes, nocase): rules with the same fast pattern share one
 * Hyperscan id and one child event, so their chains share that prefix too. Packets and
 * application buffers use HS_FLAG_SINGLEMATCH: their filter only needs to know *that* a
 * pattern occurs; the chain finds *where*. The stream kind does not: a side remembers where
 * each pattern last ended, so that it is raised again on later data only while that
 * occurrence is still in the window (filters.c).
 * The stream kind's database is HS_MODE_STREAM when detect.stream-mpm is "stream" (one
 * Hyperscan stream per flow side, det_mpm_feed); packets are always scanned in block mode.
 */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"

int det_mpm_add(struct det_mpm *m, const uint8_t *p, uint32_t len, bool nocase, uint32_t *id)
{
    /* linear: compile time only, and a hash would not pay for a few thousand patterns */
    for (uint32_t i = 0; i < m->n; i++)
        if (m->len[i] == len && m->nocase[i] == nocase && !memcmp(m->pat[i], p, len)) {
            *id = i;
            return 0;
        }
    if (m->n == m->cap) {
        uint32_t cap = m->cap ? m->cap * 2 : 64;
        const uint8_t **pat = realloc(m->pat, cap * sizeof *pat);
        if (pat)
            m->pat = pat;
        uint32_t *l = realloc(m->len, cap * sizeof *l);
        if (l)
            m->len = l;
        bool *nc = realloc(m->nocase, cap * sizeof *nc);
        if (nc)
            m->nocase = nc;
        mon_event_t *ev = realloc(m->ev, cap * sizeof *ev);
        if (ev)
            m->ev = ev;
        if (!pat || !l || !nc || !ev)
            return -1;
        m->cap = cap;
    }
    m->pat[m->n] = p;
    m->len[m->n] = len;
    m->nocase[m->n] = nocase;
    m->ev[m->n] = 0;
    if (len > m->maxlen)
        m->maxlen = len;
    *id = m->n++;
    return 0;
}

int det_mpm_compile(struct det_mpm *m, FILE *diag)
{
    if (m->n == 0)
        return 0;
    unsigned *flags = calloc(m->n, sizeof *flags), *ids = calloc(m->n, sizeof *ids);
    size_t *lens = calloc(m->n, sizeof *lens);
    int rc = -1;
    if (!flags || !ids || !lens)
        goto out;
    for (uint32_t i = 0; i < m->n; i++) {
        flags[i] = (m->kind == DK_STREAM ? 0 : HS_FLAG_SINGLEMATCH) |
                   (m->nocase[i] ? HS_FLAG_CASELESS : 0);
        ids[i] = i;
        lens[i] = m->len[i];
    }
    hs_compile_error_t *err = NULL;
    /* streaming: no start of match needed (the chain finds where), so no SOM horizon and the
     * smallest stream state */
    unsigned mode = m->streaming ? HS_MODE_STREAM : HS_MODE_BLOCK;
    if (hs_compile_lit_multi((const char *const *)m->pat, flags, ids, lens, m->n, mode, NULL,
                             &m->db, &err) != HS_SUCCESS) {
        if (diag)
            fprintf(diag, "osprey: Hyperscan: %s\n", err ? err->message : "compile failed");
        hs_free_compile_error(err);
        goto out;
    }
    rc = 0;
out:
    free(flags);
    free(ids);
    free(lens);
    return rc;
}

static int on_stream_match(unsigned int id, unsigned long long from, unsigned long long to,
                           unsigned int flags, void *arg)
{
    (void)from, (void)flags;
    det_side_remember(arg, id, to); /* stream offsets: the stream was fed from byte 0 */
    return 0;
}

/* Streaming mode. The side's stream is opened on its first new bytes and fed exactly the bytes
 * appended to the side's copy, so stream offsets equal copy offsets and a pattern split across
 * segments (or completed by an out-of-order segment, once reassembly delivers it in order) is
 * found when its last byte arrives. The multi-event filter then raises the patterns of
 * s->seen whose last occurrence is in the window. If Hyperscan fails (out of memory), the stream is closed and the side is no longer
 * scanned: its fast-pattern rules go unevaluated, as a flow whose state could not be allocated. */
void det_mpm_feed(const struct det_mpm *m, struct det_side *s, hs_scratch_t *scratch,
                  const uint8_t *p, size_t n)
{
    if (!m->db || !scratch || s->hs_dead || n == 0)
        return;
    if (!s->hs && hs_open_stream(m->db, 0, &s->hs) != HS_SUCCESS) {
        s->hs = NULL;
        s->hs_dead = true;
        return;
    }
    if (hs_scan_stream(s->hs, (const char *)p, (unsigned int)n, 0, scratch, on_stream_match,
                       s) != HS_SUCCESS) {
        det_mpm_close(s, scratch);
        s->hs_dead = true;
    }
}

void det_mpm_close(struct det_side *s, hs_scratch_t *scratch)
{
    if (!s->hs)
        return;
    /* no callback: matches at end of data are literal ends already reported while scanning */
    hs_close_stream(s->hs, scratch, NULL, NULL);
    s->hs = NULL;
}

/* Are b's patterns a subsequence of a's (ids are indexes)? Then *map (a->n entries) gives
 * each of a's ids b's, or UINT32_MAX. */
static bool within(const struct det_mpm *a, const struct det_mpm *b, uint32_t **map)
{
    if (a->n < b->n || a->kind != b->kind || a->streaming != b->streaming || !b->n)
        return false;
    uint32_t *m = malloc(a->n * sizeof *m);
    if (!m)
        return false;
    uint32_t i = 0;
    for (uint32_t j = 0; j < a->n; j++) {
        bool same = i < b->n && a->len[j] == b->len[i] && a->nocase[j] == b->nocase[i] &&
                    (a->pat[j] == b->pat[i] || !memcmp(a->pat[j], b->pat[i], a->len[j]));
        m[j] = same ? i++ : UINT32_MAX;
    }
    if (i < b->n || a->n > 2 * b->n + 64) { /* not all of b's, or mostly others' */
        free(m);
        return false;
    }
    *map = m;
    return true;
}

int det_mpm_compile_shared(struct det_mpm *m, struct det_mpm *const *before, uint32_t n,
                           FILE *diag)
{
    for (uint32_t i = 0; i < n && m->kind == DK_APP; i++)
        if (before[i]->db && !before[i]->db_shared && within(before[i], m, &m->remap)) {
            m->db = before[i]->db;
            m->db_shared = true;
            return 0;
        }
    return det_mpm_compile(m, diag);
}

void det_mpm_free(struct det_mpm *m)
{
    if (!m->db_shared)
        hs_free_database(m->db);
    free(m->remap);
    free(m->pat);
    free(m->len);
    free(m->nocase);
    free(m->ev);
    memset(m, 0, sizeof *m);
}

int osprey_detect_stream_mpm_parse(const char *s)
{
    if (s && !strcmp(s, "block"))
        return OSPREY_STREAM_MPM_BLOCK;
    if (s && !strcmp(s, "stream"))
        return OSPREY_STREAM_MPM_STREAM;
    return -1;
}
