/* opt_target.c — target:src_ip|dest_ip (Suricata; implemented): which side is the target. */
#include <string.h>

#include "opt_util.h"
#include "registry.h"

static int parse_target(struct rule_ctx *c, char *val)
{
    static const char *const SIDES[] = {"src_ip", "dest_ip", NULL};
    int side = parse_choice(c, val, strlen(val), SIDES, "target");
    if (side < 0)
        return -1;
    /* The same target twice is harmless (ET has it); two different ones contradict. */
    uint32_t bit = side ? META_TARGET_DST : META_TARGET;
    if (c->meta_seen & (META_TARGET | META_TARGET_DST) & ~bit)
        return opt_error(c, val, "contradicts the earlier target");
    c->meta_seen |= bit;
    return 0;
}

static const struct opt_def DEFS[] = {
    {"target", OPT_META, D_SURI, ARG_REQUIRED, 0, parse_target, true, NULL},
};
OPT_TABLE(opt_table_target, DEFS);
