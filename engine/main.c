/* main.c — the osprey program: parse the command line, load the configuration, run a mode.
 *
 * Modes: --dump-config, -T (rule check; with --dump-chains the compiled UDE forest),
 * --dump-rules, -r FILE|DIR (offline detection, run_offline.c). Live capture (-i) comes next;
 * each mode is one branch in run() fed by the same loaded configuration.
 */
#include <stdio.h>

#include "options.h"
#include "osprey_config.h"
#include "osprey_rules.h"
#include "run_offline.h"

static int dump_config(const struct osprey_config *cfg)
{
    osprey_config_dump(cfg, stdout);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("osprey: writing the configuration");
        return OSPREY_EXIT_FAILURE;
    }
    return OSPREY_EXIT_OK;
}

static int run(const struct osprey_options *opts, const struct osprey_config *cfg)
{
    if (opts->dump_config)
        return dump_config(cfg);
    if (opts->test_rules && opts->dump_chains)
        return osprey_dump_chains(opts, cfg);
    if (opts->test_rules)
        return osprey_rules_check(cfg, opts->rule_files, opts->nrule_files, stdout) == 0
                   ? OSPREY_EXIT_OK
                   : OSPREY_EXIT_FAILURE;
    if (opts->dump_rules)
        return osprey_rules_dump(cfg, opts->rule_files, opts->nrule_files, stdout) == 0
                   ? OSPREY_EXIT_OK
                   : OSPREY_EXIT_FAILURE;
    if (opts->read_path)
        return osprey_run_offline(opts, cfg);
    fprintf(stderr, "osprey: nothing to do: no mode given (--dump-config)\n"
                    "Try 'osprey --help' for more information.\n");
    return OSPREY_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    struct osprey_options opts;
    switch (osprey_options_parse(&opts, argc, argv, stdout, stderr)) {
    case OSPREY_OPTIONS_DONE:
        return OSPREY_EXIT_OK;
    case OSPREY_OPTIONS_USAGE:
        return OSPREY_EXIT_USAGE;
    case OSPREY_OPTIONS_RUN:
        break;
    }

    struct osprey_config *cfg;
    int rc;
    if (osprey_config_load(&cfg, opts.config_path, opts.sets, opts.nsets, stderr) < 0) {
        rc = OSPREY_EXIT_FAILURE;
    } else {
        rc = run(&opts, cfg);
        osprey_config_free(cfg);
    }
    osprey_options_free(&opts);
    return rc;
}
