/* opt_reference.c — reference:SYSTEM,ID (implemented).
 *
 * The system must be one of reference.config's (when one is configured), ignoring case; the
 * id is everything after the first comma. */
#include <string.h>

#include "opt_util.h"
#include "registry.h"
#include "ruleset.h"
#include "text.h"

static int parse_reference(struct rule_ctx *c, char *val)
{
    const char *comma = strchr(val, ',');
    if (comma == NULL)
        return opt_error(c, val, "expected 'SYSTEM,ID'");
    const char *sys = val, *se = rtrim(val, comma);
    const char *id = skip_ws(comma + 1, comma + 1 + strlen(comma + 1));
    if (se == sys)
        return opt_error(c, val, "missing reference system");
    if (*id == '\0')
        return opt_error(c, comma, "missing reference id");
    if (!is_name(sys, (size_t)(se - sys), NULL))
        return opt_error(c, val, "invalid reference system '%.*s'", (int)(se - sys), sys);
    struct opt_reference *r = opt_arg_new(c, sizeof *r);
    if (r == NULL)
        return -1;
    r->id = id;
    r->system = opt_strdup(c, sys, (size_t)(se - sys));
    if (r->system == NULL)
        return -1;
    if (!c->rs->check_refs)
        return 0;
    const struct refsys *rf = conf_refsys(c->rs, sys, (size_t)(se - sys));
    if (rf == NULL) {
        rule_semantic_error(c, val, "unknown reference system",
                            "unknown reference system '%.*s' (not in the reference file)",
                            (int)(se - sys), sys);
        return 0;
    }
    r->system = rf->name;
    r->url = rf->url;
    return 0;
}

static const struct opt_def DEFS[] = {
    {"reference", OPT_META, D_ALL, ARG_REQUIRED, 0, parse_reference, true, NULL},
};
OPT_TABLE(opt_table_reference, DEFS);
