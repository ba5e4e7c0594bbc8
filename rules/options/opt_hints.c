/* opt_hints.c — keywords that change no match of the rule that has them (prefilter, the
 * other one, is opt_pktprop.c's).
 *
 *   bypass;      Suricata: bypass the flow once the rule matched (a capture-offload speed-up);
 *                Osprey keeps inspecting the flow, so later alerts are those of no bypass
 *   requires: feature NAME, keyword NAME, version OP X[.Y[.Z]] [OP X…] [| OP X…] …
 *                Suricata 7.0.3+: a rule whose requirements are not met is skipped without
 *                an error (ruleset stats "skipped"). Osprey meets version requirements as
 *                Suricata OSPREY_SURICATA_COMPAT, the features in FEATURES, and the keywords
 *                it implements; any other requirement is not met. The evaluation is the rule
 *                reader's (rules/core/requires.c: it reads requires: before the other
 *                options); the row here parses and reports a malformed one.
 */
#include <string.h>

#include "opt_util.h"
#include "registry.h"
#include "requires.h"

static int parse_requires(struct rule_ctx *c, char *val)
{
    const char *bad = val;
    if (requires_eval(c, val, &bad) < 0)
        return opt_error(c, bad, "expected 'feature NAME', 'keyword NAME' or 'version OP "
                                 "X.Y.Z', got '%s'", bad);
    return 0;
}

static const struct opt_def DEFS[] = {
    {"bypass", OPT_MATCH, D_SURI, ARG_NONE, 0, NULL, true, NULL},
    {"requires", OPT_META, D_SURI, ARG_REQUIRED, 0, parse_requires, true, NULL},
};
OPT_TABLE(opt_table_hints, DEFS);
