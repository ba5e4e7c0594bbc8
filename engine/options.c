/* options.c — the table of osprey's options and the getopt_long loop over it. */
#include "options.h"

#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef OSPREY_VERSION
#define OSPREY_VERSION "unknown"
#endif

/* Options with no short letter get ids above any character. */
enum { OPT_SET = 256, OPT_DUMP_CONFIG, OPT_DUMP_RULES, OPT_DUMP_CHAINS, OPT_RUNMODE, OPT_PCAP_LIVE,
       OPT_AFP_INLINE, OPT_PREFLIGHT, OPT_PIDFILE, OPT_DPDK,
       OPT_SIMULATE_IPS, OPT_LIST_KEYWORDS, OPT_BUILD_INFO, OPT_UNIX_SOCKET, OPT_REPORT,
       OPT_PCAP_FILE_CONTINUOUS, OPT_PCAP_FILE_DELETE, OPT_EXPLAIN, OPT_LIST_PROTOS,
       OPT_LIST_BUFFERS };

struct opt_def {
    const char *name;
    int id;        /* short letter, or OPT_* */
    int has_arg;   /* no_argument / required_argument */
    const char *arg;
    const char *help;
};

static const struct opt_def OPTIONS[] = {
    {"config", 'c', required_argument, "FILE",
     "load the configuration from FILE (default: the installed SYSCONFDIR/osprey/osprey.yaml)"},
    {"set", OPT_SET, required_argument, "KEY=VALUE",
     "override one configuration key after the file, e.g. flow.memcap=256mb (repeatable)"},
    {"dump-config", OPT_DUMP_CONFIG, no_argument, NULL,
     "print the effective configuration as YAML and exit"},
    {"rule-file", 'S', required_argument, "FILE",
     "load rules from FILE instead of the configuration's rule-files (repeatable)"},
    {"test", 'T', no_argument, NULL,
     "check the rules and exit: rejected rules and a summary; status 0 if all load"},
    {"dump-rules", OPT_DUMP_RULES, no_argument, NULL,
     "print every rule read as one JSON object per line and exit"},
    {"dump-chains", OPT_DUMP_CHAINS, no_argument, NULL,
     "with -T: print the UDE forest the rules compile into, and its sharing"},
    {"explain", OPT_EXPLAIN, required_argument, "SID",
     "print how the rule with SID was compiled (or why not) and exit; with -r, also where its "
     "chain stopped on each packet"},
    {"list-keywords", OPT_LIST_KEYWORDS, no_argument, NULL,
     "print every rule keyword Osprey knows as CSV (dialects, kind, implemented) and exit"},
    {"list-app-layer-protos", OPT_LIST_PROTOS, optional_argument, "csv",
     "print the application-layer protocols (as Suricata does; =csv: with aliases, transport "
     "and EVE record) and exit"},
    {"list-buffers", OPT_LIST_BUFFERS, no_argument, NULL,
     "print every buffer the parsers give rules as CSV (protocol, direction, event) and exit"},
    {"read", 'r', required_argument, "FILE|DIR",
     "read a capture (or every file under DIR, in capture-time order) and write "
     "LOGDIR/eve.json"},
    {"pcap-file-continuous", OPT_PCAP_FILE_CONTINUOUS, no_argument, NULL,
     "with -r DIR: keep reading the new files of DIR until SIGTERM (pcap-file.continuous)"},
    {"pcap-file-delete", OPT_PCAP_FILE_DELETE, no_argument, NULL,
     "with -r: delete each capture once read (pcap-file.delete-when-done)"},
    {"report", OPT_REPORT, required_argument, "FILE.html",
     "with -r: write an HTML report of the run's eve.json to FILE.html (osprey-report)"},
    {"log-dir", 'l', required_argument, "DIR",
     "directory for eve.json (default: default-log-dir)"},
    {"checksums", 'k', required_argument, "none|all",
     "checksum validation (overrides pcap-file.checksum-checks)"},
    {"runmode", OPT_RUNMODE, required_argument, "single|workers",
     "threading of the packet mode (offline: one worker either way)"},
    {"simulate-ips", OPT_SIMULATE_IPS, no_argument, NULL,
     "with -r: run as an inline IPS would (drops blocked, exception policies as in IPS)"},
    {"interface", 'i', required_argument, "IFACE",
     "live IDS on IFACE with AF_PACKET (repeatable; af-packet: in the config)"},
    {"pcap-live", OPT_PCAP_LIVE, required_argument, "IFACE",
     "live IDS on IFACE with libpcap (repeatable; any interface libpcap opens)"},
    {"af-packet-inline", OPT_AFP_INLINE, required_argument, "IF1:IF2",
     "inline IPS: bridge IF1 and IF2, dropping what drop/reject rules match"},
    {"dpdk", OPT_DPDK, no_argument, NULL,
     "inline IPS (or IDS) on the DPDK ports of the config's dpdk: section"},
    {"preflight", OPT_PREFLIGHT, no_argument, NULL,
     "with -i, --af-packet-inline or --dpdk: check the set-up, print what to fix, exit"},
    {"unix-socket", OPT_UNIX_SOCKET, optional_argument, "PATH",
     "wait for pcap-file jobs on the control socket (PATH, else unix-command.filename), "
     "rules loaded once (as suricata --unix-socket)"},
    {"daemon", 'D', no_argument, NULL,
     "run in the background once set up; messages go to the log file or syslog"},
    {"pidfile", OPT_PIDFILE, required_argument, "FILE",
     "write the process id to FILE (refuse to start if it names a running process)"},
    {"version", 'V', no_argument, NULL, "print the version and exit"},
    {"build-info", OPT_BUILD_INFO, no_argument, NULL,
     "print the version, features and install paths (as suricata --build-info) and exit"},
    {"help", 'h', no_argument, NULL, "print this help and exit"},
};
#define NOPTIONS (sizeof OPTIONS / sizeof OPTIONS[0])

static void usage(FILE *out, const char *prog)
{
    fprintf(out, "Usage: %s [OPTION]...\n"
                 "Osprey network intrusion detection system.\n\nOptions:\n", prog);
    for (size_t i = 0; i < NOPTIONS; i++) {
        const struct opt_def *o = &OPTIONS[i];
        char head[64];
        int n = o->id < 256 ? snprintf(head, sizeof head, "-%c, ", o->id)
                            : snprintf(head, sizeof head, "    ");
        bool opt = o->has_arg == optional_argument;
        snprintf(head + n, sizeof head - (size_t)n, "--%s%s%s%s", o->name,
                 opt ? "[=" : o->arg ? " " : "", o->arg ? o->arg : "", opt ? "]" : "");
        fprintf(out, "  %-24s %s\n", head, o->help);
    }
    fprintf(out, "\nExit status: 0 on success, 1 on a configuration or run error, "
                 "2 on a command-line error.\n");
}

static void try_help(FILE *err, const char *prog)
{
    fprintf(err, "Try '%s --help' for more information.\n", prog);
}

enum osprey_options_result osprey_options_parse(struct osprey_options *opts, int argc,
                                                char **argv, FILE *out, FILE *err)
{
    const char *prog = argc > 0 ? argv[0] : "osprey";
    const char *slash = strrchr(prog, '/');
    if (slash)
        prog = slash + 1;

    struct option longopts[NOPTIONS + 1];
    char shortopts[2 * NOPTIONS + 2];
    size_t ns = 0;
    shortopts[ns++] = ':'; /* report a missing argument as ':' rather than '?' */
    for (size_t i = 0; i < NOPTIONS; i++) {
        longopts[i] = (struct option){OPTIONS[i].name, OPTIONS[i].has_arg, NULL, OPTIONS[i].id};
        if (OPTIONS[i].id < 256) {
            shortopts[ns++] = (char)OPTIONS[i].id;
            if (OPTIONS[i].has_arg == required_argument)
                shortopts[ns++] = ':';
        }
    }
    shortopts[ns] = '\0';
    longopts[NOPTIONS] = (struct option){0};

    memset(opts, 0, sizeof *opts);
    /* --set can appear at most once per argument. */
    opts->sets = calloc((size_t)(argc > 0 ? argc : 1), sizeof *opts->sets);
    opts->rule_files = calloc((size_t)(argc > 0 ? argc : 1), sizeof *opts->rule_files);
    opts->live_ifaces = calloc((size_t)(argc > 0 ? argc : 1), sizeof *opts->live_ifaces);
    if (!opts->sets || !opts->rule_files || !opts->live_ifaces) {
        osprey_options_free(opts);
        fprintf(err, "%s: out of memory\n", prog);
        return OSPREY_OPTIONS_USAGE;
    }

    int c;
    opterr = 0; /* messages below name the program as invoked, not argv[0] */
    optind = 1;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        switch (c) {
        case 'c':
            opts->config_path = optarg;
            break;
        case OPT_SET:
            opts->sets[opts->nsets++] = optarg;
            break;
        case OPT_DUMP_CONFIG:
            opts->dump_config = true;
            break;
        case 'S':
            opts->rule_files[opts->nrule_files++] = optarg;
            break;
        case 'T':
            opts->test_rules = true;
            break;
        case OPT_DUMP_RULES:
            opts->dump_rules = true;
            break;
        case OPT_DUMP_CHAINS:
            opts->dump_chains = true;
            break;
        case OPT_LIST_KEYWORDS:
            opts->list_keywords = true;
            break;
        case OPT_LIST_PROTOS:
            if (optarg && strcmp(optarg, "csv")) {
                fprintf(err, "%s: --list-app-layer-protos takes no value or =csv, not '%s'\n",
                        prog, optarg);
                goto bad;
            }
            opts->list_protos = optarg ? 2 : 1;
            break;
        case OPT_LIST_BUFFERS:
            opts->list_buffers = true;
            break;
        case OPT_EXPLAIN: {
            char *end;
            unsigned long sid = strtoul(optarg, &end, 10);
            if (!*optarg || *end || optarg[0] == '-' || sid == 0 || sid > UINT32_MAX) {
                fprintf(err, "%s: --explain takes a rule's sid (1-4294967295), not '%s'\n", prog,
                        optarg);
                goto bad;
            }
            opts->explain_sid = (uint32_t)sid;
            break;
        }
        case 'r':
            opts->read_path = optarg;
            break;
        case 'l':
            opts->log_dir = optarg;
            break;
        case OPT_REPORT:
            opts->report = optarg;
            break;
        /* Suricata's options for these keys: a --set each (sets has room for every argument) */
        case OPT_PCAP_FILE_CONTINUOUS:
            opts->sets[opts->nsets++] = "pcap-file.continuous=yes";
            break;
        case OPT_PCAP_FILE_DELETE:
            opts->sets[opts->nsets++] = "pcap-file.delete-when-done=yes";
            break;
        case 'k':
            if (strcmp(optarg, "none") && strcmp(optarg, "all")) {
                fprintf(err, "%s: -k takes 'none' or 'all', not '%s'\n", prog, optarg);
                goto bad;
            }
            opts->checksums = optarg;
            break;
        case OPT_RUNMODE:
            if (strcmp(optarg, "single") && strcmp(optarg, "workers")) {
                fprintf(err, "%s: --runmode takes 'single' or 'workers', not '%s'\n", prog,
                        optarg);
                goto bad;
            }
            opts->runmode = optarg;
            break;
        case 'i':
        case OPT_PCAP_LIVE:
            if (opts->nlive_ifaces > 0 && opts->pcap_live != (c == OPT_PCAP_LIVE)) {
                fprintf(err, "%s: -i and --pcap-live cannot be mixed\n", prog);
                goto bad;
            }
            opts->pcap_live = c == OPT_PCAP_LIVE;
            opts->live_ifaces[opts->nlive_ifaces++] = optarg;
            break;
        case OPT_AFP_INLINE: {
            const char *colon = strchr(optarg, ':');
            if (!colon || colon == optarg || !colon[1] || strchr(colon + 1, ':') ||
                (strlen(colon + 1) == (size_t)(colon - optarg) &&
                 strncmp(optarg, colon + 1, (size_t)(colon - optarg)) == 0)) {
                fprintf(err, "%s: --af-packet-inline takes two different interfaces as "
                             "IF1:IF2, not '%s'\n", prog, optarg);
                goto bad;
            }
            opts->inline_pair = optarg;
            break;
        }
        case OPT_PREFLIGHT:
            opts->preflight = true;
            break;
        case OPT_DPDK:
            opts->dpdk = true;
            break;
        case OPT_SIMULATE_IPS:
            opts->simulate_ips = true;
            break;
        case 'D':
            opts->daemon = true;
            break;
        case OPT_PIDFILE:
            opts->pidfile = optarg;
            break;
        case 'V':
            fprintf(out, "osprey %s\n", OSPREY_VERSION);
            osprey_options_free(opts);
            return OSPREY_OPTIONS_DONE;
        case OPT_UNIX_SOCKET:
            opts->unix_socket = true;
            opts->unix_socket_path = optarg; /* NULL: unix-command.filename */
            break;
        case OPT_BUILD_INFO:
            opts->build_info = true;
            break;
        case 'h':
            usage(out, prog);
            osprey_options_free(opts);
            return OSPREY_OPTIONS_DONE;
        case ':':
            fprintf(err, "%s: option '%s' needs an argument\n", prog, argv[optind - 1]);
            goto bad;
        default:
            if (optopt && strncmp(argv[optind - 1], "--", 2) == 0)
                fprintf(err, "%s: option '%s' takes no argument\n", prog, argv[optind - 1]);
            else if (optopt)
                fprintf(err, "%s: unknown option '-%c'\n", prog, optopt);
            else
                fprintf(err, "%s: unknown option '%s'\n", prog, argv[optind - 1]);
            goto bad;
        }
    }
    if (optind < argc) {
        fprintf(err, "%s: unexpected argument '%s'\n", prog, argv[optind]);
        goto bad;
    }
    if (opts->report && !opts->read_path) {
        fprintf(err, "%s: --report goes with -r (an offline run)\n", prog);
        goto bad;
    }
    return OSPREY_OPTIONS_RUN;
bad:
    try_help(err, prog);
    osprey_options_free(opts);
    return OSPREY_OPTIONS_USAGE;
}

void osprey_options_free(struct osprey_options *opts)
{
    free(opts->sets);
    opts->sets = NULL;
    opts->nsets = 0;
    free(opts->rule_files);
    opts->rule_files = NULL;
    free(opts->live_ifaces);
    opts->live_ifaces = NULL;
    opts->nlive_ifaces = 0;
    opts->nrule_files = 0;
}
