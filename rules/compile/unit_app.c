/* unit_app.c — the units on what the parsers know of a flow besides its buffers: the flow's
 * application protocol (the rule header's, app-layer-protocol, service: a set of registry
 * ids) and the parsers' integer fields (dns.opcode, dns.rcode, dns.rrtype). Each type's
 * evaluation beside its interning key and its ops. */
#include "detect_int.h"
#include "intern.h"
#include "opt_eval.h"
#include "osprey_parsers.h"

/* ---- app_proto ---- */

static bool appproto_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                          int side)
{
    if (!f)
        return false;
    uint16_t a = osprey_parsers_app_proto_named(ctx, f);
    uint16_t orig = osprey_parsers_app_proto_orig(ctx, f);
    if (orig == OSPREY_APP_PROTO_UNKNOWN)
        orig = a; /* never changed: the original is the current one */
    bool in;
    switch (u->app_mode) {
    case DET_APP_ORIGINAL:
        in = osprey_app_proto_set_has(&u->app, a = orig);
        break;
    case DET_APP_TO_SERVER:
    case DET_APP_TO_CLIENT:
    case DET_APP_DIRECTION: {
        int dir = u->app_mode == DET_APP_TO_SERVER   ? 0
                  : u->app_mode == DET_APP_TO_CLIENT ? 1
                  : det_to_server(side, u->base)     ? 0
                                                     : 1;
        in = osprey_app_proto_set_has(&u->app, a = osprey_parsers_app_proto_dir(ctx, f, dir));
        break;
    }
    case DET_APP_EITHER:
        in = osprey_app_proto_set_has(&u->app, a) || osprey_app_proto_set_has(&u->app, orig) ||
             osprey_app_proto_set_has(&u->app, osprey_parsers_app_proto_dir(ctx, f, 0)) ||
             osprey_app_proto_set_has(&u->app, osprey_parsers_app_proto_dir(ctx, f, 1));
        break;
    default:
        in = osprey_app_proto_set_has(&u->app, a);
    }
    /* negated: the protocol must be known (detection finished) and another one (for
     * !unknown: any known one) */
    return u->app_neg ? a != OSPREY_APP_PROTO_UNKNOWN && !in : in;
}

static void appproto_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, &u->app, sizeof u->app);
    buf_put(k, &u->app_neg, 1);
    buf_put(k, &u->app_mode, 1);
}

/* "app_proto http", "app_proto !tls|dns", "app_proto,original http1" */
static void appproto_dump(struct buf *out, const struct det_unit *u)
{
    buf_puts(out, "app_proto");
    static const char *const MODE[] = {[DET_APP_ORIGINAL] = ",original",
                                       [DET_APP_EITHER] = ",either",
                                       [DET_APP_TO_SERVER] = ",to_server",
                                       [DET_APP_TO_CLIENT] = ",to_client",
                                       [DET_APP_DIRECTION] = ",direction"};
    buf_puts(out, u->app_mode < sizeof MODE / sizeof MODE[0] && MODE[u->app_mode]
                      ? MODE[u->app_mode]
                      : "");
    buf_puts(out, u->app_neg ? " !" : " ");
    const char *sep = "";
    for (uint16_t a = 0; a < OSPREY_APP_PROTO_MAX; a++)
        if (osprey_app_proto_set_has(&u->app, a)) {
            const char *name = osprey_app_proto_name(a);
            buf_puts(out, sep);
            buf_puts(out, name ? name : "unknown");
            sep = "|";
        }
}

const struct det_unit_ops det_unit_appproto = {
    .name = "app-layer-protocol", .eval = appproto_eval, .key = appproto_key,
    .dump = appproto_dump};

/* ---- dns.opcode, dns.rcode, dns.rrtype: a parsers' field ---- */

/* Any element of the field (dns.rrtype: every question's type, a response's answers' too);
 * false when the flow's transaction has none (another protocol's field). */
static bool field_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                       int side)
{
    (void)side;
    int64_t v;
    for (uint32_t i = 0; f && osprey_parsers_field_at(ctx, f, (uint16_t)u->field, i, &v); i++)
        if (cmp_match(u->cmp, v))
            return true;
    return false;
}

static void field_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, &u->field, sizeof u->field);
    buf_put(k, &u->cmp->op, sizeof u->cmp->op);
    buf_put(k, &u->cmp->lo, sizeof u->cmp->lo);
    buf_put(k, &u->cmp->hi, sizeof u->cmp->hi);
}

const struct det_unit_ops det_unit_field = {
    .name = "parsers field", .eval = field_eval, .key = field_key};
