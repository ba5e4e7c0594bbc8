/* opt_ids.c — sid, gid, rev: the rule's identity (implemented).
 *
 * sid is required (1..4294967295); gid defaults to 1 and rev to 0. Each may appear once. */
#include <string.h>

#include "opt_util.h"
#include "registry.h"

static int parse_id(struct rule_ctx *c, char *val, uint32_t bit, int64_t min, uint32_t *out)
{
    if (c->meta_seen & bit)
        return opt_error(c, c->kwpos, "given twice");
    c->meta_seen |= bit;
    int64_t v;
    if (parse_num(c, val, strlen(val), min, UINT32_MAX, false, &v, c->def->name) < 0)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static int parse_sid(struct rule_ctx *c, char *val)
{
    return parse_id(c, val, META_SID, 1, &c->rule->sid);
}

static int parse_gid(struct rule_ctx *c, char *val)
{
    return parse_id(c, val, META_GID, 0, &c->rule->gid);
}

static int parse_rev(struct rule_ctx *c, char *val)
{
    return parse_id(c, val, META_REV, 0, &c->rule->rev);
}

static const struct opt_def DEFS[] = {
    {"sid", OPT_META, D_ALL, ARG_REQUIRED, 0, parse_sid, true, NULL},
    {"gid", OPT_META, D_ALL, ARG_REQUIRED, 0, parse_gid, true, NULL},
    {"rev", OPT_META, D_ALL, ARG_REQUIRED, 0, parse_rev, true, NULL},
};
OPT_TABLE(opt_table_ids, DEFS);
