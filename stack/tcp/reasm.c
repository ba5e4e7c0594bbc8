/* reasm.c — one side's receive stream: its ring, its memory, and moving its edges.
 *
 * The ring holds stream offsets [head, head + size) at index off % size (mOS §4.3's receive
 * buffer). Three offsets move forward only:
 *   head  the oldest byte held (bytes below are forgotten)
 *   read  the next byte mon_peek returns
 *   tail  just past the in-order bytes
 * and out-of-order pieces (reasm_insert.c) lie above tail, inside the ring's span.
 * Making room moves head: forgetting bytes already read is free; forgetting unread ones is an
 * outrun (ERROR, and mon_peek reports MON_EOVERWRITTEN once, then reads from head).
 * Skipping a hole moves tail over bytes that never came (a gap): if the reader has not got
 * there yet, the hole is remembered so that mon_peek stops at it, then jumps it.
 *
 * Memory: the ring and this record are allocated per side on its first data, the ring at
 * REASM_INITIAL bytes; it doubles (reasm_resize) when data would not fit, up to the side's
 * buffer size, before anything is forgotten. Most streams are short, so most flows never pay
 * for a full buffer. The piece array grows by doubling and never shrinks. All of it is charged
 * to the context's memcap; over it, other streams' held out-of-order data is taken back
 * (reasm_reclaim.c) before a request is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "tcp_internal.h"

bool tcp_mem_take(struct tcp_ctx *t, const struct mon_reasm *self, uint64_t bytes)
{
    if (t->stats.reasm_memuse + bytes > t->cfg.memcap && !reasm_reclaim(t, self, bytes))
        return false;
    t->stats.reasm_memuse += bytes;
    if (t->stats.reasm_memuse > t->stats.reasm_memuse_peak)
        t->stats.reasm_memuse_peak = t->stats.reasm_memuse;
    return true;
}

void tcp_mem_give(struct tcp_ctx *t, uint64_t bytes)
{
    t->stats.reasm_memuse -= bytes < t->stats.reasm_memuse ? bytes : t->stats.reasm_memuse;
}

struct mon_reasm *reasm_new(struct tcp_ctx *t, uint32_t max, uint64_t start)
{
    if (max == 0)
        return NULL;
    uint32_t size = max < REASM_INITIAL ? max : REASM_INITIAL;
    uint64_t cost = sizeof(struct mon_reasm) + (uint64_t)size;
    if (!tcp_mem_take(t, NULL, cost))
        return NULL;
    struct mon_reasm *r = calloc(1, sizeof *r);
    uint8_t *ring = r ? malloc(size) : NULL;
    if (!ring) {
        free(r);
        tcp_mem_give(t, cost);
        return NULL;
    }
    r->ring = ring;
    r->size = size;
    r->max = max;
    r->head = r->read = r->tail = r->ready = r->said = start;
    r->on_ack = t->cfg.ack_delivery;
    return r;
}

void reasm_free(struct tcp_ctx *t, struct mon_reasm *r)
{
    if (!r)
        return;
    reasm_hold_drop(t, r);
    tcp_mem_give(t, sizeof *r + (uint64_t)r->size + (uint64_t)r->cap * sizeof *r->pc);
    free(r->pc);
    free(r->ring);
    free(r);
}

bool reasm_grow_pieces(struct tcp_ctx *t, struct mon_reasm *r, uint32_t need)
{
    if (need <= r->cap)
        return true;
    uint32_t ncap = r->cap ? r->cap : 8;
    while (ncap < need)
        ncap *= 2;
    uint64_t cost = (uint64_t)(ncap - r->cap) * sizeof *r->pc;
    if (!tcp_mem_take(t, r, cost))
        return false;
    struct reasm_piece *pc = realloc(r->pc, (size_t)ncap * sizeof *pc);
    if (!pc) {
        tcp_mem_give(t, cost);
        return false;
    }
    r->pc = pc;
    r->cap = ncap;
    return true;
}

/* ---- the ring ---------------------------------------------------------------------------- */

void ring_write(struct mon_reasm *r, uint64_t off, const uint8_t *src, uint32_t n)
{
    uint32_t pos = (uint32_t)(off % r->size);
    uint32_t first = n < r->size - pos ? n : r->size - pos;
    memcpy(r->ring + pos, src, first);
    if (n > first)
        memcpy(r->ring, src + first, n - first);
}

void ring_read(const struct mon_reasm *r, uint64_t off, uint8_t *dst, uint32_t n)
{
    uint32_t pos = (uint32_t)(off % r->size);
    uint32_t first = n < r->size - pos ? n : r->size - pos;
    memcpy(dst, r->ring + pos, first);
    if (n > first)
        memcpy(dst + first, r->ring, n - first);
}

bool ring_differs(const struct mon_reasm *r, uint64_t off, const uint8_t *src, uint32_t n)
{
    uint32_t pos = (uint32_t)(off % r->size);
    uint32_t first = n < r->size - pos ? n : r->size - pos;
    if (memcmp(r->ring + pos, src, first) != 0)
        return true;
    return n > first && memcmp(r->ring, src + first, n - first) != 0;
}

/* ---- walking what is held ------------------------------------------------------------------ */

bool reasm_each_held(const struct mon_reasm *r, uint64_t a, uint64_t z, reasm_range_fn fn,
                     void *arg)
{
    /* in order: [head, tail) less the gaps the reader has not passed */
    uint64_t lo = a > r->head ? a : r->head, hi = z < r->tail ? z : r->tail;
    if (lo < hi) {
        uint64_t cur = lo;
        for (unsigned i = 0; i < r->ngap && cur < hi; i++) {
            const struct reasm_gap *g = &r->gap[i];
            if (g->end <= cur)
                continue;
            if (g->at > cur && fn(r, cur, g->at < hi ? g->at : hi, arg))
                return true;
            cur = g->end;
        }
        if (cur < hi && fn(r, cur, hi, arg))
            return true;
    }
    /* out of order */
    for (uint32_t i = 0; i < r->npc; i++) {
        const struct reasm_piece *p = &r->pc[i];
        uint64_t pe = p->off + p->len;
        if (pe <= a)
            continue;
        if (p->off >= z)
            break;
        if (fn(r, p->off > a ? p->off : a, pe < z ? pe : z, arg))
            return true;
    }
    return false;
}

static bool any_fn(const struct mon_reasm *r, uint64_t a, uint64_t z, void *arg)
{
    (void)r, (void)a, (void)z, (void)arg;
    return true;
}

/* ---- moving the edges ------------------------------------------------------------------------ */

uint32_t reasm_evict(struct tcp_ctx *t, struct mon_reasm *r, uint64_t nh)
{
    if (nh <= r->head)
        return 0;
    if (nh > r->tail)
        nh = r->tail; /* never below the in-order region: callers skip holes first */
    uint32_t ra = 0;
    if (r->read < nh) {
        /* unread bytes go: an outrun, unless all of them were gaps (nothing to lose) */
        if (reasm_each_held(r, r->read, nh, any_fn, NULL)) {
            ra |= RA_OUTRUN;
            if (!r->overwritten)
                t->stats.outruns++; /* one outrun until the reader has been told */
            r->overwritten = true;
        }
        r->read = nh;
    }
    r->head = nh;
    /* gaps below the new head need no remembering */
    unsigned k = 0;
    for (unsigned i = 0; i < r->ngap; i++) {
        struct reasm_gap g = r->gap[i];
        if (g.end <= nh)
            continue;
        if (g.at < nh)
            g.at = nh;
        r->gap[k++] = g;
    }
    r->ngap = (uint8_t)k;
    return ra;
}

uint32_t reasm_absorb(struct mon_reasm *r)
{
    uint32_t k = 0;
    while (k < r->npc && r->pc[k].off == r->tail) {
        r->tail += r->pc[k].len;
        k++;
    }
    if (!k)
        return 0;
    memmove(r->pc, r->pc + k, (size_t)(r->npc - k) * sizeof *r->pc);
    r->npc -= k;
    return RA_NEW_DATA;
}

uint32_t reasm_skip_hole(struct tcp_ctx *t, struct mon_reasm *r, uint64_t to)
{
    if (to <= r->tail)
        return reasm_absorb(r);
    uint32_t ra = RA_GAP;
    t->stats.gaps++;
    t->pkt_events |= 1ull << MON_TE_REASM_GAP;
    /* The hole stays recorded while it is inside the buffer, so that nobody takes the ring
     * bytes there for data. Too many holes: the oldest leaves the buffer with the bytes
     * before it (unread ones are an outrun), as if the buffer were full. */
    if (r->ngap == REASM_GAPS)
        ra |= reasm_evict(t, r, r->gap[0].end);
    r->gap[r->ngap++] = (struct reasm_gap){r->tail, to};
    if (r->read == r->tail)
        r->read = to; /* the reader stands at the hole: it just goes on after it */
    r->tail = to;
    if (r->tail - r->head > r->size)
        ra |= reasm_evict(t, r, r->tail - r->size);
    return ra | reasm_absorb(r);
}

uint32_t reasm_skip_to(struct tcp_ctx *t, struct mon_reasm *r, uint64_t upto)
{
    uint32_t ra = 0;
    while (r->tail < upto) {
        uint64_t to = upto;
        if (r->npc && r->pc[0].off < to)
            to = r->pc[0].off;
        ra |= reasm_skip_hole(t, r, to);
    }
    return ra;
}

uint32_t reasm_flush(struct tcp_ctx *t, struct mon_reasm *r)
{
    uint32_t ra = 0;
    while (r->npc)
        ra |= reasm_skip_hole(t, r, r->pc[0].off);
    return ra;
}

uint32_t reasm_runs(const struct mon_reasm *r)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->npc; i++)
        if (i == 0 || r->pc[i].off != r->pc[i - 1].off + r->pc[i - 1].len)
            n++;
    return n;
}

/* ---- resizing ------------------------------------------------------------------------------- */

static void copy_span(const struct mon_reasm *from, uint8_t *to, uint32_t to_size, uint64_t a,
                      uint64_t z)
{
    while (a < z) {
        uint32_t fpos = (uint32_t)(a % from->size), tpos = (uint32_t)(a % to_size);
        uint64_t n = z - a;
        if (n > from->size - fpos)
            n = from->size - fpos;
        if (n > to_size - tpos)
            n = to_size - tpos;
        memcpy(to + tpos, from->ring + fpos, (size_t)n);
        a += n;
    }
}

int reasm_resize(struct tcp_ctx *t, struct mon_reasm *r, uint32_t size, uint32_t *ra)
{
    *ra = 0;
    if (size == r->size)
        return MON_OK;
    if (size > r->size && !tcp_mem_take(t, r, (uint64_t)(size - r->size)))
        return MON_ENOMEM;
    uint8_t *ring = malloc(size);
    if (!ring) {
        if (size > r->size)
            tcp_mem_give(t, (uint64_t)(size - r->size));
        return MON_ENOMEM;
    }
    /* Growing keeps everything. Shrinking keeps the newest in-order bytes that fit (losing
     * unread ones is an outrun) and the out-of-order bytes within the new span. */
    if (r->tail - r->head > size)
        *ra |= reasm_evict(t, r, r->tail - size);
    uint64_t lim = r->head + size;
    uint32_t k = 0;
    for (uint32_t i = 0; i < r->npc; i++) {
        struct reasm_piece p = r->pc[i];
        if (p.off >= lim)
            break;
        if (p.off + p.len > lim)
            p.len = (uint32_t)(lim - p.off);
        r->pc[k++] = p;
    }
    r->npc = k;
    copy_span(r, ring, size, r->head, r->tail);
    for (uint32_t i = 0; i < r->npc; i++)
        copy_span(r, ring, size, r->pc[i].off, r->pc[i].off + r->pc[i].len);
    if (size < r->size)
        tcp_mem_give(t, (uint64_t)(r->size - size));
    free(r->ring);
    r->ring = ring;
    r->size = size;
    return MON_OK;
}
