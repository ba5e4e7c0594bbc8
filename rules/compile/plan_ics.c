/* plan_ics.c — the plans of the SCADA protocols' keywords (opt_modbus.c, opt_dnp3.c,
 * opt_enip.c): each a comparison, or several that must all hold, on the parsers' fields,
 * one det_unit_field each (unit_app.c). A keyword whose name is not its field's (dnp3_func
 * reads dnp3.func, cip_service enip.cip_path, enip_command enip.command) is mapped here. */
#include <string.h>

#include "detect_int.h"
#include "opt_args.h"
#include "osprey_parsers.h"
#include "plan.h"

/* modbus: every setting's comparison on its field */
int plan_fields(struct plan_ctx *ctx)
{
    const struct opt_fields *x = ctx->o->arg;
    for (uint8_t i = 0; i < x->n; i++)
        if (x->f[i].field < 0) {
            ctx->pl->why = "a field no parser registers";
            return 0;
        }
    for (uint8_t i = 0; i < x->n; i++)
        plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_field, .cmp = &x->f[i].cm,
                                             .field = x->f[i].field});
    return 0;
}

static const struct {
    const char *keyword, *field;
} NAMES[] = {
    {"cip_service", "enip.cip_path"},
    {"dnp3_func", "dnp3.func"},
    {"dnp3_ind", "dnp3.ind"},
    {"dnp3_obj", "dnp3.obj"},
    {"enip_command", "enip.command"},
};

/* dnp3_func, dnp3_ind, dnp3_obj, enip_command, cip_service: one comparison on the field the
 * keyword reads */
int plan_named_field(struct plan_ctx *ctx)
{
    const char *field = NULL;
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (!strcmp(NAMES[i].keyword, ctx->name))
            field = NAMES[i].field;
    int fld = field ? osprey_field_find(field) : -1;
    if (fld < 0) {
        ctx->pl->why = "a field no parser registers";
        return 0;
    }
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_field, .cmp = ctx->o->arg,
                                         .field = fld});
    return 0;
}
