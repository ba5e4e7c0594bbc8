/* main.c — the osprey program: parse the command line, load the configuration, run a mode.
 *
 * Modes: --build-info, --list-keywords, --list-app-layer-protos, --list-buffers, --dump-config, -T (rule check; with --dump-chains the compiled UDE forest),
 * --dump-rules, --explain SID (one rule's compilation; with -r also its trace), -r FILE|DIR
 * (offline detection, run_offline.c), --unix-socket, -i / --pcap-live (live IDS),
 * --af-packet-inline and --dpdk (inline IPS); each mode is one branch in run() fed by the same
 * loaded configuration.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "build_info.h"
#include "daemon.h"
#include "list_keywords.h"
#include "list_protocols.h"
#include "log.h"
#include "options.h"
#include "osprey_config.h"
#include "osprey_rules.h"
#include "preflight.h"
#include "run_inline.h"
#include "run_explain.h"
#include "run_live.h"
#include "run_offline.h"
#include "run_unix_socket.h"
#ifdef OSPREY_HAVE_DPDK
#include "run_dpdk.h"
#endif

/* suricata-update runs `ENGINE -c FILE --dump-config` with Suricata's logging variables set
 * (SC_LOG_LEVEL) and parses Suricata's "key = value" lines: that caller gets that form. */
static int dump_config(const struct osprey_config *cfg)
{
    if (getenv("SC_LOG_LEVEL"))
        osprey_config_dump_flat(cfg, stdout);
    else
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
    if (opts->explain_sid && (opts->test_rules || opts->unix_socket || opts->nlive_ifaces > 0 ||
                              opts->inline_pair || opts->dpdk)) {
        fprintf(stderr, "osprey: --explain goes alone (the rule's compilation) or with -r "
                        "(and where its chain stopped on each packet)\n");
        return OSPREY_EXIT_USAGE;
    }
    if (opts->explain_sid && !opts->read_path)
        return osprey_run_explain(opts, cfg);
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
    if (opts->unix_socket && (opts->read_path || opts->nlive_ifaces > 0 || opts->inline_pair ||
                              opts->dpdk)) {
        fprintf(stderr, "osprey: --unix-socket takes its captures from pcap-file commands: "
                        "no -r, -i, --af-packet-inline or --dpdk with it\n");
        return OSPREY_EXIT_USAGE;
    }
    if (opts->unix_socket)
        return osprey_run_unix_socket(opts, cfg);
    if (opts->read_path)
        return osprey_run_offline(opts, cfg);
    if (opts->simulate_ips) {
        fprintf(stderr, "osprey: --simulate-ips goes with -r (the inline modes enforce "
                        "verdicts anyway)\n");
        return OSPREY_EXIT_USAGE;
    }
    if (opts->preflight) /* before any run mode: it only looks */
        return osprey_preflight(opts, cfg);
    if (opts->inline_pair && opts->nlive_ifaces > 0) {
        fprintf(stderr, "osprey: -i/--pcap-live and --af-packet-inline cannot be combined\n");
        return OSPREY_EXIT_USAGE;
    }
    if (opts->inline_pair)
        return osprey_run_inline(opts, cfg);
    if (opts->nlive_ifaces > 0)
        return osprey_run_live(opts, cfg);
    if (opts->dpdk) {
#ifdef OSPREY_HAVE_DPDK
        return osprey_run_dpdk(opts, cfg);
#else
        fprintf(stderr, "osprey: --dpdk: this osprey was built without DPDK (install "
                        "libdpdk-dev and pkg-config, then rebuild)\n");
        return OSPREY_EXIT_FAILURE;
#endif
    }
    fprintf(stderr, "osprey: nothing to do: no mode given (--dump-config)\n"
                    "Try 'osprey --help' for more information.\n");
    return OSPREY_EXIT_USAGE;
}

/* The packet modes run as a service: logging, pid file, -D (log.c, daemon.c). */
static int run_service(struct osprey_options *opts, const struct osprey_config *cfg)
{
    bool packets = opts->read_path || opts->nlive_ifaces > 0 || opts->inline_pair || opts->dpdk ||
                   opts->unix_socket;
    if (!packets || opts->preflight || opts->test_rules || opts->dump_config || opts->dump_rules) {
        if (opts->daemon) {
            fprintf(stderr, "osprey: -D needs a packet mode (-r, -i, --af-packet-inline, "
                            "--dpdk)\n");
            return OSPREY_EXIT_USAGE;
        }
        return run(opts, cfg);
    }
    struct osprey_config *abs_cfg; /* -D: relative paths made absolute (daemon.c) */
    if (osprey_daemon_config(opts, cfg, &abs_cfg) < 0)
        return OSPREY_EXIT_FAILURE;
    if (abs_cfg)
        cfg = abs_cfg;
    const char *dir = opts->log_dir ? opts->log_dir : osprey_config_str(cfg, "default-log-dir");
    int rc = OSPREY_EXIT_FAILURE;
    if (osprey_logging_open(cfg, dir) == 0) {
        int status = OSPREY_EXIT_FAILURE;
        int begun = osprey_daemon_begin(opts, cfg, &status);
        rc = begun < 0 ? OSPREY_EXIT_FAILURE : begun > 0 ? status : run(opts, cfg);
        if (begun == 0)
            osprey_log(OSPREY_LOG_INFO, "exiting with status %d", rc);
        osprey_daemon_end();
        osprey_logging_close();
    }
    osprey_config_free(abs_cfg);
    return rc;
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
    if (opts.build_info) { /* needs no configuration either */
        int status = osprey_build_info(stdout);
        osprey_options_free(&opts);
        return status;
    }
    if (opts.list_keywords) { /* needs no configuration: the registry is compiled in */
        int status = osprey_list_keywords(stdout);
        osprey_options_free(&opts);
        return status;
    }
    if (opts.list_protos || opts.list_buffers) { /* the parsers' registry: compiled in too */
        int status = opts.list_protos ? osprey_list_protocols(stdout, opts.list_protos == 2)
                                      : osprey_list_buffers(stdout);
        osprey_options_free(&opts);
        return status;
    }

    struct osprey_config *cfg;
    int rc;
    char installed[PATH_MAX]; /* no -c: an installed osprey reads SYSCONFDIR/osprey/osprey.yaml */
    if (!opts.config_path)
        opts.config_path = osprey_config_default_file(installed, sizeof installed);
    if (osprey_config_load(&cfg, opts.config_path, opts.sets, opts.nsets, stderr) < 0) {
        rc = OSPREY_EXIT_FAILURE;
    } else {
        rc = run_service(&opts, cfg);
        osprey_config_free(cfg);
    }
    osprey_options_free(&opts);
    return rc;
}
