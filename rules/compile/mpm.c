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
 * The patterns of one byte repeated are left out of the streaming, packet and application
 * databases: mpm_runs.c finds them.
 */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"
#include "osprey_hash.h"

static uint32_t pat_hash(const uint8_t *p, uint32_t len, bool nocase)
{
    return (uint32_t)osprey_hash_bytes(p, len) ^ (nocase ? 0x9e3779b9u : 0);
}

/* Room for one more pattern in the hash index (kept at most half full). */
static int hidx_reserve(struct det_mpm *m)
{
    if ((m->n + 1) * 2 <= m->hcap)
        return 0;
    uint32_t cap = m->hcap ? m->hcap * 2 : 256;
    uint32_t *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (uint32_t i = 0; i < m->n; i++) {
        uint32_t s = pat_hash(m->pat[i], m->len[i], m->nocase[i]) & (cap - 1);
        while (t[s])
            s = (s + 1) & (cap - 1);
        t[s] = i + 1;
    }
    free(m->hidx);
    m->hidx = t;
    m->hcap = cap;
    return 0;
}

int det_mpm_add(struct det_mpm *m, const uint8_t *p, uint32_t len, bool nocase, uint32_t *id)
{
    /* a pattern many rules share is added once: looked up by hash (a linear search over
     * every pattern was 3.5 % of the startup with ET Open) */
    if (hidx_reserve(m) < 0)
        return -1;
    uint32_t s = pat_hash(p, len, nocase) & (m->hcap - 1);
    for (; m->hidx[s]; s = (s + 1) & (m->hcap - 1)) {
        uint32_t i = m->hidx[s] - 1;
        if (m->len[i] == len && m->nocase[i] == nocase && !memcmp(m->pat[i], p, len)) {
            *id = i;
            return 0;
        }
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
        uint32_t *me = realloc(m->maxend, cap * sizeof *me);
        if (me)
            m->maxend = me;
        uint8_t *gen = m->grouped ? realloc(m->gen, cap) : NULL;
        if (gen) {
            memset(gen + m->cap, 0, cap - m->cap);
            m->gen = gen;
        }
        bool *arr = m->kind == DK_STREAM ? realloc(m->arrival, cap * sizeof *arr) : NULL;
        if (arr) {
            memset(arr + m->cap, 0, (cap - m->cap) * sizeof *arr);
            m->arrival = arr;
        }
        if (!pat || !l || !nc || !ev || !me || (m->grouped && !gen) ||
            (m->kind == DK_STREAM && !arr))
            return -1;
        m->cap = cap;
    }
    m->pat[m->n] = p;
    m->len[m->n] = len;
    m->nocase[m->n] = nocase;
    m->ev[m->n] = 0;
    m->maxend[m->n] = 0; /* no rule yet: det_mpm_bound widens it */
    if (len > m->maxlen)
        m->maxlen = len;
    m->hidx[s] = m->n + 1;
    *id = m->n++;
    return 0;
}

void det_mpm_bound(struct det_mpm *m, uint32_t id, uint32_t maxend)
{
    if (id < m->n && maxend > m->maxend[id])
        m->maxend[id] = maxend < m->len[id] ? m->len[id] : maxend;
}

/* A packet pattern whose rules can only use it ending in the payload's first bytes (its
 * maxend: an absolute content's depth, a packet rule's dsize) is compiled with that end offset
 * as Hyperscan's max_offset, so one pass over the payload serves bounded and unbounded
 * patterns alike: ET Open's checks of a few bytes at a payload's start (`content:"|00 01|";
 * depth:2; dsize:<20`) no longer match all over full-size payloads, and no second database
 * (with its per-scan cost, about 10% of the benchmark's time) is needed for them. Only bounds
 * up to DET_MPM_BOUND_MAX: a farther one seldom spares a match. Packets only: Hyperscan's
 * expression compiler is slower than its literal one (ET Open 2019 from a cold cache: 3.8 s
 * of compile instead of 1.6 s; the cache serves later starts), and bounding the application
 * buffers' patterns too would add another second to save 0.6% of the processing. */
uint32_t det_mpm_bound_of(const struct det_mpm *m, uint32_t id, bool block)
{
    return (m->kind == DK_PKT || block) && m->maxend[id] <= DET_MPM_BOUND_MAX ? m->maxend[id]
                                                                              : 0;
}

void det_mpm_arrival(struct det_mpm *m, uint32_t id)
{
    if (m->arrival && id < m->n)
        m->arrival[id] = true;
}

/* Bounded patterns go through Hyperscan's expression compiler (the literal one takes no
 * extended parameters): each byte as \xHH, so any byte is itself. */
static int compile_bounded(const struct det_mpm *m, const uint32_t *ids, const unsigned *flags,
                           const uint32_t *bound, uint32_t n, unsigned mode,
                           hs_database_t **db, hs_compile_error_t **err)
{
    char **expr = calloc(n, sizeof *expr);
    hs_expr_ext_t *ext = calloc(n, sizeof *ext);
    const hs_expr_ext_t **extp = calloc(n, sizeof *extp);
    int rc = -1;
    if (!expr || !ext || !extp)
        goto out;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len = m->len[ids[i]];
        if (!(expr[i] = malloc((size_t)len * 4 + 1)))
            goto out;
        for (uint32_t k = 0; k < len; k++)
            snprintf(expr[i] + 4 * k, 5, "\\x%02x", m->pat[ids[i]][k]);
        expr[i][4 * len] = 0;
        if (bound[i]) {
            ext[i].flags = HS_EXT_FLAG_MAX_OFFSET;
            ext[i].max_offset = bound[i];
            extp[i] = &ext[i];
        }
    }
    rc = hs_compile_ext_multi((const char *const *)expr, flags, ids, extp, n, mode, NULL, db,
                              err) == HS_SUCCESS ? 0 : -1;
out:
    for (uint32_t i = 0; expr && i < n; i++)
        free(expr[i]);
    free(expr);
    free(ext);
    free(extp);
    return rc;
}

static int compile_db(const struct det_mpm *m, const uint32_t *ids, uint32_t n, bool block,
                      hs_database_t **db, FILE *diag)
{
    *db = NULL;
    if (n == 0)
        return 0;
    unsigned *flags = calloc(n, sizeof *flags);
    size_t *lens = calloc(n, sizeof *lens);
    const char **pats = calloc(n, sizeof *pats);
    uint32_t *bound = calloc(n, sizeof *bound);
    uint32_t *kept = calloc(n, sizeof *kept);
    bool bounded = false;
    int rc = -1;
    if (!flags || !lens || !pats || !bound || !kept)
        goto out;
    bool runs_out = det_mpm_runs_left_out(m, block); /* (to the run scanner, mpm_runs.c) */
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id = ids[i];
        if ((runs_out && m->is_run[id]) || det_mpm_head_left_out(m, id, block))
            continue;
        /* a stream database reports every end (a side remembers the last one); the others,
         * the arrival databases too, only that a pattern occurs */
        kept[k] = id;
        flags[k] = (m->kind == DK_STREAM && !block ? 0 : HS_FLAG_SINGLEMATCH) |
                   (m->nocase[id] ? HS_FLAG_CASELESS : 0);
        lens[k] = m->len[id];
        pats[k] = (const char *)m->pat[id];
        bounded |= (bound[k] = det_mpm_bound_of(m, id, block)) != 0;
        k++;
    }
    ids = kept;
    n = k;
    if (n == 0) {
        rc = 0;
        goto out;
    }
    hs_compile_error_t *err = NULL;
    /* streaming: no start of match needed (the chain finds where), so no SOM horizon and the
     * smallest stream state */
    unsigned mode = m->streaming && !block ? HS_MODE_STREAM : HS_MODE_BLOCK;
    const uint32_t *key_bound = bounded ? bound : NULL;
    if (m->cache && det_mpm_cache_load(m, ids, flags, key_bound, n, mode, db) == 0) {
        rc = 0;
        goto out;
    }
    if (bounded && compile_bounded(m, ids, flags, bound, n, mode, db, &err) < 0) {
        /* (not expected: every pattern is a literal) unbounded then, as before bounds */
        hs_free_compile_error(err);
        err = NULL;
        *db = NULL;
        key_bound = NULL;
        bounded = false;
    }
    if (!bounded &&
        hs_compile_lit_multi(pats, flags, ids, lens, n, mode, NULL, db, &err) != HS_SUCCESS) {
        if (diag)
            fprintf(diag, "osprey: Hyperscan: %s\n", err ? err->message : "compile failed");
        hs_free_compile_error(err);
        *db = NULL;
        goto out;
    }
    if (m->cache)
        det_mpm_cache_store(m, ids, flags, key_bound, n, mode, *db);
    rc = 0;
out:
    free(flags);
    free(lens);
    free(pats);
    free(bound);
    free(kept);
    return rc;
}

int det_mpm_compile_db(const struct det_mpm *m, const uint32_t *ids, uint32_t n,
                       hs_database_t **db, FILE *diag)
{
    return compile_db(m, ids, n, false, db, diag);
}

int det_mpm_compile_block(const struct det_mpm *m, const uint32_t *ids, uint32_t n,
                          hs_database_t **db, FILE *diag)
{
    return compile_db(m, ids, n, true, db, diag);
}

int det_mpm_via_stream(struct det_mpm *m, struct det_mpm *stream, uint32_t id)
{
    if (!stream->streaming)
        return 0; /* block mode: the application filter scans the window itself */
    uint32_t sid;
    if (det_mpm_add(stream, m->pat[id], m->len[id], m->nocase[id], &sid) < 0)
        return -1;
    det_mpm_bound(stream, sid, UINT32_MAX); /* wanted anywhere in the stream */
    /* wanted at any port in the direction of the application rule's messages: its header
     * is checked below the application event */
    stream->gen[sid] |= (uint8_t)(1u << det_mgroup(DMC_TCP, det_to_server(0, m->base)));
    uint32_t *v = realloc(m->sid, m->cap * sizeof *v);
    if (!v)
        return -1;
    m->sid = v;
    m->sid[id] = sid;
    m->via = stream;
    return 0;
}

/* The payload matcher's reverse map: stream pattern id → its own (once both are final). */
static int via_map(struct det_mpm *m)
{
    if (!m->via)
        return 0;
    if (!(m->from_stream = malloc((m->via->n ? m->via->n : 1) * sizeof *m->from_stream)))
        return -1;
    for (uint32_t i = 0; i < m->via->n; i++)
        m->from_stream[i] = -1;
    for (uint32_t i = 0; i < m->n; i++)
        m->from_stream[m->sid[i]] = (int32_t)i;
    return 0;
}

int det_mpm_compile(struct det_mpm *m, FILE *diag)
{
    if (m->n == 0)
        return 0;
    if (via_map(m) < 0 || det_mpm_find_runs(m) < 0 || det_mpm_find_heads(m) < 0)
        return -1;
    if (m->grouped)
        return det_mpm_compile_groups(m, diag);
    uint32_t *ids = calloc(m->n, sizeof *ids);
    if (!ids)
        return -1;
    for (uint32_t i = 0; i < m->n; i++)
        ids[i] = i;
    int rc = det_mpm_compile_db(m, ids, m->n, &m->db, diag);
    free(ids);
    m->ready = rc == 0 && (m->db || m->nruns);
    return rc;
}

int det_mpm_scratch(const struct det_mpm *m, hs_scratch_t **scratch)
{
    if (m->db && hs_alloc_scratch(m->db, scratch) != HS_SUCCESS)
        return -1;
    for (int c = 0; c < DMG__N; c++)
        if ((m->gdb[c] && hs_alloc_scratch(m->gdb[c], scratch) != HS_SUCCESS) ||
            (m->wdb[c] && hs_alloc_scratch(m->wdb[c], scratch) != HS_SUCCESS) ||
            (m->cdb[c] && hs_alloc_scratch(m->cdb[c], scratch) != HS_SUCCESS) ||
            (m->adb[c] && hs_alloc_scratch(m->adb[c], scratch) != HS_SUCCESS) ||
            (m->mgdb[c] && hs_alloc_scratch(m->mgdb[c], scratch) != HS_SUCCESS) ||
            (m->mcdb[c] && hs_alloc_scratch(m->mcdb[c], scratch) != HS_SUCCESS) ||
            (m->hdb[c] && hs_alloc_scratch(m->hdb[c], scratch) != HS_SUCCESS) ||
            (m->odb[c] && hs_alloc_scratch(m->odb[c], scratch) != HS_SUCCESS))
            return -1;
    return 0;
}

int det_on_stream_match(unsigned int id, unsigned long long from, unsigned long long to,
                        unsigned int flags, void *arg)
{
    (void)from, (void)flags;
    struct det_stream_scan *ss = arg;
    /* stream offsets: the stream was fed from byte 0 */
    if (det_mpm_wanted(ss->m, &ss->s->grp, id))
        det_side_remember(ss->s, id, to);
    else
        ss->pf->unwanted++;
    return 0;
}

/* Streaming mode. The side's stream is opened on its first new bytes and fed exactly the bytes
 * appended to the side's copy, so stream offsets equal copy offsets and a pattern split across
 * segments (or completed by an out-of-order segment, once reassembly delivers it in order) is
 * found when its last byte arrives. The multi-event filter then raises the patterns of
 * s->seen whose last occurrence is in the window; the patterns of one repeated byte, left out
 * of the streaming databases, are found by the run scanner over the same bytes (mpm_runs.c).
 * If Hyperscan fails (out of memory), the stream is closed and the side is no longer scanned:
 * its fast-pattern rules go unevaluated, as a flow whose state could not be allocated. */
void det_mpm_feed(const struct det_mpm *m, struct det_side *s, hs_scratch_t *scratch,
                  struct osprey_detect_prefilter *pf, const struct mon_flow *f, int side,
                  const uint8_t *p, size_t n)
{
    if (!m->ready || s->hs_dead || n == 0 || (!scratch && !m->nruns))
        return;
    if (!s->hs_open) {
        /* the side's group: its ports never change */
        uint16_t sp, dp;
        det_side_ports(f, side, &sp, &dp);
        det_mpm_select(m, 6, det_to_server(side, DB_STREAM), sp, dp, &s->grp);
        s->hs_open = true;
        for (uint8_t i = 0; i < s->grp.n && s->nhs < DET_MPM_STREAM_DBS; i++) {
            if (hs_open_stream(s->grp.db[i], 0, &s->hs[s->nhs]) != HS_SUCCESS) {
                det_mpm_close(s, scratch);
                s->hs_dead = true;
                return;
            }
            s->nhs++;
        }
        s->fed = 0;
        s->run_len = 0;
    }
    struct det_stream_scan ss = {m, s, pf};
    uint64_t at = s->fed; /* stream offset of p[0] */
    pf->scans += s->nhs; /* database passes over the bytes */
    pf->bytes += n * s->nhs;
    for (uint8_t i = 0; i < s->nhs; i++)
        if (hs_scan_stream(s->hs[i], (const char *)p, (unsigned int)n, 0, scratch,
                           det_on_stream_match, &ss) != HS_SUCCESS) {
            det_mpm_close(s, scratch);
            s->hs_dead = true;
            return;
        }
    if (at < m->head_reach && scratch)
        det_mpm_feed_heads(m, s, scratch, pf, p, n, at);
    if (m->nruns)
        det_mpm_feed_runs(m, s, p, n); /* (it moves s->fed on) */
    else
        s->fed = at + n;
}

/* The head patterns (mpm_heads.c) of the bytes p[0..n) at stream offset at: while they reach
 * into the first head_reach bytes, the group's head database scans the side's copy from its
 * first byte. */
void det_mpm_feed_heads(const struct det_mpm *m, struct det_side *s, hs_scratch_t *scratch,
                        struct osprey_detect_prefilter *pf, const uint8_t *p, size_t n,
                        uint64_t at)
{
    const hs_database_t *db = s->grp.cls < DMG__N ? m->hdb[s->grp.cls] : NULL;
    if (!db || at >= m->head_reach)
        return;
    uint64_t end = at + n < m->head_reach ? at + n : m->head_reach;
    if (s->base == 0 && p == s->buf + at) {
        /* the side's copy holds every byte from the stream's first: scan [0, end) again (a
         * few hundred bytes at most, while they arrive) */
        struct det_stream_scan ss = {m, s, pf}; /* (the buffer starts at stream offset 0) */
        pf->scans++;
        pf->bytes += end;
        hs_scan(db, (const char *)s->buf, (unsigned int)end, 0, scratch, det_on_stream_match, &ss);
        return;
    }
    /* (not reached by the callers, whose bytes follow the copy's start: should the bytes
     * before p be gone, every head pattern the side wants is taken as found, so its rules
     * still decide from the bytes themselves) */
    for (uint32_t i = 0; i < m->n; i++)
        if (m->is_head[i] && det_mpm_wanted(m, &s->grp, i))
            det_side_remember(s, i, at + n);
}

void det_mpm_close(struct det_side *s, hs_scratch_t *scratch)
{
    /* no callback: matches at end of data are literal ends already reported while scanning */
    for (uint8_t i = 0; i < s->nhs; i++)
        hs_close_stream(s->hs[i], scratch, NULL, NULL);
    s->nhs = 0;
}

void det_mpm_free(struct det_mpm *m)
{
    hs_free_database(m->db);
    for (int c = 0; c < DMG__N; c++) {
        hs_free_database(m->gdb[c]);
        hs_free_database(m->wdb[c]);
        hs_free_database(m->cdb[c]);
        hs_free_database(m->adb[c]);
        hs_free_database(m->mgdb[c]);
        hs_free_database(m->mcdb[c]);
        hs_free_database(m->hdb[c]);
        hs_free_database(m->odb[c]);
        for (int r = 0; r < 2; r++)
            free(m->wports[c][r]);
    }
    free(m->place_at);
    free(m->hidx);
    free(m->sid);
    free(m->from_stream);
    free(m->gen);
    free(m->arrival);
    free(m->is_run);
    free(m->is_head);
    free(m->runs);
    free(m->run_bound);
    free(m->place);
    free(m->pat);
    free(m->len);
    free(m->nocase);
    free(m->maxend);
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
