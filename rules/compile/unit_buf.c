/* unit_buf.c — the units on an application buffer that are not payload runs: its length
 * (urilen, bsize, bufferlen), its absence (absent), its value in a dataset (dataset, datarep).
 * Each type's evaluation beside its interning key and its ops. */
#include "dataset.h"
#include "detect_int.h"
#include "intern.h"
#include "opt_eval.h"

/* ---- urilen, bsize, bufferlen ---- */

static bool buflen_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                        int side)
{
    (void)side;
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    uint32_t len;
    uint64_t origin;
    if (!df)
        return false;
    const uint8_t *b =
        det_app_buffer_at(df->w, ctx, f, u->base, u->ob, u->xf, 1, 0, &len, &origin);
    if (!b)
        return u->or_absent;
    for (uint32_t i = 1; b; i++) { /* a multi-buffer: any element */
        if (cmp_match(u->cmp, len))
            return true;
        b = det_app_buffer_at(df->w, ctx, f, u->base, u->ob, u->xf, 1, i, &len, &origin);
    }
    return false;
}

static void buflen_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, &u->cmp->op, sizeof u->cmp->op);
    buf_put(k, &u->cmp->lo, sizeof u->cmp->lo);
    buf_put(k, &u->cmp->hi, sizeof u->cmp->hi);
}

const struct det_unit_ops det_unit_buflen = {
    .name = "buffer length", .eval = buflen_eval, .key = buflen_key};

/* ---- absent ---- */

static bool absent_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                        int side)
{
    (void)side;
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    uint32_t len;
    uint64_t origin;
    if (!df)
        return false;
    return !det_app_buffer_at(df->w, ctx, f, u->base, u->ob, u->xf, 1, 0, &len, &origin);
}

static void absent_key(struct buf *k, const struct det_unit *u)
{
    (void)k, (void)u; /* the buffer (ob, xf) is keyed with every unit */
}

const struct det_unit_ops det_unit_absent = {
    .name = "absent", .eval = absent_eval, .key = absent_key};

/* ---- dataset, datarep ---- */

static bool dataset_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                         int side)
{
    if (u->addr) { /* ip.src, ip.dst: 4 bytes for IPv4, 16 for IPv6 */
        const struct mon_packet *p = mon_getlastpkt(ctx);
        if (!p || !p->ipver)
            return false;
        const struct mon_addr *a = u->addr == 1 ? &p->src : &p->dst;
        return det_dataset_match(u->set, u->ds, a->b, p->ipver == 4 ? 4 : 16);
    }
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    uint32_t len;
    uint64_t origin;
    if (!df)
        return false;
    const uint8_t *buf =
        u->kind == DK_APP
            ? det_app_buffer(df->w, ctx, f, u->base, u->ob, u->xf, 1, &len, &origin)
            : det_buffer(ctx, f, side, u->kind, &len, &origin);
    return buf && det_dataset_match(u->set, u->ds, buf, len);
}

static void dataset_key(struct buf *k, const struct det_unit *u)
{
    /* one unit per option (its set and address follow from it): a set command changes the
     * set each time it runs */
    buf_put(k, &u->ds, sizeof u->ds);
}

const struct det_unit_ops det_unit_dataset = {
    .name = "dataset", .eval = dataset_eval, .key = dataset_key};
