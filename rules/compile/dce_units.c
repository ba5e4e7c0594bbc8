/* dce_units.c — dce_iface / dcerpc.iface and dce_opnum / dcerpc.opnum: tests of the DCERPC
 * transaction in force, on the parsers' fields (parsers/dcerpc: dcerpc.opnum, the interface
 * of the request's presentation context as bound and accepted, split in two 64-bit halves,
 * its major version, whether the request began with its first fragment). Semantics follow
 * Suricata's:
 *   dce_iface   the request's context is bound to that interface (accepted), its version
 *               compares as asked (<, >, =, !), and, without any_frag, the request began
 *               with PFC_FIRST_FRAG;
 *   dce_opnum   the request's opnum is one of the listed ones or in a listed range.
 * The rule runs under the DCERPC request (or response) event: app.c's det_app_match_buffer
 * gives these keywords the stub buffer's base. Also here: the byte order byte_test / byte_jump
 * / byte_extract / byte_math with `dce` read in (the PDU's data representation). */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"
#include "intern.h"
#include "opt_args.h"
#include "osprey_parsers.h"
#include "plan.h"

struct det_dce {
    struct opt_dce a;
    uint16_t f_opnum, f_hi, f_lo, f_ver, f_first;
};

static uint16_t fld(const char *name)
{
    int f = osprey_field_find(name);
    return f < 0 ? UINT16_MAX : (uint16_t)f;
}

static bool get(struct mon_ctx *ctx, struct mon_flow *f, uint16_t fl, int64_t *v)
{
    return fl != UINT16_MAX && osprey_parsers_field_at(ctx, f, fl, 0, v);
}

static bool version_ok(const struct opt_dce *a, int64_t v)
{
    switch (a->ver_op) {
    case '<': return v < a->ver;
    case '>': return v > a->ver;
    case '=': return v == a->ver;
    case '!': return v != a->ver;
    default: return true;
    }
}

static bool dce_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                     int side)
{
    (void)side;
    const struct det_dce *d = u->dce;
    int64_t v, hi, lo;
    if (!f)
        return false;
    if (!d->a.iface) {
        if (!get(ctx, f, d->f_opnum, &v))
            return false;
        for (uint32_t i = 0; i < d->a.n; i++)
            if (v >= d->a.lo[i] && v <= d->a.hi[i])
                return true;
        return false;
    }
    if (!d->a.any_frag && (!get(ctx, f, d->f_first, &v) || !v))
        return false;
    if (!get(ctx, f, d->f_hi, &hi) || !get(ctx, f, d->f_lo, &lo))
        return false;
    uint64_t want_hi = 0, want_lo = 0;
    for (int k = 0; k < 8; k++) {
        want_hi = want_hi << 8 | d->a.uuid[k];
        want_lo = want_lo << 8 | d->a.uuid[8 + k];
    }
    if ((uint64_t)hi != want_hi || (uint64_t)lo != want_lo)
        return false;
    return !d->a.ver_op || (get(ctx, f, d->f_ver, &v) && version_ok(&d->a, v));
}

static void dce_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, u->dce, sizeof *u->dce); /* zeroed before it was filled: no stray padding */
}

bool det_dce_items(const struct det_unit *u)
{
    for (uint32_t i = 0; i < u->n; i++) {
        uint8_t t = u->items[i].type;
        if ((t == PI_BYTE_TEST || t == PI_BYTE_JUMP || t == PI_BYTE_EXTRACT ||
             t == PI_BYTE_MATH) &&
            (((const struct opt_byte *)u->items[i].arg)->flags & BYTE_DCE))
            return true;
    }
    return false;
}

/* (the ids are the detect object's, looked up when it was compiled: no lookup by name on
 * the packet path, no mutable static shared by the workers) */
bool det_dce_little(const struct osprey_detect *d, struct mon_ctx *ctx, struct mon_flow *f)
{
    int64_t v;
    return d->dce_le_field >= 0 &&
           osprey_parsers_field_at(ctx, f, (uint16_t)d->dce_le_field, 0, &v) && v;
}

bool det_dce_flow(const struct osprey_detect *d, struct mon_ctx *ctx, struct mon_flow *f)
{
    return f && d->dce_proto >= 0 && osprey_parsers_app_proto(ctx, f) == (uint16_t)d->dce_proto;
}

const struct det_unit_ops det_unit_dce = {.name = "dce", .eval = dce_eval, .key = dce_key};

int plan_dce(struct plan_ctx *ctx)
{
    struct det_dce *d = calloc(1, sizeof *d);
    if (det_own(ctx->d, d) < 0) /* frees d */
        return -1;
    d->a = *(const struct opt_dce *)ctx->o->arg;
    d->f_opnum = fld("dcerpc.opnum");
    d->f_hi = fld("dcerpc.iface_hi");
    d->f_lo = fld("dcerpc.iface_lo");
    d->f_ver = fld("dcerpc.iface_version");
    d->f_first = fld("dcerpc.first_frag");
    if (d->f_opnum == UINT16_MAX) {
        ctx->pl->why = "dce keywords need the DCERPC parser";
        return 0;
    }
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_dce, .dce = d});
    return 0;
}
