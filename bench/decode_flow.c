/* bench-decode-flow — decode + flow throughput on one core, and memory per flow.
 *
 * usage: bench-decode-flow [-n ROUNDS] [--flows N] FILE.pcap...
 * The capture is loaded into memory first so the figure is the stack's, not the disk's;
 * each round runs decode + defrag + flow over every frame with fresh tables. Then N synthetic
 * UDP flows (default 1,000,000) are created at once to measure bytes per concurrent flow. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "mon_decode.h"
#include "mon_defrag.h"
#include "mon_flow.h"
#include "mon_io.h"
#include "preload.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void synthetic_flows(uint32_t nflows)
{
    struct mon_flow_cfg cfg;
    mon_flow_cfg_defaults(&cfg);
    cfg.memcap = 4ull << 30;
    cfg.hash_size = nflows;
    cfg.prealloc = 0;
    struct mon_flow_table *t = mon_flow_table_create(&cfg, NULL, NULL);
    struct mon_packet p;
    memset(&p, 0, sizeof p);
    p.ipver = 4;
    p.proto = 17;
    p.flags = MON_PKT_HAS_L4;
    p.caplen = 64;
    double t0 = now_s();
    int dir;
    for (uint32_t i = 0; i < nflows; i++) {
        p.src.b[0] = 10;
        p.src.b[1] = (uint8_t)(i >> 16);
        p.src.b[2] = (uint8_t)(i >> 8);
        p.src.b[3] = (uint8_t)i;
        p.dst.b[0] = 192;
        p.sport = (uint16_t)(1024 + (i & 0x7fff));
        p.dport = 53;
        p.ts_us = i;
        mon_flow_handle(t, &p, &dir);
    }
    double dt = now_s() - t0;
    const struct mon_flow_stats *st = mon_flow_stats(t);
    printf("flows: %u concurrent UDP flows created in %.3f s (%.2f M flows/s)\n", nflows, dt,
           nflows / dt / 1e6);
    printf("flows: record %zu B, table memory %.1f MiB = %.1f B per flow incl. buckets and slack\n",
           sizeof(struct mon_flow), st->memuse / 1048576.0, (double)st->memuse / st->active);
    mon_flow_table_destroy(t);
}

int main(int argc, char **argv)
{
    int rounds = 3;
    uint32_t nflows = 1000000;
    static const struct option opts[] = {{"flows", required_argument, NULL, 'f'}, {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "n:", opts, NULL)) != -1) {
        if (c == 'n')
            rounds = atoi(optarg);
        else if (c == 'f')
            nflows = (uint32_t)strtoul(optarg, NULL, 10);
        else
            return 2;
    }
    if (optind == argc) {
        fprintf(stderr, "usage: bench-decode-flow [-n ROUNDS] [--flows N] FILE.pcap...\n");
        return 2;
    }
    struct bench_capture cap;
    if (bench_preload(&cap, argv + optind, argc - optind, "bench-decode-flow") != 0)
        return 1;
    size_t n = cap.n;
    uint64_t bytes = cap.bytes;
    printf("input: %zu frames, %.1f MB from %d file(s)\n", n, bytes / 1e6, argc - optind);

    double best = 1e99;
    uint64_t flows = 0;
    for (int r = 0; r < rounds; r++) {
        struct mon_decode_cfg dcfg;
        mon_decode_cfg_defaults(&dcfg);
        dcfg.checksum_mode = MON_CSUM_NONE; /* -k none, as the reference figures are taken */
        struct mon_defrag_cfg dfcfg;
        mon_defrag_cfg_defaults(&dfcfg);
        struct mon_flow_cfg fcfg;
        mon_flow_cfg_defaults(&fcfg);
        struct mon_defrag *df = mon_defrag_create(&dfcfg);
        struct mon_flow_table *ft = mon_flow_table_create(&fcfg, NULL, NULL);
        struct mon_decoder dec;
        mon_decoder_init(&dec, &dcfg, df);
        struct mon_packet p;
        double t0 = now_s();
        for (size_t i = 0; i < n; i++) {
            memcpy(&p, &cap.f[i].p, offsetof(struct mon_packet, layer));
            if (mon_decode(&dec, &p) == MON_DEC_IP) {
                int dir;
                mon_flow_handle(ft, &p, &dir);
            }
            if ((i & 255) == 0) {
                mon_flow_expire(ft, p.ts_us);
                mon_defrag_expire(df, p.ts_us, &dec.stats);
            }
        }
        mon_flow_flush(ft);
        double dt = now_s() - t0;
        if (dt < best)
            best = dt;
        flows = mon_flow_stats(ft)->created;
        mon_flow_table_destroy(ft);
        mon_defrag_destroy(df);
    }
    printf("decode+defrag+flow, 1 core, best of %d: %.3f s, %.2f Mpkt/s, %.2f Gbit/s, %lu flows\n",
           rounds, best, n / best / 1e6, bytes * 8 / best / 1e9, (unsigned long)flows);

    synthetic_flows(nflows);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak RSS: %.1f MiB (includes the capture held in memory)\n", ru.ru_maxrss / 1024.0);
    bench_capture_free(&cap);
    return 0;
}
