/* plan_proto.c — the plan functions of the keywords that name application protocols:
 * service: (Snort 3) and app-layer-protocol (Suricata), and which rules are Suricata's
 * protocol-detection-only rules. */
#include <string.h>

#include "opt_eval.h"
#include "osprey_parsers.h"
#include "plan.h"
#include "registry.h"
#include "ruleset.h"

/* app-layer-protocol:[!]NAME[,mode] — the modes: unit_app.c (DET_APP_*). NAME unknown: not
 * decided yet (!unknown: decided, whichever it is). A rule that is not a firewall rule keeps
 * Suricata's legacy equivalences (dns matches a doh2 flow, doh2 a dns or http2 one:
 * osprey_app_proto_set_widen); a firewall rule compares exactly. */
static const char *app_proto_unit(const char *value, bool exact, struct det_unit *u)
{
    *u = (struct det_unit){.ops = &det_unit_appproto};
    const char *p = value;
    while (*p == ' ')
        p++;
    if (*p == '!') {
        u->app_neg = true;
        p++;
        while (*p == ' ')
            p++;
    }
    size_t n = strcspn(p, ", ");
    char name[64];
    if (n >= sizeof name)
        return "a protocol the parsers do not detect";
    memcpy(name, p, n);
    name[n] = '\0';
    /* a registered protocol's name or alias, "failed", or "unknown": the flow's protocol is
     * not decided (yet), as Suricata's ALPROTO_UNKNOWN (firewall rules accept a handshake
     * with it) */
    int id = strcmp(name, "unknown") ? osprey_app_proto_find(name) : OSPREY_APP_PROTO_UNKNOWN;
    if (id < 0)
        return "a protocol the parsers do not detect";
    osprey_app_proto_set_add(&u->app, (uint16_t)id);
    if (!exact)
        osprey_app_proto_set_widen(&u->app);
    const char *m = strchr(p + n, ',');
    if (m) {
        static const struct { const char *name; uint8_t mode; } MODES[] = {
            {"final", DET_APP_FINAL},         {"original", DET_APP_ORIGINAL},
            {"either", DET_APP_EITHER},       {"to_server", DET_APP_TO_SERVER},
            {"to_client", DET_APP_TO_CLIENT}, {"direction", DET_APP_DIRECTION}};
        m++;
        while (*m == ' ')
            m++;
        size_t mn = strcspn(m, ", ");
        for (size_t k = 0; k < sizeof MODES / sizeof MODES[0]; k++)
            if (strlen(MODES[k].name) == mn && !strncmp(m, MODES[k].name, mn))
                u->app_mode = MODES[k].mode;
    }
    return NULL;
}

/* service: (Snort 3) the flows of these services (service_compile_check: all detected). */
int plan_service(struct plan_ctx *ctx)
{
    const struct opt_words *sw = ctx->o->arg;
    struct det_unit u = {.ops = &det_unit_appproto};
    uint8_t l4;
    for (uint32_t k = 0; k < sw->n; k++)
        osprey_app_proto_set_add(&u.app, det_app_proto_of(sw->words[k], &l4));
    osprey_app_proto_set_widen(&u.app); /* (an HTTP/2 flow named doh2 is still http2's) */
    if (det_base_is_app(ctx->app_base)) {
        if (!osprey_app_proto_set_has(&u.app, det_base_proto(ctx->app_base)))
            ctx->pl->why = "a service other than the protocol of its buffers";
    } else {
        plan_add_unit(ctx, u);
    }
    return 0;
}

int plan_app_layer_protocol(struct plan_ctx *ctx)
{
    struct det_unit u;
    bool exact = ctx->r->scope != OSPREY_SCOPE_NONE; /* a firewall rule */
    if (!(ctx->pl->why = app_proto_unit(ctx->o->value, exact, &u)))
        plan_add_unit(ctx, u);
    return 0;
}

/* Suricata's protocol-detection-only ("PD-only") rule: app-layer-protocol with nothing else
 * to inspect but the direction (flow:to_server/to_client) and flowbits it sets, under a
 * header naming no application protocol. Suricata matches such a rule only on the packet
 * where protocol detection finished, not on every packet of the flow after it. */
bool plan_pd_only(const struct plan *pl, const struct osprey_rule *r)
{
    if (pl->app || pl->nitems || pl->nconds || pl->nxbits || pl->nints)
        return false;
    for (uint32_t i = 0; i < pl->nbits; i++)
        if (pl->bits[i].b->op != BITS_SET)
            return false;
    bool pd = false;
    for (uint32_t i = 0; i < pl->nunits; i++) {
        const struct det_unit *u = &pl->units[i].u;
        uint32_t o = pl->units[i].first_opt;
        if (u->ops == &det_unit_appproto && o != PLAN_HEADER &&
            !strcmp(opt_def_by_id(r->opts[o].kw)->name, "app-layer-protocol"))
            pd = true; /* (Snort 3's service: stays a packet rule's condition) */
        else if (u->ops != &det_unit_flow ||
                 (u->flow->flags & ~(uint32_t)(FLOW_TO_SERVER | FLOW_TO_CLIENT)))
            return false;
    }
    return pd;
}

/* app-layer-state:STATE is the rule's hook (make_plan: app_state_hook puts the rule under
 * that state's event): nothing to test here. '<' / '>' are refused by the keyword's check. */
int plan_app_layer_state(struct plan_ctx *ctx)
{
    (void)ctx;
    return 0;
}
