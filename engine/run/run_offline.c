/* run_offline.c — `osprey -r FILE|DIR`: read captures through libmon with the compiled rules
 * and write LOGDIR/eve.json, then print a summary.
 *
 * --runmode single: one worker on this thread. --runmode workers: threading.workers workers
 * (0 = one per CPU), fed by a reader thread that splits the frames by a symmetric hash of
 * their outermost IP address pair (workers.c); the alerts are the same as in single mode.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "mon.h"
#include "mon_io.h"
#include "osprey_clock.h"
#include "osprey_config.h"
#include "osprey_detect.h"
#include "capture_files.h"
#include "capture_watch.h"
#include "daemon.h"
#include "pipeline.h"
#include "report_html.h"
#include "run_offline.h"
#include "services.h"
#include "signals.h"
#include "workers.h"

/* Single mode: the batch goes through the one worker on this thread. */
static int single_batch(void *arg, struct mon_packet *batch, int n)
{
    struct osprey_worker *w = arg;
    for (int k = 0; k < n; k++)
        osprey_worker_packet(w, &batch[k]);
    return 0;
}

/* pcap-file.continuous: the files of dir that appear after the first reading (files[0..n),
 * handed over to the watcher, *n set to 0), until SIGTERM/SIGINT. */
static int watch(struct osprey_pipeline *pl, const char *dir, char **files, int *n,
                 uint64_t *pkts, uint64_t *bytes)
{
    struct osprey_capture_watch w = {0};
    int rc = 0;
    for (int i = 0; i < *n; i++)
        if (osprey_capture_watch_add(&w, files[i]) < 0)
            free(files[i]);
    *n = 0;
    while (!osprey_signal_take(OSPREY_SIG_STOP)) {
        osprey_daemon_poll(pl->emit); /* SIGHUP reopens the outputs while idle too */
        usleep(200 * 1000);
        uint64_t p = 0, b = 0;
        if (osprey_capture_read_new(pl, dir, true, false, single_batch, &pl->w[0], &w, &p, &b) < 0)
            rc = -1;
        *pkts += p; /* pcap_cnt of each later file starts again at 1 (as --unix-socket's) */
        *bytes += b;
    }
    osprey_capture_watch_free(&w);
    return rc;
}

/* Worker threads: 1 for --runmode single (the default) and --explain (one trace, in packet
 * order), else threading.workers (0 = CPUs). */
static int worker_count(const struct osprey_options *opts, const struct osprey_config *cfg)
{
    if (!opts->runmode || strcmp(opts->runmode, "workers") != 0 || opts->explain_sid)
        return 1;
    int64_t n = osprey_config_int(cfg, "threading.workers");
    if (n <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? c : 1;
    }
    return n > 1024 ? 1024 : (int)n;
}

int osprey_run_offline(const struct osprey_options *opts, const struct osprey_config *cfg)
{
    char **files = NULL;
    int nfiles = 0;
    struct osprey_pipeline pl = {0};
    char *eve = NULL; /* --report: the EVE file to read */
    int rc = OSPREY_EXIT_FAILURE;
    osprey_signals_install(); /* SIGHUP reopens the outputs, SIGTERM ends the run cleanly */
    if (osprey_capture_list(opts->read_path, &files, &nfiles, stderr) < 0 ||
        osprey_pipeline_open(&pl, opts, cfg, worker_count(opts, cfg), &osprey_services) < 0)
        goto out;
    osprey_daemon_ready(); /* -D: the starting command may exit 0 now */
    int nw = pl.nworkers;
    for (int i = 0; i < nw; i++) /* --simulate-ips: verdicts as inline (EVE "blocked") */
        pl.w[i].inline_mode = opts->simulate_ips;
    uint64_t pkts = 0, bytes = 0;
    double t1 = osprey_clock_mono_s();
    int read_rc;
    bool continuous = osprey_config_bool(cfg, "pcap-file.continuous");
    enum osprey_capture_delete del = osprey_capture_delete_mode(cfg);
    if (continuous && nw > 1) {
        fprintf(stderr, "osprey: pcap-file.continuous runs with --runmode single\n");
        goto out;
    }
    if (continuous && del == OSPREY_DELETE_NON_ALERTS) {
        fprintf(stderr, "osprey: pcap-file.delete-when-done: non-alerts is for a run that "
                        "ends, not with pcap-file.continuous\n");
        goto out;
    }
    if (nw == 1) {
        read_rc = osprey_capture_files(&pl, files, nfiles, single_batch, &pl.w[0], &pkts, &bytes);
        if (continuous) /* the directory again every 200 ms until SIGTERM/SIGINT */
            read_rc |= watch(&pl, opts->read_path, files, &nfiles, &pkts, &bytes);
        osprey_worker_flush(&pl.w[0]);
    } else {
        read_rc = osprey_workers_run(pl.w, nw, &pl.dcfg,
                                     osprey_config_size(cfg, "threading.ring-size"), files,
                                     nfiles, &pkts, &bytes);
        if (read_rc == -2)
            goto out;
    }
    double t2 = osprey_clock_mono_s();
    osprey_pipeline_quiesce(&pl); /* no reload may swap the rules read below */
    if (opts->explain_sid) /* every flow has ended: the trace is complete */
        osprey_detect_explain_summary(pl.det, stdout);
    uint64_t flows = 0, alerts = 0;
    for (int i = 0; i < nw; i++) {
        flows += mon_flow_stats(mon_ctx_flows(pl.w[i].ctx))->created;
        alerts += osprey_worker_alerts(&pl.w[i]);
    }
    const struct osprey_detect_stats *ds = osprey_detect_stats(pl.det);
    double secs = t2 - t1 > 1e-9 ? t2 - t1 : 1e-9;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("osprey: %llu packets, %llu flows, %llu alerts; rules: %u loaded, %u compiled, "
           "%u not compiled (load+compile %.1f ms)\n",
           (unsigned long long)pkts, (unsigned long long)flows, (unsigned long long)alerts,
           ds->rules, ds->compiled, ds->not_compiled, (pl.t_compiled - pl.t_start) * 1e3);
    printf("osprey: %.3f s, %.0f packets/s, %.1f Mbit/s, peak memory %ld KiB; alerts in %s\n",
           secs, (double)pkts / secs, (double)bytes * 8 / secs / 1e6, ru.ru_maxrss,
           osprey_emit_eve_path(pl.emit));
    if (nw > 1)
        printf("osprey: %d workers\n", nw);
    struct osprey_detect_prefilter pf = {0};
    for (int i = 0; i < nw; i++) {
        const struct osprey_detect_prefilter *x = osprey_detect_worker_prefilter(pl.w[i].dw);
        pf.scans += x->scans;
        pf.bytes += x->bytes;
        pf.raised += x->raised;
        pf.unwanted += x->unwanted;
        pf.header_checks += x->header_checks;
        pf.header_passed += x->header_passed;
    }
    printf("osprey: prefilter: %llu scans of %.1f MB, %llu patterns raised (%llu found at ports "
           "no rule of theirs takes), %llu header checks, %llu passed (%.1f%% false positives)\n",
           (unsigned long long)pf.scans, (double)pf.bytes / 1e6, (unsigned long long)pf.raised,
           (unsigned long long)pf.unwanted, (unsigned long long)pf.header_checks,
           (unsigned long long)pf.header_passed,
           pf.header_checks ? 100.0 * (double)(pf.header_checks - pf.header_passed) /
                                  (double)pf.header_checks
                            : 0.0);
    if (osprey_detect_pcre_limit_hits())
        printf("osprey: pcre: %llu searches gave up at pcre.match-limit / "
               "match-limit-recursion (no match, as Suricata)\n",
               (unsigned long long)osprey_detect_pcre_limit_hits());
    if (opts->simulate_ips) { /* what an inline sensor would have done with the packets */
        struct osprey_detect_verdicts v = {0};
        for (int i = 0; i < nw; i++) {
            const struct osprey_detect_verdicts *x = osprey_detect_worker_verdicts(pl.w[i].dw);
            v.dropped += x->dropped;
            v.dropped_flow += x->dropped_flow;
            v.rejected += x->rejected;
            v.midstream_dropped += x->midstream_dropped;
        }
        printf("osprey: simulated IPS: %llu packets dropped (%llu of dropped flows, %llu by "
               "the midstream policy), %llu rejected\n",
               (unsigned long long)v.dropped, (unsigned long long)v.dropped_flow,
               (unsigned long long)v.midstream_dropped, (unsigned long long)v.rejected);
    }
    rc = read_rc < 0 ? OSPREY_EXIT_FAILURE : OSPREY_EXIT_OK;
    /* non-alerts: the flows have all ended (flow-timeout alerts counted); a run that read
     * everything and raised no alert deletes its files */
    for (int i = 0; del == OSPREY_DELETE_NON_ALERTS && !alerts && read_rc == 0 && i < nfiles; i++)
        if (unlink(files[i]) != 0)
            fprintf(stderr, "osprey: cannot delete %s: %s\n", files[i], strerror(errno));
    if (opts->report) /* the path outlives the emitter: the report reads the closed file */
        eve = strdup(osprey_emit_eve_path(pl.emit));
out:
    if (osprey_pipeline_close(&pl) < 0)
        rc = OSPREY_EXIT_FAILURE;
    if (rc == OSPREY_EXIT_OK && opts->report && osprey_report_html(eve, opts->report) < 0)
        rc = OSPREY_EXIT_FAILURE;
    free(eve);
    for (int i = 0; i < nfiles; i++)
        free(files[i]);
    free(files);
    return rc;
}

int osprey_dump_chains(const struct osprey_options *opts, const struct osprey_config *cfg)
{
    struct mon_engine *eng = NULL;
    struct osprey_ruleset *rs = NULL;
    struct osprey_detect *det = NULL;
    struct osprey_parsers *parsers = NULL;
    int rc = OSPREY_EXIT_FAILURE;
    if (osprey_pipeline_engine(cfg, NULL, false, &eng, NULL) == 0 &&
        osprey_pipeline_rules(opts, cfg, eng, &rs, &det, &parsers) == 0) {
        osprey_detect_dump_chains(det, stdout);
        rc = OSPREY_EXIT_OK;
    }
    osprey_detect_free(det);
    osprey_parsers_free(parsers);
    osprey_ruleset_free(rs);
    mon_engine_destroy(eng);
    return rc;
}
