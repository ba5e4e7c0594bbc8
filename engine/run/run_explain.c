/* run_explain.c — `osprey --explain SID -S RULES` without -r: the rule's compile report. The
 * rules are loaded and compiled exactly as for a run (osprey_pipeline_rules prints the report
 * once they are), so what it says is what -r would run. */
#include "run_explain.h"

#include "mon.h"
#include "osprey_detect.h"
#include "pipeline.h"

int osprey_run_explain(const struct osprey_options *opts, const struct osprey_config *cfg)
{
    struct mon_engine *eng = NULL;
    struct osprey_ruleset *rs = NULL;
    struct osprey_detect *det = NULL;
    struct osprey_parsers *parsers = NULL;
    int rc = OSPREY_EXIT_FAILURE;
    if (osprey_pipeline_engine(cfg, NULL, false, &eng, NULL) == 0 &&
        osprey_pipeline_rules(opts, cfg, eng, &rs, &det, &parsers) == 0)
        rc = OSPREY_EXIT_OK;
    osprey_detect_free(det);
    osprey_parsers_free(parsers);
    osprey_ruleset_free(rs);
    mon_engine_destroy(eng);
    return rc;
}
