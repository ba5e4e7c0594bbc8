/* unit_app.c — the units on what the parsers know of a flow besides its buffers: the flow's
 * application protocol (the rule header's, app-layer-protocol, service) and the DNS header
 * fields (dns.opcode, dns.rcode, dns.rrtype). Each type's evaluation beside its interning key
 * and its ops. */
#include "detect_int.h"
#include "intern.h"
#include "opt_eval.h"
#include "osprey_parsers.h"

/* ---- app_proto ---- */

static bool appproto_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                          int side)
{
    (void)side;
    if (!f)
        return false;
    enum osprey_app_proto a = osprey_parsers_app_proto(ctx, f);
    bool in = (u->app >> a) & 1;
    /* negated: the protocol must be known (detection finished) and another one */
    return u->app_neg ? a != OSPREY_APP_UNKNOWN && !in : in;
}

static void appproto_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, &u->app, sizeof u->app);
    buf_put(k, &u->app_neg, 1);
}

/* "app_proto http", "app_proto !tls|dns" */
static void appproto_dump(struct buf *out, const struct det_unit *u)
{
    buf_puts(out, u->app_neg ? "app_proto !" : "app_proto ");
    const char *sep = "";
    for (unsigned a = 0; a < 8 * sizeof u->app; a++)
        if ((u->app >> a) & 1) {
            buf_puts(out, sep);
            buf_puts(out, osprey_app_proto_name((enum osprey_app_proto)a));
            sep = "|";
        }
}

const struct det_unit_ops det_unit_appproto = {
    .name = "app-layer-protocol", .eval = appproto_eval, .key = appproto_key,
    .dump = appproto_dump};

/* ---- dns.opcode, dns.rcode, dns.rrtype ---- */

static bool dnshdr_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                        int side)
{
    (void)side;
    struct osprey_dns_info di;
    if (!f || !osprey_parsers_dns_info(ctx, f, &di))
        return false;
    if (u->field == DNS_F_RRTYPE) {
        /* any question's type; in a response, any answer's too (as Suricata 8) */
        for (uint32_t i = 0; i < di.nqueries; i++)
            if (cmp_match(u->cmp, di.queries[i].type))
                return true;
        for (uint32_t i = 0; di.response && i < di.nanswers; i++)
            if (cmp_match(u->cmp, di.answers[i].type))
                return true;
        return false;
    }
    return cmp_match(u->cmp, u->field == DNS_F_OPCODE ? (di.flags >> 11) & 0xf : di.rcode);
}

static void dnshdr_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, &u->field, sizeof u->field);
    buf_put(k, &u->cmp->op, sizeof u->cmp->op);
    buf_put(k, &u->cmp->lo, sizeof u->cmp->lo);
    buf_put(k, &u->cmp->hi, sizeof u->cmp->hi);
}

const struct det_unit_ops det_unit_dnshdr = {
    .name = "dns header", .eval = dnshdr_eval, .key = dnshdr_key};
