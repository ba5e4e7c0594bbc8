/* unit_payload.c — the payload unit: a run of payload options (content, pcre, isdataat,
 * byte_*, base64_decode, entropy, asn1) on one buffer. Its evaluation (the buffer it reads,
 * multi-buffer elements), its interning key and the copy it keeps; payload.c runs the items. */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"
#include "intern.h"
#include "opt_eval.h"
#include "pkt_units.h"

static bool payload_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                         int side)
{
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    uint32_t len;
    if (!df)
        return false;
    uint64_t origin = 0;
    const uint8_t *buf;
    if (det_dce_items(u)) { /* byte_* with dce: DCERPC's stub only (as Suricata, dce makes
                               the rule a dcerpc one), in its PDU's byte order */
        if (!det_dce_flow(df->w->d, ctx, f))
            return false;
        byte_dce_little = det_dce_little(df->w->d, ctx, f);
    }
    if (u->kind == DK_APP)
        buf = det_app_buffer(df->w, ctx, f, u->base, u->ob, u->xf, 1, &len, &origin);
    else if (det_ob_is_hdr(u->ob)) /* ipv4.hdr, tcp.hdr … of the packet */
        buf = det_hdr_buffer(mon_getlastpkt(ctx), u->ob, &len);
    else
        buf = det_buffer(ctx, f, side, u->kind, &len, &origin);
    if (u->kind == DK_APP && det_app_multi(df->w->d, u->ob)) {
        /* Suricata's multiple buffer matching: the run matches within one element */
        if (!buf)
            return u->or_absent;
        for (uint32_t i = 1; buf; i++) {
            if (det_payload_match(u, buf, len, origin, df->w->md, &df->w->caps))
                return true;
            buf = det_app_buffer_at(df->w, ctx, f, u->base, u->ob, u->xf, 1, i, &len,
                                    &origin);
        }
        return false;
    }
    /* as Suricata, payload options never inspect a packet without payload (a rule of
     * negated contents only would match every bare ACK) */
    if (u->kind == DK_PKT && !len)
        return false;
    if (!buf)
        return u->or_absent;
    return det_payload_match(u, buf, len, origin, df->w->md, &df->w->caps);
}

static void key_content(struct buf *k, const struct opt_content *ct)
{
    /* everything evaluation reads, nothing it does not (fast_pattern is the mpm's business) */
    uint8_t fl[5] = {ct->negated, ct->nocase, ct->startswith, ct->endswith, ct->has};
    buf_put(k, fl, sizeof fl);
    int32_t pos[4] = {ct->depth, ct->offset, ct->distance, ct->within};
    buf_put(k, pos, sizeof pos);
    buf_put(k, &ct->len, sizeof ct->len);
    buf_put(k, ct->pattern, ct->len);
}

static void key_pitem(struct buf *k, const struct det_pitem *pi)
{
    buf_put(k, &pi->type, 1);
    buf_put(k, &pi->decoded, 1);
    if (pi->type == PI_BASE64) {
        const struct opt_base64 *b = pi->arg;
        buf_put(k, b, sizeof *b);
    } else if (pi->type == PI_ENTROPY) {
        const struct opt_entropy *e = pi->arg;
        buf_put(k, &e->bytes, sizeof e->bytes);
        buf_put(k, &e->offset, sizeof e->offset);
        buf_put(k, &e->op, 1);
        buf_put(k, &e->negated, 1);
        buf_put(k, &e->lo, sizeof e->lo);
        buf_put(k, &e->hi, sizeof e->hi);
    } else if (pi->type == PI_CONTENT) {
        key_content(k, pi->arg);
    } else if (pi->type == PI_PCRE) {
        const struct opt_pcre *pc = pi->arg;
        uint8_t fl[2] = {pc->negated, pc->relative};
        buf_put(k, fl, sizeof fl);
        buf_put(k, &pc->pcre2_options, sizeof pc->pcre2_options);
        buf_put(k, &pc->len, sizeof pc->len);
        buf_put(k, pc->regex, pc->len);
        if (pc->capture) /* the variables it sets (captures.c) */
            buf_puts(k, pc->capture);
    } else if (pi->type == PI_ISDATAAT) {
        const struct opt_isdataat *d = pi->arg;
        uint8_t fl[2] = {d->negated, d->relative};
        buf_put(k, fl, sizeof fl);
        buf_put(k, &d->n, sizeof d->n);
    } else if (pi->type == PI_BER) {
        const struct opt_ber *b = pi->arg;
        uint8_t fl[3] = {b->type, b->skip, b->optional};
        buf_put(k, fl, sizeof fl);
    } else if (pi->type == PI_ASN1) {
        const struct opt_asn1 *a = pi->arg;
        uint8_t fl[5] = {a->bitstring_overflow, a->double_overflow, a->has_oversize,
                         a->has_absolute, a->has_relative};
        buf_put(k, fl, sizeof fl);
        buf_put(k, &a->oversize_length, sizeof a->oversize_length);
        buf_put(k, &a->offset, sizeof a->offset);
    } else {
        /* byte_test/_jump/_extract/_math: every field evaluation reads */
        const struct opt_byte *b = pi->arg;
        buf_put(k, &b->bytes, sizeof b->bytes);
        buf_put(k, &b->flags, sizeof b->flags);
        buf_put(k, &b->base, sizeof b->base);
        buf_put(k, b->op, sizeof b->op);
        buf_put(k, &b->value, sizeof b->value);
        buf_put(k, &b->offset, sizeof b->offset);
        buf_put(k, &b->multiplier, sizeof b->multiplier);
        buf_put(k, &b->post_offset, sizeof b->post_offset);
        buf_put(k, &b->bitmask, sizeof b->bitmask);
        buf_put(k, &b->align, sizeof b->align);
        buf_put(k, &b->rvalue, sizeof b->rvalue);
    }
    buf_put(k, pi->var, sizeof pi->var);
    buf_put(k, &pi->def, sizeof pi->def);
}

static void payload_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, &u->n, sizeof u->n);
    for (uint32_t i = 0; i < u->n; i++)
        key_pitem(k, &u->items[i]);
}

static int keep_code(struct osprey_detect *d, void *code)
{
    if (d->ncodes == d->cap_codes) {
        uint32_t cap = d->cap_codes ? d->cap_codes * 2 : 64;
        void **c = realloc(d->codes, cap * sizeof *c);
        if (!c)
            return -1;
        d->codes = c;
        d->cap_codes = cap;
    }
    d->codes[d->ncodes++] = code;
    return 0;
}

/* The items must outlive the plan; regexes are compiled once per distinct unit. */
static int payload_own(struct osprey_detect *d, struct det_unit *v)
{
    struct det_pitem *items = malloc(v->n * sizeof *items);
    if (!items || det_own(d, items) < 0)
        return -1;
    memcpy(items, v->items, v->n * sizeof *items);
    for (uint32_t i = 0; i < v->n; i++)
        if (items[i].type == PI_PCRE) {
            if (!(items[i].code = pcre_compile_code(items[i].arg)) ||
                keep_code(d, items[i].code) < 0) {
                pcre_free_code(items[i].code);
                return -1;
            }
            if (det_capspec_build(d, &items[i]) < 0)
                return -1;
        }
    v->items = items;
    return 0;
}

const struct det_unit_ops det_unit_payload = {
    .name = "payload", .eval = payload_eval, .key = payload_key, .own = payload_own,
    .gate_safe = true};
