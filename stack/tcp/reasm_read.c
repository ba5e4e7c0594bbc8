/* reasm_read.c — reading a receive stream: mon_peek, mon_ppeek, and what MON_SO_FRAGS /
 * MON_SO_BUF_INFO report.
 *
 * mon_peek reads in order from the read pointer and never crosses a skipped hole in one
 * call: it stops before it, and the next call continues after it (ERROR with MON_ERR_GAP has
 * already said bytes are missing; buf_info's read_off shows where). Holes stay recorded
 * while they are inside the buffer, so mon_ppeek, MON_SO_FRAGS and comparisons skip them. After an outrun the next
 * call fails once with MON_EOVERWRITTEN; the read pointer already stands at the oldest byte
 * still held (mOS §4.3). mon_ppeek reads any held bytes, in order or not, already read or
 * not, and stops where held bytes stop.
 */
#include <limits.h>
#include <string.h>

#include "tcp_internal.h"

static struct mon_tcp_side *side_of(struct mon_flow *f, int side)
{
    return (side == MON_SIDE_CLI || side == MON_SIDE_SVR) ? &f->tcp.side[side] : NULL;
}

ssize_t tcp_peek(struct tcp_ctx *t, struct mon_flow *f, int side, void *buf, size_t len)
{
    (void)t;
    struct mon_tcp_side *s = side_of(f, side);
    if (!s || (!buf && len))
        return MON_EINVAL;
    struct mon_reasm *r = s->rbuf;
    if (!r)
        return MON_ENOBUF;
    if (r->overwritten) {
        r->overwritten = false;
        return MON_EOVERWRITTEN;
    }
    /* jump the holes the reader has reached; stop before the next one (and before the bytes
     * not yet delivered, under ack delivery) */
    uint64_t lim = reasm_lim(r);
    for (unsigned i = 0; i < r->ngap; i++) {
        const struct reasm_gap *g = &r->gap[i];
        if (g->end <= r->read)
            continue;
        if (g->at <= r->read) {
            r->read = g->end;
            continue;
        }
        lim = g->at;
        break;
    }
    uint64_t n = lim > r->read ? lim - r->read : 0;
    if (n > len)
        n = len;
    if (n > SSIZE_MAX)
        n = SSIZE_MAX;
    ring_read(r, r->read, buf, (uint32_t)n);
    r->read += n;
    return (ssize_t)n;
}

/* The end of the contiguous held bytes starting at off, or 0 when off is not held. */
static uint64_t held_end(const struct mon_reasm *r, uint64_t off)
{
    if (off >= r->head && off < r->tail) {
        uint64_t end = r->tail;
        for (unsigned i = 0; i < r->ngap; i++) {
            const struct reasm_gap *g = &r->gap[i];
            if (off >= g->at && off < g->end)
                return 0;
            if (g->at > off && g->at < end)
                end = g->at;
        }
        return end;
    }
    for (uint32_t i = 0; i < r->npc; i++) {
        const struct reasm_piece *p = &r->pc[i];
        if (off >= p->off && off < p->off + p->len) {
            uint64_t end = p->off + p->len;
            while (++i < r->npc && r->pc[i].off == end)
                end += r->pc[i].len;
            return end;
        }
        if (p->off > off)
            break;
    }
    return 0;
}

ssize_t tcp_ppeek(struct tcp_ctx *t, struct mon_flow *f, int side, void *buf, size_t len,
                  uint64_t off)
{
    (void)t;
    struct mon_tcp_side *s = side_of(f, side);
    if (!s || (!buf && len))
        return MON_EINVAL;
    const struct mon_reasm *r = s->rbuf;
    if (!r)
        return MON_ENOBUF;
    uint64_t end = held_end(r, off);
    if (r->on_ack && end > reasm_lim(r)) /* not delivered yet: acknowledged bytes only */
        end = off < reasm_lim(r) ? reasm_lim(r) : 0;
    if (!end)
        return MON_ERANGE;
    uint64_t n = end - off;
    if (n > len)
        n = len;
    ring_read(r, off, buf, (uint32_t)n);
    return (ssize_t)n;
}

/* Runs of held bytes, in order of offset: the in-order region split by its gaps, then the
 * out-of-order runs — under ack delivery only what is delivered, so no out-of-order runs.
 * Writes at most max; returns how many there are. */
size_t reasm_frags(const struct mon_reasm *r, struct mon_frag *out, size_t max)
{
    size_t n = 0;
    uint64_t cur = r->head, lim = reasm_lim(r);
    for (unsigned i = 0; i <= r->ngap; i++) {
        uint64_t end = i < r->ngap ? r->gap[i].at : lim;
        if (end > lim)
            end = lim;
        if (end > cur) {
            if (n < max)
                out[n] = (struct mon_frag){cur, (uint32_t)(end - cur)};
            n++;
        }
        if (i < r->ngap && r->gap[i].end > cur)
            cur = r->gap[i].end;
    }
    for (uint32_t i = 0; i < r->npc && !r->on_ack; i++) {
        const struct reasm_piece *p = &r->pc[i];
        if (i && r->pc[i - 1].off + r->pc[i - 1].len == p->off) {
            if (n - 1 < max)
                out[n - 1].len += p->len;
            continue;
        }
        if (n < max)
            out[n] = (struct mon_frag){p->off, p->len};
        n++;
    }
    return n;
}

void reasm_info(const struct mon_reasm *r, struct mon_buf_info *bi)
{
    bi->head_off = r->head;
    bi->read_off = r->read;
    bi->tail_off = reasm_lim(r);
    bi->size = r->max; /* the capacity it may grow to; the ring is allocated on demand */
    uint64_t held = r->tail - r->head;
    for (unsigned i = 0; i < r->ngap; i++)
        held -= r->gap[i].end - r->gap[i].at;
    for (uint32_t i = 0; i < r->npc; i++)
        held += r->pc[i].len;
    bi->held = (uint32_t)held;
}
