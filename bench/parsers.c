/* bench-parsers — what the app-layer parsers cost: the capture (preloaded) through libmon
 * twice on one core, once with a CONN_NEW_DATA handler only (reassembly for every flow, the
 * baseline) and once with the parsers attached and a handler on every HTTP, DNS and TLS
 * event reading one buffer. Prints both rates, the parsers' share, and what they found.
 *
 * usage: bench-parsers [-n ROUNDS] FILE.pcap... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mon.h"
#include "osprey_parsers.h"
#include "preload.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void on_data(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ctx, (void)f, (void)side, (void)ev, (void)arg;
}

struct seen {
    uint64_t events, bytes;
    int uri;              /* the buffer read at each event (http.uri), -1: none */
};

static void on_app(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)side, (void)ev;
    struct seen *s = arg;
    uint32_t n = 0;
    if (s->uri >= 0)
        osprey_parsers_buffer(ctx, f, (uint16_t)s->uri, &n);
    s->events++;
    s->bytes += n;
}

static double run(const struct bench_capture *cap, bool parsers, struct seen *s,
                  struct osprey_parsers_stats *out)
{
    struct mon_engine_cfg cfg;
    mon_engine_cfg_defaults(&cfg);
    cfg.decode.checksum_mode = MON_CSUM_NONE;
    struct mon_engine *eng = mon_engine_create(&cfg);
    struct osprey_parsers *p = NULL;
    if (!eng || (parsers && osprey_parsers_define(eng, NULL, &p) != 0) || mon_engine_freeze(eng)) {
        fprintf(stderr, "bench-parsers: cannot set up the stack\n");
        exit(1);
    }
    struct mon_ctx *ctx = mon_ctx_create(eng, 0);
    struct osprey_parsers_worker *w = parsers ? osprey_parsers_attach(p, ctx) : NULL;
    struct mon_sock *sock = mon_socket(ctx, MON_SOCK_STREAM, NULL);
    if (!ctx || !sock || (parsers && !w)) {
        fprintf(stderr, "bench-parsers: cannot set up the stack\n");
        exit(1);
    }
    mon_register(ctx, sock, MON_ON_CONN_NEW_DATA, MON_HK_RCV, on_data, NULL);
    if (parsers) {
        s->uri = osprey_buffer_find("http.uri", 0);
        for (uint16_t e = 0; e < osprey_event_count(); e++) /* every protocol's events */
            mon_register(ctx, sock, osprey_parsers_event(p, e), MON_HK_ANY, on_app, s);
    }
    struct mon_packet pkt;
    double t0 = now_s();
    for (size_t i = 0; i < cap->n; i++) {
        pkt = cap->f[i].p;
        pkt.frame = cap->f[i].data;
        mon_process(ctx, &pkt);
    }
    mon_flush(ctx);
    double dt = now_s() - t0;
    if (w)
        *out = *osprey_parsers_worker_stats(w);
    mon_ctx_destroy(ctx);
    osprey_parsers_worker_free(w);
    osprey_parsers_free(p);
    mon_engine_destroy(eng);
    return dt;
}

int main(int argc, char **argv)
{
    int rounds;
    struct bench_capture cap;
    int rc = bench_rounds_and_capture(argc, argv, "bench-parsers", &rounds, &cap);
    if (rc != 0)
        return rc;
    double best[2] = {1e30, 1e30};
    struct seen s = {0, 0, -1};
    struct osprey_parsers_stats st;
    memset(&st, 0, sizeof st);
    for (int r = 0; r < rounds; r++) {
        for (int mode = 0; mode < 2; mode++) {
            s = (struct seen){0, 0, -1};
            double dt = run(&cap, mode == 1, &s, &st);
            if (dt < best[mode])
                best[mode] = dt;
        }
    }
    double gbit = (double)cap.bytes * 8 / 1e9;
    printf("bench-parsers: %zu packets, %.1f MB, best of %d\n", cap.n, (double)cap.bytes / 1e6, rounds);
    printf("  stack + reassembly only : %.3f s  %.2f Gbit/s  %.0f kpps\n", best[0],
           gbit / best[0], (double)cap.n / best[0] / 1e3);
    printf("  with the parsers        : %.3f s  %.2f Gbit/s  %.0f kpps  (parsers: +%.1f%%)\n",
           best[1], gbit / best[1], (double)cap.n / best[1] / 1e3,
           100.0 * (best[1] - best[0]) / best[0]);
    printf("  found: flows");
    for (uint16_t p = OSPREY_APP_PROTO_FAILED; p < osprey_app_proto_count(); p++)
        printf(" %s %llu", osprey_app_proto_name(p), (unsigned long long)st.v[p]);
    printf("; app events %llu\n  counters:", (unsigned long long)s.events);
    for (uint16_t i = osprey_app_proto_count(); i < osprey_parsers_stat_count(); i++)
        printf(" %s %llu", osprey_parsers_stat_name(i), (unsigned long long)st.v[i]);
    printf("\n");
    bench_capture_free(&cap);
    return 0;
}
