/* defrag_insert.c — placing one fragment into its tracker under the target's overlap policy.
 *
 * Each byte of the datagram is owned by one stored fragment. A new fragment Y arriving over
 * bytes owned by an earlier fragment X takes them when the policy says Y beats X; it always
 * takes bytes nobody owns. The rules below compare the fragments' extents as sent (not as
 * trimmed by earlier overlaps), which is what the targets do and what Snort's frag3 and
 * Suricata's defrag model (Novak, "Target-Based Fragmentation Reassembly", 2005). With the
 * Sturges/Novak test pattern they give exactly Suricata's expected bytes (README.md).
 */
#include <stdlib.h>
#include <string.h>

#include "defrag_internal.h"

static bool beats(enum mon_overlap_policy pol, uint32_t yoff, uint32_t yend,
                  const struct df_frag *x)
{
    switch (pol) {
    case MON_POLICY_FIRST:
        return false;
    case MON_POLICY_LAST:
        return true;
    case MON_POLICY_BSD:
        /* the lower offset wins; at the same offset the original stays */
        return yoff < x->off;
    case MON_POLICY_LINUX:
        /* like BSD, but at the same offset the newer fragment wins */
        return yoff <= x->off;
    case MON_POLICY_WINDOWS:
        /* the original stays unless the new one starts before it and ends after it */
        return yoff < x->off && yend > x->end;
    case MON_POLICY_SOLARIS:
        /* as Windows, but a new fragment ending where the original ends also wins */
        return yoff < x->off && yend >= x->end;
    default:
        return false;
    }
}

static const uint8_t *frag_data(const struct df_frag *f)
{
    return f->bytes + f->hdr_len;
}

/* Append to the scratch list, merging with the previous piece when it continues it. */
static bool push(struct mon_defrag *df, uint32_t *n, uint32_t off, uint32_t end, uint32_t frag)
{
    if (off >= end)
        return true;
    if (*n) {
        struct df_piece *last = &df->scratch[*n - 1];
        if (last->frag == frag && last->end == off) {
            last->end = end;
            return true;
        }
    }
    if (*n == df->scratch_cap)
        return false; /* cannot happen: see the bound in defrag_internal.h */
    df->scratch[(*n)++] = (struct df_piece){off, end, frag};
    return true;
}

struct build {
    uint32_t n;      /* pieces in scratch */
    bool overlap;    /* Y overlaps data already held */
    bool diff;       /* ... with different bytes */
    bool won;        /* Y owns at least one byte */
    bool cut;        /* held data past the datagram's end was dropped */
    bool ok;
};

/* Build in df->scratch the piece list after inserting Y = [off, end) and clipping every
 * piece to limit (the datagram's end, once known). Changes nothing in the tracker. */
static struct build build_pieces(struct mon_defrag *df, const struct df_tracker *t,
                                 const uint8_t *data, uint32_t off, uint32_t end,
                                 uint32_t limit)
{
    struct build b = {.ok = true};
    uint32_t y = t->nfrags; /* Y's index, should it be stored */
    uint32_t cursor = off;  /* Y's bytes before cursor are accounted for */
    for (uint32_t i = 0; i < t->npieces && b.ok; i++) {
        struct df_piece p = t->pieces[i];
        if (p.end > limit) {
            b.cut = true;
            p.end = limit;
            if (p.off >= p.end)
                continue;
        }
        if (cursor < end && p.off > cursor) { /* a hole in the held data that Y fills */
            uint32_t gap_end = p.off < end ? p.off : end;
            b.ok = push(df, &b.n, cursor, gap_end, y);
            b.won = true;
            cursor = gap_end;
        }
        if (p.end <= off || p.off >= end) {
            b.ok = b.ok && push(df, &b.n, p.off, p.end, p.frag);
            continue;
        }
        uint32_t a = p.off > off ? p.off : off;
        uint32_t z = p.end < end ? p.end : end;
        const struct df_frag *x = t->frags[p.frag];
        b.overlap = true;
        if (!b.diff && memcmp(data + (a - off), frag_data(x) + (a - x->off), z - a) != 0)
            b.diff = true;
        if (beats(t->policy, off, end, x)) {
            b.ok = b.ok && push(df, &b.n, p.off, a, p.frag) && push(df, &b.n, a, z, y) &&
                   push(df, &b.n, z, p.end, p.frag);
            b.won = true;
        } else {
            b.ok = b.ok && push(df, &b.n, p.off, p.end, p.frag);
        }
        if (z > cursor)
            cursor = z;
    }
    if (b.ok && cursor < end) {
        b.ok = push(df, &b.n, cursor, end, y);
        b.won = true;
    }
    return b;
}

/* Grow a tracker array to hold need entries, charging the memcap for the growth. */
static bool grow(struct mon_defrag *df, struct df_tracker *t, void **arr, uint32_t *cap,
                 uint32_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    uint32_t ncap = *cap ? *cap : 8;
    while (ncap < need)
        ncap *= 2;
    void *a = realloc(*arr, (size_t)ncap * elem);
    if (!a)
        return false;
    *arr = a;
    df_mem_add(df, t, (size_t)(ncap - *cap) * elem);
    *cap = ncap;
    return true;
}

static bool grow_frags(struct mon_defrag *df, struct df_tracker *t, uint32_t need)
{
    void *a = t->frags;
    bool ok = grow(df, t, &a, &t->frags_cap, need, sizeof *t->frags);
    t->frags = a;
    return ok;
}

static bool grow_pieces(struct mon_defrag *df, struct df_tracker *t, uint32_t need)
{
    void *a = t->pieces;
    bool ok = grow(df, t, &a, &t->pieces_cap, need, sizeof *t->pieces);
    t->pieces = a;
    return ok;
}

static size_t growth_cost(uint32_t cap, uint32_t need, size_t elem)
{
    if (need <= cap)
        return 0;
    uint32_t ncap = cap ? cap : 8;
    while (ncap < need)
        ncap *= 2;
    return (size_t)(ncap - cap) * elem;
}

/* Free the stored fragments that no longer own any byte. */
static void prune(struct mon_defrag *df, struct df_tracker *t)
{
    memset(df->refs, 0, t->nfrags * sizeof *df->refs);
    for (uint32_t i = 0; i < t->npieces; i++)
        df->refs[t->pieces[i].frag]++;
    for (uint32_t i = 0; i < t->nfrags; i++) {
        if (t->frags[i] && df->refs[i] == 0) {
            df_mem_sub(df, t, df_block_charge(t->frags[i]));
            df_block_put(df, t->frags[i]);
            t->frags[i] = NULL;
        }
    }
}

static struct df_tracker *get_tracker(struct mon_defrag *df, const struct df_input *in,
                                      struct mon_decode_stats *st)
{
    uint32_t h = df_key_hash(df, &in->key);
    struct df_tracker *t = df_tracker_find(df, &in->key, h);
    if (t && df_tracker_stale(df, t, in->ts_us)) {
        /* Never let fresh fragments complete a datagram whose time is up: start over. */
        df_tracker_drop(df, t);
        df->stats.timeouts++;
        df_event(st, MON_DE_FRAG_TIMEOUT);
        t = NULL;
    }
    if (t)
        return t;
    t = df_tracker_new(df, &in->key, h, in->ts_us);
    if (!t) {
        df_expire_some(df, in->ts_us, 0, st);
        t = df_tracker_new(df, &in->key, h, in->ts_us);
    }
    return t;
}

static void memcap_drop(struct mon_defrag *df, struct mon_decode_stats *st)
{
    df->stats.memcap_drops++;
    df_event(st, MON_DE_FRAG_MEMCAP);
}

enum df_result df_feed(struct mon_defrag *df, const struct df_input *in,
                       struct mon_decode_stats *st, struct df_tracker **done)
{
    struct df_tracker *t = get_tracker(df, in, st);
    if (!t) {
        memcap_drop(df, st); /* the memcap or the tracker limit, with nothing stale to free */
        return DF_KEPT;
    }
    if (++t->nseen > df->cfg.max_frags) {
        df_event(st, MON_DE_FRAG_MAX_FRAGS);
        df_tracker_drop(df, t);
        return DF_KEPT;
    }

    uint32_t off = in->off, end = in->off + in->len;
    bool beyond = false; /* data past the datagram's end: counted once per fragment */
    if (!in->more && t->seen_last && end != t->end) {
        df_event(st, MON_DE_FRAG_INVALID); /* two last fragments disagree on the length */
        return DF_INVALID;
    }
    if (in->more && t->seen_last) {
        if (off >= t->end) {
            df_event(st, MON_DE_FRAG_INVALID);
            return DF_INVALID;
        }
        if (end > t->end) {
            beyond = true;
            end = t->end;
        }
    }
    uint32_t limit = !in->more ? end : t->seen_last ? t->end : UINT32_MAX;

    struct build b = build_pieces(df, t, in->data, off, end, limit);
    if (!b.ok) {
        df_event(st, MON_DE_FRAG_MAX_FRAGS);
        df_tracker_drop(df, t);
        return DF_KEPT;
    }

    struct df_frag *f = NULL;
    uint32_t hdr_len = off == 0 ? in->hdr_len : 0;
    if (b.won) {
        uint32_t need = hdr_len + (end - off);
        size_t cost = df_block_cost(need) +
                      growth_cost(t->frags_cap, t->nfrags + 1, sizeof *t->frags) +
                      growth_cost(t->pieces_cap, b.n, sizeof *t->pieces);
        bool fresh = t->nfrags == 0;
        if (!df_mem_fits(df, cost, fresh)) {
            df_expire_some(df, in->ts_us, 0, st); /* t itself is not stale: checked above */
            if (!df_mem_fits(df, cost, fresh)) {
                memcap_drop(df, st);
                t->nseen--; /* the fragment was never taken in */
                if (t->nfrags == 0)
                    df_tracker_drop(df, t);
                return DF_KEPT;
            }
        }
        if (!grow_frags(df, t, t->nfrags + 1) || !grow_pieces(df, t, b.n) ||
            !(f = df_block_get(df, need))) {
            memcap_drop(df, st); /* out of memory: treated as the memcap */
            t->nseen--;
            if (t->nfrags == 0)
                df_tracker_drop(df, t);
            return DF_KEPT;
        }
        f->off = off;
        f->end = end;
        f->hdr_len = hdr_len;
        f->prev_nh_off = in->prev_nh_off;
        f->nh = in->nh;
        memcpy(f->bytes, in->hdr, hdr_len);
        memcpy(f->bytes + hdr_len, in->data, end - off);
        df_mem_add(df, t, df_block_charge(f));
        t->frags[t->nfrags++] = f;
    } else if (!grow_pieces(df, t, b.n)) {
        memcap_drop(df, st); /* only when the piece list grows from a cut: never in practice */
        return DF_KEPT;
    }

    if (b.n)
        memcpy(t->pieces, df->scratch, (size_t)b.n * sizeof *t->pieces);
    t->npieces = b.n;
    if (!in->more) {
        t->seen_last = true;
        t->end = end;
    }
    if (b.overlap)
        df->stats.overlaps++;
    if (b.diff)
        df_event(st, MON_DE_FRAG_OVERLAP_DIFF);
    if (beyond || b.cut)
        df_event(st, MON_DE_FRAG_INVALID);
    prune(df, t);

    if (t->seen_last) {
        uint64_t covered = 0;
        for (uint32_t i = 0; i < t->npieces; i++)
            covered += t->pieces[i].end - t->pieces[i].off;
        if (covered == t->end) {
            *done = t;
            return DF_COMPLETE;
        }
    }
    return DF_KEPT;
}

void df_copy_payload(const struct df_tracker *t, uint8_t *dst)
{
    for (uint32_t i = 0; i < t->npieces; i++) {
        const struct df_piece *p = &t->pieces[i];
        const struct df_frag *f = t->frags[p->frag];
        memcpy(dst + p->off, frag_data(f) + (p->off - f->off), p->end - p->off);
    }
}

const struct df_frag *df_first_frag(const struct df_tracker *t)
{
    return t->npieces && t->pieces[0].off == 0 ? t->frags[t->pieces[0].frag] : NULL;
}
