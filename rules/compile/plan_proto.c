/* plan_proto.c — the plan functions of the keywords that name application protocols:
 * service: (Snort 3) and app-layer-protocol (Suricata). */
#include <string.h>

#include "opt_eval.h"
#include "osprey_parsers.h"
#include "plan.h"

/* app-layer-protocol:[!]NAME[,mode] — the modes all mean the flow's one protocol here. */
static const char *app_proto_unit(const char *value, struct det_unit *u)
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
    int id = osprey_app_proto_find(name); /* a registered protocol's name or alias, or "failed" */
    if (id < 0)
        return "a protocol the parsers do not detect";
    osprey_app_proto_set_add(&u->app, (uint16_t)id);
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
    if (!(ctx->pl->why = app_proto_unit(ctx->o->value, &u)))
        plan_add_unit(ctx, u);
    return 0;
}
