/* load.c — loading the rules for a run, exactly as check mode does. */
#include "osprey_detect.h"
#include "rules_files.h"

int osprey_detect_load_rules(const struct osprey_config *cfg, const char *const *files,
                             int nfiles, FILE *diag, struct osprey_ruleset **rs)
{
    int rc = rules_load_for_report(cfg, files, nfiles, false, diag, rs);
    if (rc < 0)
        return -1;
    rules_print_diags(*rs, diag);
    if (osprey_ruleset_stats(*rs)->config_errors)
        rc = 1;
    return rc;
}
