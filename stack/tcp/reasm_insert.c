/* reasm_insert.c — placing one segment into a receive stream under the receiver's overlap
 * policy.
 *
 * Bytes below tail are in order: the receiving host has delivered them to its application
 * and we have announced them (CONN_NEW_DATA), so no later copy changes them, whatever the
 * policy — an overlap there is only compared (overlaps / overlap_diff) and is a
 * retransmission. Policies decide among out-of-order copies, where real stacks differ.
 *
 * Each held out-of-order byte is owned by one segment (a piece). A new segment Y arriving
 * over bytes owned by X takes them when the policy says Y beats X; it always takes bytes
 * nobody holds. The rules compare both segments' extents AS SENT (o = first offset, e = end),
 * not as trimmed by earlier overlaps — the model of Suricata's stream engine
 * (stream-tcp-list.c, DoHandleDataOverlap) and Snort's overlap resolvers, which agree on
 * these six (README.md has the table and the cases where they differ).
 */
#include <string.h>

#include "tcp_internal.h"

static bool beats(enum mon_overlap_policy pol, uint64_t yo, uint64_t ye, uint64_t xo, uint64_t xe)
{
    switch (pol) {
    case MON_POLICY_FIRST:
        return false; /* the first copy of every byte stays */
    case MON_POLICY_LAST:
        return true; /* the last copy of every byte wins */
    case MON_POLICY_BSD:
    case MON_POLICY_WINDOWS:
        /* the segment starting lower wins; at the same start or later the original stays
         * (for TCP Windows behaves as BSD: Suricata and Snort both model it so) */
        return yo < xo;
    case MON_POLICY_LINUX:
        /* as BSD, and at the same start a longer new segment wins */
        return yo < xo || (yo == xo && ye > xe);
    case MON_POLICY_SOLARIS:
        /* the segment reaching further right wins; at the same end, the one starting at or
         * before the original */
        return ye > xe || (ye == xe && yo <= xo);
    default:
        return false;
    }
}

struct cmp_arg {
    const struct reasm_seg *y;
    bool held, diff;
};

static bool cmp_fn(const struct mon_reasm *r, uint64_t a, uint64_t z, void *arg)
{
    struct cmp_arg *c = arg;
    c->held = true;
    if (!c->diff && ring_differs(r, a, c->y->data + (a - c->y->o), (uint32_t)(z - a)))
        c->diff = true;
    return false;
}

/* The part of [*s, e) already in order is final: compare it and cut it off. */
static void trim_in_order(struct mon_reasm *r, uint64_t *s, uint64_t e,
                          struct cmp_arg *c)
{
    if (*s >= r->tail)
        return;
    uint64_t z = e < r->tail ? e : r->tail;
    reasm_each_held(r, *s, z, cmp_fn, c);
    *s = z;
}

/* Make room for [s, e) (e - s <= size): forget bytes from head, skipping holes that stand
 * between the in-order bytes and the new data when forgetting in-order bytes is not enough. */
static uint32_t make_room(struct tcp_ctx *t, struct mon_reasm *r, uint64_t s, uint64_t e)
{
    uint32_t ra = 0;
    /* Ack delivery holds the bytes in flight (sent, not acknowledged yet) unreadable: a
     * window larger than the buffer would push them out before any reader saw them, so for
     * them (only) the ring may grow REASM_ACK_GROWTH times further. */
    uint32_t max = r->max;
    if (r->on_ack && e > reasm_lim(r) + r->size)
        max = r->max <= UINT32_MAX / REASM_ACK_GROWTH ? r->max * REASM_ACK_GROWTH : UINT32_MAX;
    if (e > r->read + r->size && r->size < max) {
        /* Unread bytes would have to go: grow first, doubling until [read, e) fits or the
         * side's buffer size is reached. Bytes already read are forgotten before the ring
         * grows for them. */
        uint64_t want = r->size;
        while (want < e - r->read && want < max)
            want *= 2;
        uint32_t grow_ra;
        if (reasm_resize(t, r, want < max ? (uint32_t)want : max, &grow_ra) == MON_OK)
            ra |= grow_ra;
        /* without memory the ring stays as it is and old bytes make room instead */
    }
    while (e > r->head + r->size) {
        uint64_t need = e - r->size;
        if (need <= r->tail) {
            ra |= reasm_evict(t, r, need);
            break;
        }
        /* need > tail: the out-of-order data ahead cannot be held together with the hole
         * before it, so that hole will never be filled here: skip it (a gap). need <= s, so
         * s > tail and the hole is real. */
        uint64_t to = (r->npc && r->pc[0].off < s) ? r->pc[0].off : s;
        ra |= reasm_skip_hole(t, r, to);
    }
    return ra;
}

/* Append a piece to out[], merging it with the previous one when it continues it for the
 * same owner. */
static void push(struct reasm_piece *out, uint32_t *n, uint64_t off, uint64_t end, uint64_t own_o,
                 uint32_t own_len)
{
    if (off >= end)
        return;
    if (*n) {
        struct reasm_piece *l = &out[*n - 1];
        if (l->off + l->len == off && l->off - l->own_back == own_o && l->own_len == own_len) {
            l->len += (uint32_t)(end - off);
            return;
        }
    }
    out[(*n)++] = (struct reasm_piece){.off = off, .len = (uint32_t)(end - off),
                                       .own_back = (uint32_t)(off - own_o), .own_len = own_len};
}

/* Place [s, e) of y among the pieces (s >= tail, e <= head + size). */
static uint32_t place(struct tcp_ctx *t, struct mon_reasm *r, enum mon_overlap_policy pol,
                      const struct reasm_seg *y, uint64_t s, uint64_t e, struct cmp_arg *c)
{
    /* the pieces [i0, i1) touch [s, e) */
    uint32_t lo = 0, hi = r->npc;
    while (lo < hi) { /* first piece ending after s */
        uint32_t mid = lo + (hi - lo) / 2;
        if (r->pc[mid].off + r->pc[mid].len > s)
            hi = mid;
        else
            lo = mid + 1;
    }
    uint32_t i0 = lo, i1 = lo;
    while (i1 < r->npc && r->pc[i1].off < e)
        i1++;
    uint32_t k = i1 - i0;
    /* At most 2k + 3 pieces replace the k: one per overlap, the holes between them, and the
     * ends of the first and last piece sticking out. They are built past the end of the used
     * array, far enough that moving the pieces after i1 never reaches them. */
    uint32_t room = 2 * k + 3;
    if (!reasm_grow_pieces(t, r, r->npc + 2 * room))
        return RA_NOMEM;
    struct reasm_piece *out = r->pc + r->npc + room;
    uint32_t n = 0;
    const uint64_t yo = y->o, ye = y->o + y->len;
    uint64_t cur = s;
    for (uint32_t i = i0; i < i1; i++) {
        const struct reasm_piece p = r->pc[i];
        const uint64_t pe = p.off + p.len, xo = p.off - p.own_back, xe = xo + p.own_len;
        if (p.off > cur) { /* a hole Y fills */
            ring_write(r, cur, y->data + (cur - yo), (uint32_t)(p.off - cur));
            push(out, &n, cur, p.off, yo, y->len);
        }
        uint64_t a = p.off > s ? p.off : s, z = pe < e ? pe : e;
        push(out, &n, p.off, a, xo, p.own_len); /* X before the overlap */
        c->held = true;
        if (!c->diff && ring_differs(r, a, y->data + (a - yo), (uint32_t)(z - a)))
            c->diff = true;
        if (beats(pol, yo, ye, xo, xe)) {
            ring_write(r, a, y->data + (a - yo), (uint32_t)(z - a));
            push(out, &n, a, z, yo, y->len);
        } else {
            push(out, &n, a, z, xo, p.own_len);
        }
        push(out, &n, z, pe, xo, p.own_len); /* X after the overlap */
        if (z > cur)
            cur = z;
    }
    if (cur < e) {
        ring_write(r, cur, y->data + (cur - yo), (uint32_t)(e - cur));
        push(out, &n, cur, e, yo, y->len);
    }
    /* replace [i0, i1) by out[0, n) */
    memmove(r->pc + i0 + n, r->pc + i1, (size_t)(r->npc - i1) * sizeof *r->pc);
    memcpy(r->pc + i0, out, (size_t)n * sizeof *r->pc);
    r->npc = r->npc - k + n;
    return 0;
}

/* Too many pieces in few runs (a flood of tiny adjacent segments): merge neighbours, the
 * merged piece owned by the union of their extents. Only affects later policy decisions. */
static void coalesce(struct mon_reasm *r, uint32_t limit)
{
    while (r->npc > limit) {
        uint32_t k = 0;
        bool merged = false;
        for (uint32_t i = 0; i < r->npc; i++) {
            struct reasm_piece p = r->pc[i];
            if (i + 1 < r->npc && p.off + p.len == r->pc[i + 1].off) {
                const struct reasm_piece *q = &r->pc[i + 1];
                uint64_t po = p.off - p.own_back, qo = q->off - q->own_back;
                uint64_t o = po < qo ? po : qo;
                uint64_t pe = po + p.own_len, qe = qo + q->own_len;
                uint64_t oe = pe > qe ? pe : qe;
                p.len += q->len;
                p.own_back = (uint32_t)(p.off - o);
                p.own_len = (uint32_t)(oe - o);
                i++;
                merged = true;
            }
            r->pc[k++] = p;
        }
        r->npc = k;
        if (!merged)
            break;
    }
}

uint32_t reasm_insert(struct tcp_ctx *t, struct mon_reasm *r, enum mon_overlap_policy policy,
                      const struct reasm_seg *y, uint64_t s, uint64_t e, uint32_t max_frags)
{
    uint32_t ra = 0;
    struct cmp_arg c = {.y = y};
    /* A segment longer than the ring goes in ring-sized chunks: the first ones pass through
     * and are overwritten by the next, exactly as if they had come one after another. */
    while (s < e) {
        uint64_t ce = e - s > r->size ? s + r->size : e;
        trim_in_order(r, &s, ce, &c);
        if (s < ce) {
            ra |= make_room(t, r, s, ce);
            trim_in_order(r, &s, ce, &c); /* a skipped hole may have brought tail past s */
        }
        if (s < ce) {
            uint32_t pr = place(t, r, policy, y, s, ce, &c);
            if (pr & RA_NOMEM) {
                ra |= pr;
                break; /* no room for the metadata: these bytes are not kept */
            }
            ra |= reasm_absorb(r);
        }
        s = ce;
    }
    /* Limits on held out-of-order data: past max_frags runs, the oldest hole is given up. */
    uint32_t mf = max_frags ? max_frags : 1;
    while (r->npc && reasm_runs(r) > mf)
        ra |= reasm_skip_hole(t, r, r->pc[0].off);
    coalesce(r, 2 * mf + 16);
    if (r->npc)
        reasm_hold_touch(t, r);
    if (c.held) {
        t->stats.overlaps++;
        if (c.diff) {
            t->stats.overlap_diff++;
            t->pkt_events |= 1ull << MON_TE_REASM_OVERLAP_DIFF;
        }
    }
    return ra;
}
