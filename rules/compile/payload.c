/* payload.c — evaluating a run of payload options on one buffer, with Snort/Suricata's
 * relative matching: each option may start where the previous match ended, and when a
 * relative option fails the previous content or pcre tries its next occurrence. The options'
 * own tests live beside their parsers (opt_content.c, opt_pcre.c, opt_compare.c). */
#include <stdlib.h>

#include "asn1.h"
#include "base64.h"
#include "entropy.h"
#include "detect_int.h"
#include "opt_eval.h"

/* Bounded like Suricata's inspection recursion limit: crafted payloads with many partial
 * matches must not make one rule cost quadratic time or worse. */
#define RUN_BUDGET 3000
#define RUN_TRACKED 16 /* items whose absence is remembered (absent_from) */

/* Positions are the buffer's (a stream's count from its first byte): buf holds the bytes
 * from origin to len, and nothing before origin can match any more. */
struct run {
    const struct det_pitem *it;
    uint32_t n;
    const uint8_t *buf;     /* the byte at position origin */
    int64_t origin, len;
    void *md;
    uint32_t budget;
    /* [i]: the smallest previous-match end from which content i, relative and without within,
     * was searched to the buffer's end in vain: from any later end it is not there either */
    int64_t absent_from[RUN_TRACKED];
    /* [i]: the smallest previous-match end from which content i (whose window does not end
     * relative to it: no within) and everything after it failed at every occurrence. The
     * rest of a run without byte variables depends only on where content i matched, and a
     * later end leaves content i fewer occurrences, so from any later end it fails too:
     * backtracking over many partial matches (content:"<"; content:".length"; distance:0;
     * pcre …) then costs one pass over the buffer instead of one per earlier occurrence */
    int64_t fail_from[RUN_TRACKED];
    bool memo;                   /* no byte variables in the run: fail_from holds */
    int64_t vars[BYTE_MAX_VARS]; /* byte_extract / byte_math values, by number */
    struct det_caps **caps;      /* where a capturing pcre records its groups (captures.c) */
};

/* The values of the variables item i names (0 where it names none); false: it names none. */
static bool var_vals(const struct run *r, uint32_t i, int64_t v[BYTE_VAR_FIELDS])
{
    bool any = false;
    for (int f = 0; f < BYTE_VAR_FIELDS; f++) {
        uint8_t k = r->it[i].var[f];
        v[f] = k ? r->vars[k - 1] : 0;
        any |= k != 0;
    }
    return any;
}

static bool run_from(struct run *r, uint32_t i, int64_t prev_end);
static bool byte_item(struct run *r, uint32_t i, int64_t prev_end);

/* asn1 (relative_offset) joins the run but, as in Suricata, its failure does not make the
 * option before it try its next occurrence. */
static bool next_is_relative(const struct run *r, uint32_t i)
{
    return i + 1 < r->n && r->it[i + 1].relative && r->it[i + 1].type != PI_ASN1;
}

static bool content(struct run *r, uint32_t i, int64_t prev_end)
{
    const struct opt_content *ct = r->it[i].arg;
    struct opt_content bound;
    int64_t s, e, v[BYTE_VAR_FIELDS];
    if (var_vals(r, i, v)) {
        if (!content_bind(ct, v, &bound))
            return false;
        ct = &bound;
    }
    bool fits = content_window(ct, prev_end, r->len, &s, &e);
    if (s < r->origin)
        s = r->origin;
    int64_t o = r->origin, last = e - ct->len - o; /* content_find: window offsets */
    if (ct->negated) {
        /* holds when absent from its window; it moves nothing */
        if (fits && content_find(ct, r->buf, s - o, last) >= 0)
            return false;
        return run_from(r, i + 1, prev_end);
    }
    bool memo = r->memo && i < RUN_TRACKED && !(ct->has & CONTENT_WITHIN) && !ct->endswith;
    if (memo && prev_end >= r->fail_from[i])
        return false;
    if (!fits)
        return false;
    int64_t w = content_find(ct, r->buf, s - o, last);
    /* a relative content without within looks up to the buffer's end from prev_end +
     * distance: absent from there, absent from any later prev_end too (retries of the
     * content before it only move forward) */
    if (w < 0 && r->it[i].relative && !(ct->has & CONTENT_WITHIN) && !ct->endswith &&
        ct == r->it[i].arg && i < RUN_TRACKED && prev_end < r->absent_from[i])
        r->absent_from[i] = prev_end;
    for (int64_t at = w + o; w >= 0; w = content_find(ct, r->buf, at + 1 - o, last), at = w + o) {
        if (run_from(r, i + 1, at + ct->len))
            return true;
        if (!next_is_relative(r, i) || r->budget > RUN_BUDGET)
            break; /* what follows does not depend on where this one matched */
        if (i + 1 < RUN_TRACKED && (at + 1 + ct->len >= r->absent_from[i + 1] ||
                                    at + 1 + ct->len >= r->fail_from[i + 1]))
            break; /* the next content is not (or fails) in the rest of the buffer */
    }
    if (memo && r->budget <= RUN_BUDGET && prev_end < r->fail_from[i])
        r->fail_from[i] = prev_end; /* failed at every occurrence, not cut by the budget */
    return false;
}

/* A relative pcre sees the buffer from the previous match's end on, as its subject (so ^
 * anchors there, as in Suricata); a retry starts one past the previous match's start. */
static bool pcre(struct run *r, uint32_t i, int64_t prev_end)
{
    const struct opt_pcre *pc = r->it[i].arg;
    int64_t base = pc->relative ? prev_end : 0;
    if (base < r->origin)
        base = r->origin;
    if (base > r->len)
        return pc->negated && run_from(r, i + 1, prev_end);
    const uint8_t *subj = r->buf + (base - r->origin);
    uint32_t slen = (uint32_t)(r->len - base), from = 0, ms, me;
    if (pc->negated) {
        if (pcre_search(r->it[i].code, r->md, subj, slen, 0, &ms, &me))
            return false;
        return run_from(r, i + 1, prev_end);
    }
    while (from <= slen && pcre_search(r->it[i].code, r->md, subj, slen, from, &ms, &me)) {
        const struct det_pitem *pi = &r->it[i];
        size_t ov[2 * 16];
        uint32_t nov = pi->cap && r->caps ? pcre_groups(r->md, ov, 16) : 0;
        if (run_from(r, i + 1, base + me)) {
            if (nov) /* the run matched with this occurrence: its groups are the values */
                det_caps_record(r->caps, pi, subj, ov, nov);
            return true;
        }
        if (!next_is_relative(r, i) || r->budget > RUN_BUDGET)
            return false;
        from = ms + 1;
    }
    return false;
}

static bool byte_item(struct run *r, uint32_t i, int64_t prev_end)
{
    const struct opt_byte *b = r->it[i].arg;
    struct opt_byte bound;
    int64_t v[BYTE_VAR_FIELDS], to, val;
    if (var_vals(r, i, v)) {
        if (!byte_bind(b, v, &bound))
            return false;
        b = &bound;
    }
    /* they read the window: positions shift by its origin (from_beginning jumps count from
     * the window's start once the stream outgrew it) */
    int64_t o = r->origin, pe = prev_end - o;
    uint32_t wlen = (uint32_t)(r->len - o);
    struct opt_byte shifted;
    if (o && !(b->flags & BYTE_RELATIVE)) {
        shifted = *b;
        shifted.offset -= o;
        if (shifted.offset < 0)
            return false; /* before the window */
        b = &shifted;
    }
    switch (r->it[i].type) {
    case PI_BYTE_TEST:
        /* a test: the position stays where the previous match left it */
        return byte_test_eval(b, r->buf, wlen, pe) && run_from(r, i + 1, prev_end);
    case PI_BYTE_JUMP:
        return byte_jump_eval(b, r->buf, wlen, pe, &to) && run_from(r, i + 1, to + o);
    case PI_BYTE_EXTRACT:
    case PI_BYTE_MATH:
        /* defines a variable for the options after it; a backtrack re-evaluates it */
        if (!(r->it[i].type == PI_BYTE_EXTRACT
                  ? byte_extract_eval(b, r->buf, wlen, pe, &val, &to)
                  : byte_math_eval(b, r->buf, wlen, pe, &val, &to)))
            return false;
        r->vars[r->it[i].def - 1] = val;
        return run_from(r, i + 1, to + o);
    }
    return false;
}

/* base64_decode: decode from (relative: the previous match's end, else the start) + offset,
 * `bytes` characters or to the end, as RFC 4648 (up to the first character outside the
 * alphabet); nothing decoded fails. The items after it (base64_data) run on the decoded
 * bytes, positions from 0; the buffer is restored for a backtrack. */
static bool base64_item(struct run *r, uint32_t i, int64_t prev_end)
{
    const struct opt_base64 *b = r->it[i].arg;
    int64_t from = (b->relative ? prev_end : 0) + b->offset;
    if (from < r->origin || from >= r->len)
        return false;
    int64_t n = r->len - from;
    if (b->bytes && b->bytes < n)
        n = b->bytes;
    /* most encoded fields are small: decode on the stack, allocate only for a long one */
    uint8_t small[2048];
    size_t need = (size_t)n * 3 / 4 + 3;
    uint8_t *dec = need <= sizeof small ? small : malloc(need);
    if (!dec)
        return false;
    uint32_t dn = b64_decode(r->buf + (from - r->origin), (uint32_t)n, dec, B64_RFC4648);
    struct run saved = *r;
    r->buf = dec;
    r->origin = 0;
    r->len = dn;
    for (int k = 0; k < RUN_TRACKED; k++)
        r->absent_from[k] = r->fail_from[k] = INT64_MAX;
    bool ok = dn > 0 && run_from(r, i + 1, 0);
    uint32_t budget = r->budget;
    *r = saved;
    r->budget = budget;
    if (dec != small)
        free(dec);
    return ok;
}

/* ber_data / ber_skip (Snort 3): the element at the cursor — one identifier octet, a
 * definite length (short, or long in 1-4 octets) — must be of the type (ber_skip optional:
 * else nothing moves); ber_data moves into its contents, ber_skip past them (which must be
 * in the buffer). */
static bool ber_item(struct run *r, uint32_t i, int64_t prev_end)
{
    const struct opt_ber *b = r->it[i].arg;
    int64_t at = prev_end < r->origin ? r->origin : prev_end, end = r->len;
    const uint8_t *p = r->buf + (at - r->origin); /* p[k]: the byte at position at + k */
    bool ok = at + 2 <= end && p[0] == b->type;
    int64_t len = 0, data = at + 2;
    if (ok && p[1] & 0x80) {
        int k = p[1] & 0x7f;
        ok = k >= 1 && k <= 4 && data + k <= end;
        for (int j = 0; ok && j < k; j++)
            len = len << 8 | p[2 + j];
        data += k;
    } else if (ok) {
        len = p[1];
    }
    if (ok && b->skip)
        ok = data + len <= end;
    if (!ok)
        return b->skip && b->optional && run_from(r, i + 1, prev_end);
    return run_from(r, i + 1, b->skip ? data + len : data);
}

static bool run_from(struct run *r, uint32_t i, int64_t prev_end)
{
    if (i == r->n)
        return true;
    if (++r->budget > RUN_BUDGET)
        return false;
    switch (r->it[i].type) {
    case PI_CONTENT:
        return content(r, i, prev_end);
    case PI_PCRE:
        return pcre(r, i, prev_end);
    case PI_BASE64:
        return base64_item(r, i, prev_end);
    case PI_ENTROPY:
        /* the whole buffer from its start: a stream window that lost its first bytes has
         * not the same entropy, so it does not match */
        return r->origin == 0 && entropy_match(r->it[i].arg, r->buf, (uint32_t)r->len) &&
               run_from(r, i + 1, prev_end);
    case PI_ISDATAAT: {
        const struct opt_isdataat *d = r->it[i].arg;
        struct opt_isdataat bound;
        int64_t v[BYTE_VAR_FIELDS];
        if (var_vals(r, i, v)) {
            if (!isdataat_bind(d, v, &bound))
                return false;
            d = &bound;
        }
        return isdataat_match(d, r->len, prev_end) && run_from(r, i + 1, prev_end);
    }
    case PI_BER:
        return ber_item(r, i, prev_end);
    case PI_ASN1: /* a test: the position stays */
        return asn1_match(r->it[i].arg, r->buf, r->origin, r->len, prev_end) &&
               run_from(r, i + 1, prev_end);
    default:
        return byte_item(r, i, prev_end);
    }
    return false;
}

bool det_payload_match(const struct det_unit *u, const uint8_t *buf, uint32_t len,
                       uint64_t origin, void *md, struct det_caps **caps)
{
    struct run r = {.it = u->items, .n = u->n, .buf = buf, .origin = (int64_t)origin,
                    .len = (int64_t)origin + len, .md = md, .caps = caps, .memo = true};
    for (int k = 0; k < RUN_TRACKED; k++)
        r.absent_from[k] = r.fail_from[k] = INT64_MAX;
    for (uint32_t i = 0; i < u->n && r.memo; i++) { /* byte variables: paths differ in values */
        r.memo &= !u->items[i].def;
        for (int f = 0; f < BYTE_VAR_FIELDS; f++)
            r.memo &= !u->items[i].var[f];
    }
    return run_from(&r, 0, 0);
}
