/* test_io_dpdk.c — the DPDK source (io/dpdk.c) through its public API on net_ring ports.
 *
 * A net_ring port created from EAL arguments loops back: what is sent on it is received on
 * it. So frames injected towards port 0 come in on port 0, are read by a source that forwards
 * to port 1 (some marked dropped, some frames injected in both directions), and what port 1
 * then receives is exactly what was forwarded, in order. Runs the EAL without hugepages,
 * PCI or shared files.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon_io.h"
#include "unit.h"

#define NFRAMES 5

static uint8_t frames[NFRAMES][128];
static uint32_t lens[NFRAMES];

static void make_frames(void)
{
    for (int i = 0; i < NFRAMES; i++) {
        lens[i] = 60 + 10u * (uint32_t)i;
        for (uint32_t b = 0; b < lens[i]; b++)
            frames[i][b] = (uint8_t)(i * 31 + b);
    }
}

static int same(const struct mon_packet *p, const uint8_t *frame, uint32_t len)
{
    return p->caplen == len && p->wirelen == len && memcmp(p->frame, frame, len) == 0;
}

static int ran_on_main;
static int mark(void *arg)
{
    *(int *)arg = 1;
    return 0;
}

int main(void)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, "--file-prefix=osprey-unit-dpdk-%d", (int)getpid());
    char *argv[] = {"test_io_dpdk", "--no-huge", "--no-pci", "--no-shconf", "-m", "128", prefix,
                    "-l", "0", "--no-telemetry", "--log-level=lib.eal:error",
                    "--vdev=net_ring0", "--vdev=net_ring1"};
    char err[512] = "";
    int rc = mon_dpdk_init((int)(sizeof argv / sizeof *argv), argv, err, sizeof err);
    CHECK(rc == 0);
    if (rc != 0) {
        fprintf(stderr, "EAL: %s\n", err);
        return unit_report("test_io_dpdk");
    }
    make_frames();

    /* lcores and launch: one lcore (-l 0) runs the function on the caller */
    CHECK_EQ_U(mon_dpdk_lcores(), 1);
    void *args[2] = {&ran_on_main, &ran_on_main};
    CHECK(mon_dpdk_launch(mark, args, 1) == 0 && ran_on_main == 1);
    CHECK(mon_dpdk_launch(mark, args, 2) == -1); /* more workers than lcores */

    /* affinity: off the lcore's CPU (when there is another), then back on it */
    cpu_set_t cs;
    CHECK(mon_dpdk_control_affinity() == 0);
    CHECK(sched_getaffinity(0, sizeof cs, &cs) == 0);
    if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
        CHECK(!CPU_ISSET(0, &cs) && CPU_COUNT(&cs) >= 1);
    CHECK(mon_dpdk_lcore_affinity() == 0);
    CHECK(sched_getaffinity(0, sizeof cs, &cs) == 0);
    CHECK(CPU_ISSET(0, &cs) && CPU_COUNT(&cs) == 1);

    /* ports by name and number */
    CHECK(mon_dpdk_port_find("net_ring0", err, sizeof err) == 0);
    CHECK(mon_dpdk_port_find("net_ring1", err, sizeof err) == 1);
    CHECK(mon_dpdk_port_find("1", err, sizeof err) == 1);
    CHECK(mon_dpdk_port_find("net_ring9", err, sizeof err) == -1);
    CHECK(strstr(err, "no DPDK port 'net_ring9' (2 ports") != NULL);

    struct rte_mempool *mp = mon_dpdk_pool_create(1023, 0, err, sizeof err);
    CHECK(mp != NULL);
    struct mon_dpdk_port_cfg pc = {.queues = 1, .rx_desc = 256, .tx_desc = 256, .promisc = true};
    CHECK(mon_dpdk_port_start(0, &pc, mp, err, sizeof err) == 0);
    CHECK(mon_dpdk_port_start(1, &pc, mp, err, sizeof err) == 0);
    /* more workers than the port has queues: refused before touching the port */
    struct mon_dpdk_port_cfg many = {.queues = 1025};
    CHECK(mon_dpdk_port_start(1, &many, mp, err, sizeof err) == -1);
    CHECK(strstr(err, "1025 workers need one each: lower dpdk.threads") != NULL);

    /* feed port 0: frames injected from port 1's side go out of its peer, port 0 */
    struct mon_dpdk_queue_cfg fq = {.port = 1, .queue = 0, .peer = 0, .mp = mp};
    struct mon_source *feeder = mon_source_open_dpdk(&fq, err, sizeof err);
    for (int i = 0; i < NFRAMES; i++)
        CHECK(mon_dpdk_inject(feeder, false, frames[i], lens[i]) == 0);
    CHECK(mon_dpdk_complete(feeder) == NFRAMES);
    CHECK_EQ_U(mon_dpdk_source_counters(feeder)->injected, NFRAMES);

    /* the bridge's side: read port 0, drop 1 and 3, inject one frame each way */
    struct mon_dpdk_queue_cfg bq = {.port = 0, .queue = 0, .peer = 1, .mp = mp};
    struct mon_source *bridge = mon_source_open_dpdk(&bq, err, sizeof err);
    struct mon_packet pkts[MON_IO_BATCH];
    int n = mon_source_read(bridge, pkts, MON_IO_BATCH);
    CHECK_EQ_U(n, NFRAMES);
    for (int i = 0; i < n && i < NFRAMES; i++) {
        CHECK(same(&pkts[i], frames[i], lens[i])); /* zero copy, but the same bytes */
        CHECK_EQ_U(pkts[i].num, i + 1);
        CHECK_EQ_U(pkts[i].linktype, 1);
    }
    mon_dpdk_drop(bridge, 1);
    mon_dpdk_drop(bridge, 3);
    mon_dpdk_drop(bridge, 3);  /* counted once */
    mon_dpdk_drop(bridge, 99); /* not in the batch: ignored */
    static const uint8_t to_dst[64] = {0xd5}, to_src[64] = {0x5c};
    CHECK(mon_dpdk_inject(bridge, false, to_dst, sizeof to_dst) == 0);
    CHECK(mon_dpdk_inject(bridge, true, to_src, sizeof to_src) == 0);
    CHECK(mon_dpdk_complete(bridge) == 3 + 2);
    const struct mon_dpdk_counters *c = mon_dpdk_source_counters(bridge);
    CHECK_EQ_U(c->rx, NFRAMES);
    CHECK_EQ_U(c->forwarded, 3);
    CHECK_EQ_U(c->dropped, 2);
    CHECK_EQ_U(c->injected, 2);
    CHECK_EQ_U(c->tx_full, 0);
    CHECK_EQ_U(bridge->frames, NFRAMES);

    /* port 1 received the kept frames in order, then the frame injected towards it */
    struct mon_dpdk_queue_cfg rq = {.port = 1, .queue = 0, .peer = -1, .mp = mp};
    struct mon_source *far = mon_source_open_dpdk(&rq, err, sizeof err);
    n = mon_source_read(far, pkts, MON_IO_BATCH);
    CHECK_EQ_U(n, 4);
    if (n == 4) {
        CHECK(same(&pkts[0], frames[0], lens[0]));
        CHECK(same(&pkts[1], frames[2], lens[2]));
        CHECK(same(&pkts[2], frames[4], lens[4]));
        CHECK(same(&pkts[3], to_dst, sizeof to_dst));
    }
    /* receive-only: nothing leaves, injecting towards a peer it has not fails and counts */
    CHECK(mon_dpdk_inject(far, false, to_dst, sizeof to_dst) == -1);
    CHECK_EQ_U(mon_dpdk_source_counters(far)->tx_full, 1);
    CHECK(mon_dpdk_complete(far) == 0);
    CHECK(mon_source_read(far, pkts, MON_IO_BATCH) == 0);

    /* the frame injected back went out of port 0, where the bridge reads it */
    n = mon_source_read(bridge, pkts, MON_IO_BATCH);
    CHECK_EQ_U(n, 1);
    if (n == 1)
        CHECK(same(&pkts[0], to_src, sizeof to_src));
    mon_dpdk_drop(bridge, 0);

    mon_source_close(bridge); /* completes the batch: the dropped mbuf is freed */
    mon_source_close(far);
    mon_source_close(feeder);
    mon_dpdk_port_stop(0);
    mon_dpdk_port_stop(1);
    mon_dpdk_pool_free(mp);
    mon_dpdk_cleanup();
    /* the EAL leaves its (empty, with --no-shconf) runtime directory behind */
    char dir[512];
    const char *base = getuid() == 0 ? "/var/run" : getenv("XDG_RUNTIME_DIR");
    snprintf(dir, sizeof dir, "%s/dpdk/%s", base ? base : "/tmp", prefix + 14);
    rmdir(dir);
    return unit_report("test_io_dpdk");
}
