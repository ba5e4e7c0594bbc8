/* control_cmds.c — the control socket's commands, answered as Suricata's unix socket answers
 * them (command names, argument names and reply shapes follow Suricata's documentation, so
 * suricatasc and scripts written for it work unchanged): version, uptime, running-mode,
 * capture-mode, iface-list, iface-stat, dump-counters (and Osprey's stats), reload-rules,
 * ruleset-reload-nonblocking, ruleset-stats, ruleset-failed-rules, reopen-log-files, conf-get,
 * memcap-list/-show/-set, dataset-add/-remove/-lookup, shutdown, command-list (and Osprey's
 * help); under --unix-socket pcap-file, pcap-file-continuous, pcap-file-number, pcap-file-list,
 * pcap-current, pcap-last-processed, pcap-interrupt. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "control.h"
#include "log.h"
#include "osprey_clock.h"
#include "osprey_config.h"
#include "osprey_detect.h"
#include "osprey_rules.h"
#include "options.h"
#include "pcap_jobs.h"
#include "reload.h"
#include "signals.h"

#ifndef OSPREY_VERSION
#define OSPREY_VERSION "unknown"
#endif

static json_t *reply(bool ok, json_t *message)
{
    return json_pack("{s:s, s:o}", "return", ok ? "OK" : "NOK", "message", message);
}

static json_t *nok(const char *fmt, const char *arg)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, arg);
    return reply(false, json_string(msg));
}

/* The counters of a worker, in stats order. Kept in one table so per-worker objects and the
 * totals always have the same keys. */
static const char *const COUNTERS[] = {
    "packets", "bytes", "invalid", "flows", "flows_active", "flow_memuse", "flow_memcap_hits",
    "tcp_sessions", "tcp_reassembly_memuse", "tcp_memcap_hits", "tcp_gaps", "alerts",
    "dropped", "rejected", "kernel_packets", "kernel_drops", "forwarded", "drop_fail_closed",
    "fail_open", "tx_errors"};
#define NCOUNTERS (sizeof COUNTERS / sizeof *COUNTERS)
enum { C_KERNEL_PACKETS = 14, C_KERNEL_DROPS = 15 };

/* One worker's counters (r->mu held: w->dw cannot change under us). The stack's counters are
 * the worker's own and read while it runs: a snapshot, each value whole on 64-bit machines. */
static json_t *worker_stats(const struct osprey_worker *w, uint64_t *tot)
{
    const struct mon_decode_stats *ds = mon_ctx_decode_stats(w->ctx);
    const struct mon_flow_stats *fs = mon_flow_stats(mon_ctx_flows(w->ctx));
    const struct mon_tcp_stats *ts = mon_ctx_tcp_stats(w->ctx);
    const struct osprey_detect_verdicts *dv = osprey_detect_worker_verdicts(w->dw);
    const struct osprey_capture_stats *c = &w->cap;
    const uint64_t v[NCOUNTERS] = {
        ds->pkts, ds->bytes, ds->outcome[MON_DEC_INVALID], fs->created, fs->active,
        fs->memuse, fs->memcap_hits, ts->sessions, ts->reasm_memuse, ts->memcap_hits, ts->gaps,
        osprey_worker_alerts(w), dv->dropped, dv->rejected,
        atomic_load(&c->kernel_packets), atomic_load(&c->kernel_drops),
        atomic_load(&c->forwarded), atomic_load(&c->drop_fail_closed),
        atomic_load(&c->fail_open), atomic_load(&c->tx_errors),
    };
    json_t *o = json_object();
    for (size_t i = 0; i < NCOUNTERS; i++) {
        tot[i] += v[i];
        json_object_set_new(o, COUNTERS[i], json_integer((json_int_t)v[i]));
    }
    return o;
}

static json_t *stats(struct osprey_pipeline *pl, uint64_t *totals)
{
    uint64_t tot[NCOUNTERS] = {0};
    json_t *workers = json_array();
    osprey_reload_lock(pl->reload);
    for (int i = 0; i < pl->nworkers; i++) {
        json_t *w = worker_stats(&pl->w[i], tot);
        json_object_set_new(w, "id", json_integer(i));
        json_array_append_new(workers, w);
    }
    const struct osprey_detect_stats *d = osprey_detect_stats(pl->det);
    json_t *detect = json_pack("{s:i, s:i, s:i}", "rules", (int)d->rules, "compiled",
                               (int)d->compiled, "not_compiled", (int)d->not_compiled);
    osprey_reload_unlock(pl->reload);
    if (totals)
        memcpy(totals, tot, sizeof tot);
    json_t *total = json_object();
    for (size_t i = 0; i < NCOUNTERS; i++)
        json_object_set_new(total, COUNTERS[i], json_integer((json_int_t)tot[i]));
    struct osprey_reload_stats rs = {0};
    if (pl->reload)
        osprey_reload_stats(pl->reload, &rs);
    return json_pack("{s:I, s:o, s:o, s:o, s:{s:I, s:I, s:i, s:f, s:f, s:I, s:I, s:I}, "
                     "s:{s:I, s:I}}",
                     "uptime", (json_int_t)(osprey_clock_wall_s() - pl->t_started),
                     "workers", workers,
                     "total", total, "detect", detect,
                     "reload", "reloads", (json_int_t)rs.reloads, "failures",
                     (json_int_t)rs.failures, "generation", (int)rs.gen, "last_ms", rs.last_ms,
                     "switch_ms_max", rs.switch_ms_max,
                     "rss_before_kb", (json_int_t)rs.rss_before_kb, "rss_during_kb",
                     (json_int_t)rs.rss_during_kb, "rss_after_kb", (json_int_t)rs.rss_after_kb,
                     "memory", "rss_kb", (json_int_t)osprey_rss_kb(), "peak_kb",
                     (json_int_t)osprey_rss_peak_kb());
}

/* Suricata's capture-mode words for Osprey's run modes. */
static const char *capture_mode(const struct osprey_options *o)
{
    if (o->read_path || o->unix_socket)
        return "PCAP_FILE";
    if (o->dpdk)
        return "DPDK";
    if (o->nlive_ifaces > 0 && o->pcap_live)
        return "PCAP_DEV";
    return "AF_PACKET_DEV";
}

/* The interfaces osprey captures on (-i/--pcap-live, both sides of --af-packet-inline). */
static json_t *ifaces(const struct osprey_options *o)
{
    json_t *a = json_array();
    for (int i = 0; i < o->nlive_ifaces; i++)
        json_array_append_new(a, json_string(o->live_ifaces[i]));
    if (o->inline_pair) {
        const char *colon = strchr(o->inline_pair, ':');
        json_array_append_new(a, json_stringn(o->inline_pair, (size_t)(colon - o->inline_pair)));
        json_array_append_new(a, json_string(colon + 1));
    }
    return a;
}

static const char *arg(json_t *args, const char *name)
{
    return json_string_value(json_object_get(args, name));
}

static json_t *iface_stat(struct osprey_pipeline *pl, json_t *args)
{
    const char *name = arg(args, "iface");
    json_t *list = ifaces(pl->opts);
    size_t i, n = json_array_size(list);
    for (i = 0; name && i < n; i++)
        if (!strcmp(json_string_value(json_array_get(list, i)), name))
            break;
    json_decref(list);
    if (!name || i == n)
        return nok("Interface '%s' not found", name ? name : "");
    if (n > 1) /* a worker's kernel counters add up all its sockets */
        return nok("iface-stat %s: Osprey counts the kernel's packets per worker, not per "
                   "interface, when it captures on several (see dump-counters)", name);
    uint64_t tot[NCOUNTERS];
    json_decref(stats(pl, tot));
    return reply(true, json_pack("{s:I, s:I, s:I}", "pkts", (json_int_t)tot[C_KERNEL_PACKETS],
                                 "drop", (json_int_t)tot[C_KERNEL_DROPS], "bypassed",
                                 (json_int_t)0));
}

static json_t *ruleset_stats(struct osprey_pipeline *pl)
{
    osprey_reload_lock(pl->reload);
    const struct osprey_rules_stats *s = osprey_ruleset_stats(pl->rs);
    json_t *o = json_pack("[{s:i, s:I, s:I, s:I}]", "id", 0, "rules_loaded",
                          (json_int_t)s->accepted, "rules_failed", (json_int_t)s->rejected,
                          "rules_skipped", (json_int_t)s->skipped);
    osprey_reload_unlock(pl->reload);
    return reply(true, o);
}

static json_t *failed_rules(struct osprey_pipeline *pl)
{
    json_t *a = json_array();
    osprey_reload_lock(pl->reload);
    for (size_t i = 0, n = osprey_ruleset_diag_count(pl->rs); i < n; i++) {
        const struct osprey_rules_diag *d = osprey_ruleset_diag(pl->rs, i);
        if (d->kind != OSPREY_DIAG_REJECTED)
            continue;
        json_array_append_new(a, json_pack("{s:i, s:s, s:s, s:I, s:I}", "tenant_id", 0, "rule",
                                           d->text ? d->text : "", "filename",
                                           d->file ? d->file : "", "line", (json_int_t)d->line,
                                           "sid", (json_int_t)d->sid));
    }
    osprey_reload_unlock(pl->reload);
    return reply(true, a);
}

/* Suricata's memcap names and the keys that size the same tables in Osprey. */
static const struct { const char *name, *key; } MEMCAPS[] = {
    {"flow", "flow.memcap"},
    {"stream-reassembly", "stream.reassembly.memcap"},
    {"defrag", "defrag.memcap"},
    {"datasets", "datasets.defaults.memcap"},
};
#define NMEMCAPS (sizeof MEMCAPS / sizeof *MEMCAPS)

static const char *memcap_key(const char *name)
{
    for (size_t i = 0; name && i < NMEMCAPS; i++)
        if (!strcmp(MEMCAPS[i].name, name))
            return MEMCAPS[i].key;
    return NULL;
}

static json_t *memcap(struct osprey_pipeline *pl, const char *cmd, json_t *args)
{
    if (!strcmp(cmd, "memcap-list")) {
        json_t *a = json_array();
        for (size_t i = 0; i < NMEMCAPS; i++)
            json_array_append_new(a, json_pack("{s:s, s:s}", "name", MEMCAPS[i].name, "value",
                                               osprey_config_text(pl->cfg, MEMCAPS[i].key)));
        return reply(true, a);
    }
    const char *name = arg(args, "config");
    const char *key = memcap_key(name);
    if (!key)
        return nok("memcap '%s' not found (see memcap-list)", name ? name : "");
    if (!strcmp(cmd, "memcap-show"))
        return reply(true, json_pack("{s:s}", "value", osprey_config_text(pl->cfg, key)));
    /* memcap-set: the tables are sized once, when osprey starts */
    return nok("memcap-set: Osprey sizes its tables at start: set %s in the configuration "
               "and restart", key);
}

/* dataset-add/-remove/-lookup {setname, settype, datavalue}: the running rules' sets (a set
 * no rule names is not there; a reload starts the sets again from their files). */
static json_t *dataset(struct osprey_pipeline *pl, const char *cmd, json_t *args)
{
    const char *set = arg(args, "setname"), *type = arg(args, "settype");
    const char *value = arg(args, "datavalue");
    if (!set || !type || !value)
        return nok("%s needs setname, settype and datavalue", cmd);
    enum osprey_dataset_op op = !strcmp(cmd, "dataset-add")      ? OSPREY_DATASET_ADD
                                : !strcmp(cmd, "dataset-remove") ? OSPREY_DATASET_REMOVE
                                                                 : OSPREY_DATASET_LOOKUP;
    char why[256];
    osprey_reload_lock(pl->reload);
    int rc = osprey_detect_dataset(pl->det, op, set, type, value, why, sizeof why);
    osprey_reload_unlock(pl->reload);
    if (rc < 0)
        return nok("%s", why);
    static const char *const SAID[3][2] = {{"data already in set", "data added"},
                                           {"data is not in set", "data removed"},
                                           {"item not found in set", "item found in set"}};
    return reply(rc == 1, json_string(SAID[op][rc]));
}

/* --unix-socket's commands: pcap-file(-continuous) {filename, output-dir, continuous,
 * delete-when-done} queue a job; the others read or steer the queue (pcap_jobs.h). */
static json_t *pcap(struct osprey_pipeline *pl, const char *cmd, json_t *args)
{
    struct osprey_pcap_jobs *q = pl->jobs;
    if (!q)
        return nok("%s: only in osprey --unix-socket mode", cmd);
    if (!strcmp(cmd, "pcap-file") || !strcmp(cmd, "pcap-file-continuous")) {
        const char *file = arg(args, "filename"), *dir = arg(args, "output-dir");
        struct stat st;
        if (!file || !dir)
            return nok("%s needs filename and output-dir", cmd);
        if (stat(file, &st) != 0)
            return nok("File %s does not exist", file);
        bool continuous = !strcmp(cmd, "pcap-file-continuous") ||
                          json_is_true(json_object_get(args, "continuous"));
        if (continuous && !S_ISDIR(st.st_mode))
            return nok("%s: continuous needs a directory to watch", file);
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
            return nok("Output directory %s does not exist", dir);
        struct osprey_pcap_job job = {
            .filename = (char *)file, .output_dir = (char *)dir, .continuous = continuous,
            .delete_when_done = json_is_true(json_object_get(args, "delete-when-done"))};
        if (osprey_pcap_jobs_add(q, &job) < 0)
            return nok("%s: out of memory", cmd);
        return reply(true, json_string("Successfully added file to list"));
    }
    if (!strcmp(cmd, "pcap-file-number"))
        return reply(true, json_integer(osprey_pcap_jobs_count(q)));
    if (!strcmp(cmd, "pcap-file-list")) {
        int n;
        char **names = osprey_pcap_jobs_list(q, &n);
        json_t *a = json_array();
        for (int i = 0; i < n; i++) {
            json_array_append_new(a, json_string(names[i]));
            free(names[i]);
        }
        free(names);
        return reply(true, json_pack("{s:i, s:o}", "count", n, "files", a));
    }
    if (!strcmp(cmd, "pcap-current")) {
        char cur[4096];
        osprey_pcap_jobs_current(q, cur, sizeof cur);
        return reply(true, json_string(cur[0] ? cur : "None"));
    }
    if (!strcmp(cmd, "pcap-last-processed"))
        return reply(true, json_integer((json_int_t)osprey_pcap_jobs_last_ms(q)));
    osprey_pcap_jobs_interrupt(q); /* pcap-interrupt */
    return reply(true, json_string("Interrupted"));
}

static const char *const COMMANDS[] = {
    "command-list", "help", "version", "uptime", "running-mode", "capture-mode", "iface-list",
    "iface-stat", "dump-counters", "stats", "reload-rules", "ruleset-reload-rules",
    "ruleset-reload-nonblocking", "ruleset-stats", "ruleset-failed-rules", "reopen-log-files",
    "conf-get", "memcap-list", "memcap-show", "memcap-set", "dataset-add", "dataset-remove",
    "dataset-lookup", "pcap-file", "pcap-file-continuous", "pcap-file-number", "pcap-file-list",
    "pcap-current", "pcap-last-processed", "pcap-interrupt", "shutdown"};
#define NCOMMANDS (sizeof COMMANDS / sizeof *COMMANDS)

json_t *osprey_control_command(struct osprey_pipeline *pl, const char *cmd, json_t *args)
{
    if (!strcmp(cmd, "version"))
        return reply(true, json_string("osprey " OSPREY_VERSION));
    if (!strcmp(cmd, "uptime"))
        return reply(true, json_integer((json_int_t)(osprey_clock_wall_s() - pl->t_started)));
    if (!strcmp(cmd, "stats") || !strcmp(cmd, "dump-counters"))
        return reply(true, stats(pl, NULL));
    if (!strcmp(cmd, "reload-rules") || !strcmp(cmd, "ruleset-reload-rules")) {
        char msg[1024];
        osprey_log(OSPREY_LOG_NOTICE, "control socket: %s", cmd);
        int rc = osprey_reload_request(pl->reload, msg, sizeof msg);
        return reply(rc == 0, json_string(msg));
    }
    if (!strcmp(cmd, "ruleset-reload-nonblocking")) { /* as SIGUSR2: the reload thread takes it */
        osprey_log(OSPREY_LOG_NOTICE, "control socket: %s", cmd);
        osprey_signal_raise(OSPREY_SIG_RELOAD);
        return reply(true, json_string("done"));
    }
    if (!strcmp(cmd, "reopen-log-files")) { /* as SIGHUP, between batches */
        osprey_signal_raise(OSPREY_SIG_REOPEN);
        return reply(true, json_string("done"));
    }
    if (!strcmp(cmd, "shutdown")) {
        osprey_log(OSPREY_LOG_NOTICE, "control socket: shutdown");
        osprey_signal_raise(OSPREY_SIG_STOP);
        return reply(true, json_string("Closing Osprey"));
    }
    if (!strcmp(cmd, "running-mode"))
        return reply(true, json_string(pl->opts->runmode ? pl->opts->runmode
                                       : pl->nworkers > 1 ? "workers" : "single"));
    if (!strcmp(cmd, "capture-mode"))
        return reply(true, json_string(capture_mode(pl->opts)));
    if (!strcmp(cmd, "iface-list")) {
        json_t *a = ifaces(pl->opts);
        return reply(true, json_pack("{s:I, s:o}", "count", (json_int_t)json_array_size(a),
                                     "ifaces", a));
    }
    if (!strcmp(cmd, "iface-stat"))
        return iface_stat(pl, args);
    if (!strcmp(cmd, "ruleset-stats"))
        return ruleset_stats(pl);
    if (!strcmp(cmd, "ruleset-failed-rules"))
        return failed_rules(pl);
    if (!strcmp(cmd, "conf-get")) {
        const char *key = arg(args, "variable");
        const char *v = key ? osprey_config_text(pl->cfg, key) : NULL;
        return v ? reply(true, json_string(v)) : nok("Variable '%s' not found", key ? key : "");
    }
    if (!strncmp(cmd, "memcap-", 7) &&
        (!strcmp(cmd + 7, "list") || !strcmp(cmd + 7, "show") || !strcmp(cmd + 7, "set")))
        return memcap(pl, cmd, args);
    if (!strcmp(cmd, "dataset-add") || !strcmp(cmd, "dataset-remove") ||
        !strcmp(cmd, "dataset-lookup"))
        return dataset(pl, cmd, args);
    if (!strncmp(cmd, "pcap-", 5) &&
        (!strcmp(cmd, "pcap-file") || !strcmp(cmd, "pcap-file-continuous") ||
         !strcmp(cmd, "pcap-file-number") || !strcmp(cmd, "pcap-file-list") ||
         !strcmp(cmd, "pcap-current") || !strcmp(cmd, "pcap-last-processed") ||
         !strcmp(cmd, "pcap-interrupt")))
        return pcap(pl, cmd, args);
    if (!strcmp(cmd, "command-list") || !strcmp(cmd, "help")) {
        json_t *a = json_array();
        for (size_t i = 0; i < NCOMMANDS; i++)
            json_array_append_new(a, json_string(COMMANDS[i]));
        if (!strcmp(cmd, "help")) /* Osprey's own form: the list itself */
            return reply(true, a);
        return reply(true, json_pack("{s:o, s:I}", "commands", a, "count",
                                     (json_int_t)NCOMMANDS));
    }
    return nok("unknown command '%.64s' (try help)", cmd);
}
