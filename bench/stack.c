/* bench-stack — libmon end to end on one core, as in mOS §5.2: the full stack (decode,
 * defrag, flows, both ends' TCP state, reassembly, events) under three applications:
 *   none      no handler registered (state tracking only, no buffers)
 *   pktcount  a PKT_IN handler counting packets per flow (per-flow user context)
 *   search    a CONN_NEW_DATA handler reading every reassembled byte (mon_peek) and
 *             searching it for a string
 * The capture is preloaded into memory; each mode runs on fresh contexts.
 *
 * usage: bench-stack [-n ROUNDS] FILE.pcap... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "mon.h"
#include "mon_io.h"
#include "preload.h"

struct app {
    uint64_t pkts, bytes, hits;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void count_pkt(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)side, (void)ev;
    uintptr_t n = (uintptr_t)mon_get_uctx(ctx, f);
    mon_set_uctx(ctx, f, (void *)(n + 1));
    ((struct app *)arg)->pkts++;
}

static void search(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ev;
    struct app *a = arg;
    static uint8_t buf[65536];
    ssize_t n;
    while ((n = mon_peek(ctx, f, side, buf, sizeof buf)) != 0) {
        if (n < 0) {
            if (n == MON_EOVERWRITTEN)
                continue;
            break;
        }
        a->bytes += (uint64_t)n;
        if (memmem(buf, (size_t)n, "User-Agent: osprey-bench", 24))
            a->hits++;
    }
}

static double run_mode(const char *mode, const struct bench_capture *cap, struct app *a,
                       uint64_t *flows, uint64_t *reasm_peak, struct mon_tcp_stats *ts)
{
    struct mon_engine_cfg cfg;
    mon_engine_cfg_defaults(&cfg);
    cfg.decode.checksum_mode = MON_CSUM_NONE;
    cfg.tcp.midstream = true; /* the benchmark captures start mid-conversation too */
    struct mon_engine *eng = mon_engine_create(&cfg);
    mon_engine_freeze(eng);
    struct mon_ctx *ctx = mon_ctx_create(eng, 0);
    if (strcmp(mode, "none")) {
        struct mon_sock *s = mon_socket(ctx, MON_SOCK_STREAM, NULL);
        if (!strcmp(mode, "pktcount"))
            mon_register(ctx, s, MON_ON_PKT_IN, MON_HK_SND, count_pkt, a);
        else
            mon_register(ctx, s, MON_ON_CONN_NEW_DATA, MON_HK_RCV, search, a);
    }
    struct mon_packet p;
    double t0 = now_s();
    for (size_t i = 0; i < cap->n; i++) {
        p = cap->f[i].p;
        mon_process(ctx, &p);
    }
    mon_flush(ctx);
    double dt = now_s() - t0;
    *flows = mon_flow_stats(mon_ctx_flows(ctx))->created;
    *reasm_peak = mon_ctx_tcp_stats(ctx)->reasm_memuse_peak;
    *ts = *mon_ctx_tcp_stats(ctx);
    mon_ctx_destroy(ctx);
    mon_engine_destroy(eng);
    return dt;
}

int main(int argc, char **argv)
{
    int rounds;
    struct bench_capture cap;
    int rc = bench_rounds_and_capture(argc, argv, "bench-stack", &rounds, &cap);
    if (rc != 0)
        return rc;
    size_t n = cap.n;
    uint64_t bytes = cap.bytes;
    printf("input: %zu frames, %.1f MB\n", n, bytes / 1e6);
    printf("record: %zu bytes per flow (TCP state of both ends included, buffers apart)\n",
           sizeof(struct mon_flow));
    const char *modes[] = {"none", "pktcount", "search"};
    for (int m = 0; m < 3; m++) {
        double best = 1e99;
        struct app a = {0, 0, 0};
        uint64_t flows = 0, peak = 0;
        struct mon_tcp_stats ts;
        memset(&ts, 0, sizeof ts);
        for (int r = 0; r < rounds; r++) {
            memset(&a, 0, sizeof a);
            double dt = run_mode(modes[m], &cap, &a, &flows, &peak, &ts);
            if (dt < best)
                best = dt;
        }
        printf("%-9s %.3f s  %.2f Mpkt/s  %.2f Gbit/s  flows %llu  reassembled %.1f MB  "
               "buffers peak %.1f MB\n", modes[m], best, n / best / 1e6, bytes * 8 / best / 1e9,
               (unsigned long long)flows, a.bytes / 1e6, peak / 1e6);
        printf("          tcp: sessions %llu, buffer memcap hits %llu, gaps %llu, out of window %llu, "
               "outruns %llu\n", (unsigned long long)ts.sessions, (unsigned long long)ts.memcap_hits,
               (unsigned long long)ts.gaps, (unsigned long long)ts.out_of_window,
               (unsigned long long)ts.outruns);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak RSS: %.1f MiB (includes the capture held in memory)\n", ru.ru_maxrss / 1024.0);
    bench_capture_free(&cap);
    return 0;
}
