/* options.h — osprey's command line.
 *
 * The options live in one table in options.c that drives getopt_long, the --help text and the
 * parsing switch, so adding an option (-r, -i, -S, -T …) is one table row, one field here and
 * one case there.
 */
#ifndef OSPREY_OPTIONS_H
#define OSPREY_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Process exit statuses. */
enum {
    OSPREY_EXIT_OK = 0,
    OSPREY_EXIT_FAILURE = 1, /* bad configuration, or the run failed */
    OSPREY_EXIT_USAGE = 2,   /* bad command line */
};

struct osprey_options {
    const char *config_path; /* -c FILE; NULL = the installed osprey.yaml or built-in defaults */
    const char **sets;       /* --set KEY=VALUE, in command-line order */
    int nsets;
    bool dump_config;        /* --dump-config */
    const char **rule_files; /* -S FILE, in command-line order */
    int nrule_files;
    bool test_rules;         /* -T */
    bool dump_rules;         /* --dump-rules */
    bool dump_chains;        /* --dump-chains (with -T) */
    uint32_t explain_sid;    /* --explain SID; 0 = none (explain.c, and traced with -r) */
    bool list_keywords;      /* --list-keywords: the keyword registry as CSV, no config */
    int list_protos;         /* --list-app-layer-protos: 1 Suricata's form, 2 =csv */
    bool list_buffers;       /* --list-buffers: the parsers' buffers as CSV */
    bool build_info;         /* --build-info: version, features, paths (build_info.c) */
    bool unix_socket;        /* --unix-socket[=PATH]: pcap-file jobs (run_unix_socket.c) */
    const char *unix_socket_path; /* its PATH; NULL = unix-command.filename */
    const char *read_path;   /* -r FILE|DIR: offline mode */
    const char *log_dir;     /* -l DIR; NULL = default-log-dir */
    const char *report;      /* --report FILE.html: osprey-report on eve.json after -r */
    const char *checksums;   /* -k none|all; NULL = the configuration's */
    const char *runmode;     /* --runmode single|workers */
    const char **live_ifaces; /* -i IFACE / --pcap-live IFACE: live IDS, in order */
    int nlive_ifaces;
    bool pcap_live;          /* --pcap-live: capture with libpcap instead of AF_PACKET */
    const char *inline_pair; /* --af-packet-inline IF1:IF2 */
    bool preflight;          /* --preflight: check the capture set-up and exit */
    bool daemon;             /* -D: run in the background (daemon.c) */
    const char *pidfile;     /* --pidfile FILE; NULL = the configuration's pid-file */
    bool dpdk;               /* --dpdk: the ports of the dpdk: section */
    bool simulate_ips;       /* --simulate-ips: -r as if inline (verdicts enforced, "blocked") */
};

enum osprey_options_result {
    OSPREY_OPTIONS_RUN,   /* go on with *opts */
    OSPREY_OPTIONS_DONE,  /* --help or --version was answered: exit 0 */
    OSPREY_OPTIONS_USAGE, /* a message was printed to err: exit OSPREY_EXIT_USAGE */
};

/* Parse argv. Help and version go to out, usage errors to err. On OSPREY_OPTIONS_RUN, release
 * opts with osprey_options_free. */
enum osprey_options_result osprey_options_parse(struct osprey_options *opts, int argc,
                                                char **argv, FILE *out, FILE *err);
void osprey_options_free(struct osprey_options *opts);

#endif
