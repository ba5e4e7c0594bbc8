/* bench-detect — detection end to end on one core: load + compile time of a ruleset, then
 * throughput over captures preloaded into memory (so disk speed is not measured), with no
 * rules and with the ruleset; alerts counted, not written. Peak RSS at the end.
 *
 * usage: bench-detect [-m block|stream] [-S RULES]... FILE.pcap...
 *   (no -S: only the no-rules pass; -m: how stream fast patterns are scanned, default block)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "mon.h"
#include "mon_io.h"
#include "osprey_config.h"
#include "osprey_detect.h"
#include "osprey_parsers.h"
#include "preload.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu(void) /* this process's CPU time: less disturbed by other load than wall time */
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void count_alert(const struct osprey_alert *a, void *arg)
{
    (void)a;
    ++*(uint64_t *)arg;
}

static void flow_end(struct mon_flow *f, void *arg)
{
    osprey_detect_flow_end(arg, f);
}

/* One pass over the frames; rs NULL = no rules. */
static void pass(const char *name, const struct osprey_ruleset *rs,
                 const struct osprey_detect_opts *o, const struct bench_frame *fr, size_t n,
                 uint64_t bytes)
{
    struct mon_engine_cfg cfg;
    mon_engine_cfg_defaults(&cfg);
    struct mon_engine *eng = mon_engine_create(&cfg);
    struct osprey_detect *det = NULL;
    struct osprey_parsers *parsers = NULL;
    struct osprey_detect_opts o2 = *o;
    double t0 = now();
    /* with rules, the app-layer parsers too: rules on HTTP/DNS/TLS buffers run under them */
    if (eng && rs && osprey_parsers_define(eng, NULL, &parsers) != 0)
        exit(1);
    o2.parsers = parsers;
    if (!eng || (rs && osprey_detect_build_opts(&det, eng, rs, NULL, &o2) != 0)) {
        fprintf(stderr, "bench-detect: cannot compile the rules\n");
        exit(1);
    }
    double t1 = now();
    struct mon_ctx *ctx = NULL;
    if (mon_engine_freeze(eng) != MON_OK || !(ctx = mon_ctx_create(eng, 0)))
        exit(1);
    uint64_t alerts = 0;
    struct osprey_parsers_worker *pw = parsers ? osprey_parsers_attach(parsers, ctx) : NULL;
    if (parsers && !pw)
        exit(1);
    struct osprey_detect_worker *w = det ? osprey_detect_attach(det, ctx, count_alert, &alerts)
                                         : NULL;
    if (det && !w)
        exit(1);
    if (w)
        mon_set_flow_end_cb(ctx, flow_end, w);
    double t2 = now(), c2 = cpu();
    for (size_t i = 0; i < n; i++) {
        struct mon_packet p = fr[i].p;
        p.num = i + 1;
        mon_process(ctx, &p);
        osprey_detect_packet_end(w);
    }
    mon_flush(ctx);
    osprey_detect_packet_end(w);
    double t3 = now(), c3 = cpu();
    struct osprey_detect_mem mem = {0};
    if (w)
        mem = *osprey_detect_worker_mem(w);
    mon_ctx_destroy(ctx);
    osprey_detect_worker_free(w);
    osprey_parsers_worker_free(pw);
    double s = t3 - t2;
    printf("%-12s compile %8.1f ms  %9.0f pkt/s  %8.1f Mbit/s  alerts %llu", name,
           (t1 - t0) * 1e3, (double)n / s, (double)bytes * 8 / s / 1e6,
           (unsigned long long)alerts);
    printf("  cpu %.2f s (%.1f Mbit/s)", c3 - c2, (double)bytes * 8 / (c3 - c2) / 1e6);
    if (det) {
        const struct osprey_detect_stats *st = osprey_detect_stats(det);
        printf("  rules %u compiled (%u packet, %u stream, %u app-layer), UDEs %u for %u "
               "steps, fast patterns %u", st->compiled, st->packet_rules, st->stream_rules,
               st->app_rules, st->ude_nodes, st->option_nodes, st->fast_patterns);
    }
    if (det)
        printf("  stream windows peak %.1f MiB (whole-stream copies would hold >= %.1f MiB)",
               (double)mem.window_peak / 1048576, (double)mem.copy_peak / 1048576);
    printf("\n");
    osprey_detect_free(det);
    osprey_parsers_free(parsers);
    mon_engine_destroy(eng);
}

int main(int argc, char **argv)
{
    const char *rules[256];
    int nrules = 0, npcaps = 0;
    struct osprey_detect_opts o = {OSPREY_STREAM_MPM_BLOCK};
    char *pcaps[256];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-S") && i + 1 < argc && nrules < 256) {
            rules[nrules++] = argv[++i];
        } else if (!strcmp(argv[i], "-m") && i + 1 < argc) {
            int m = osprey_detect_stream_mpm_parse(argv[++i]);
            if (m < 0) {
                fprintf(stderr, "bench-detect: -m block|stream\n");
                return 2;
            }
            o.stream_mpm = (enum osprey_stream_mpm)m;
        }
        else if (npcaps < 256) {
            pcaps[npcaps++] = argv[i];
        }
    }
    if (npcaps == 0) {
        fprintf(stderr, "usage: bench-detect [-m block|stream] [-S RULES]... FILE.pcap...\n");
        return 2;
    }
    size_t n;
    uint64_t bytes = 0;
    struct bench_capture cap;
    if (bench_preload(&cap, pcaps, npcaps, "bench-detect") != 0)
        return 1;
    const struct bench_frame *fr = cap.f;
    n = cap.n;
    bytes = cap.bytes;
    printf("%zu packets, %.1f MB preloaded\n", n, (double)bytes / 1e6);
    pass("no rules", NULL, &o, fr, n, bytes);
    if (nrules) {
        double t0 = now();
        struct osprey_ruleset *rs;
        struct osprey_config *cfg;
        /* the built-in configuration's variables, plus Snort's SIP ones */
        const char *sets[] = {"vars.address-groups.SIP_SERVERS=$HOME_NET"};
        if (osprey_config_load(&cfg, NULL, sets, 1, stderr) < 0)
            return 1;
        FILE *devnull = fopen("/dev/null", "w");
        int rc = osprey_detect_load_rules(cfg, rules, nrules, devnull, &rs);
        osprey_config_free(cfg);
        if (devnull)
            fclose(devnull);
        if (rc < 0)
            return 1;
        printf("rules loaded in %.1f ms: %u accepted of %u enabled\n", (now() - t0) * 1e3,
               osprey_ruleset_stats(rs)->accepted, osprey_ruleset_stats(rs)->enabled);
        printf("stream fast patterns: %s mode\n",
               o.stream_mpm == OSPREY_STREAM_MPM_STREAM ? "stream" : "block");
        pass("rules", rs, &o, fr, n, bytes);
        osprey_ruleset_free(rs);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak RSS %ld KiB\n", ru.ru_maxrss);
    bench_capture_free(&cap);
    return 0;
}
