/* opt_classtype.c — classtype:NAME and priority:N (implemented).
 *
 * The classtype must be one of classification.config's (when one is configured); it gives the
 * rule its priority unless priority: says otherwise. */
#include <string.h>

#include "opt_util.h"
#include "registry.h"
#include "ruleset.h"

static int parse_classtype(struct rule_ctx *c, char *val)
{
    if (c->meta_seen & META_CLASSTYPE)
        return opt_error(c, c->kwpos, "given twice");
    c->meta_seen |= META_CLASSTYPE;
    size_t n = strlen(val);
    if (!is_name(val, n, NULL))
        return opt_error(c, val, "invalid classtype name '%s'", val);
    c->rule->classtype = val;
    if (!c->rs->check_classes)
        return 0;
    const struct classtype *ct = conf_classtype(c->rs, val, n);
    if (ct == NULL) {
        rule_semantic_error(c, val, "unknown classtype",
                            "unknown classtype '%s' (not in the classification file)", val);
        return 0;
    }
    c->rule->classtype = ct->name;
    if (!(c->meta_seen & META_PRIORITY))
        c->rule->priority = ct->priority;
    return 0;
}

static int parse_priority(struct rule_ctx *c, char *val)
{
    if (c->meta_seen & META_PRIORITY)
        return opt_error(c, c->kwpos, "given twice");
    c->meta_seen |= META_PRIORITY;
    int64_t v;
    if (parse_num(c, val, strlen(val), 1, 255, false, &v, "priority") < 0)
        return -1;
    c->rule->priority = (int32_t)v;
    return 0;
}

static const struct opt_def DEFS[] = {
    {"classtype", OPT_META, D_ALL, ARG_REQUIRED, 0, parse_classtype, true, NULL},
    {"priority", OPT_META, D_ALL, ARG_REQUIRED, 0, parse_priority, true, NULL},
};
OPT_TABLE(opt_table_classtype, DEFS);
