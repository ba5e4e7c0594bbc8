/* run_dpdk.c — `osprey --dpdk`: DPDK ports bridged in pairs through the rules.
 *
 * Set-up: the EAL from dpdk.eal-args, the ports of dpdk.interfaces, one packet pool, the
 * pipeline (rules, one worker per dpdk.threads), then each port started with one RX/TX queue
 * pair per worker. Worker i runs on lcore i and polls queue i of every port: what it reads
 * on A goes through libmon and the rules, then out of B's queue i (copy-mode ips: unless the
 * verdict is drop; tap: always; none: never). Frames are the mbufs' bytes, never copied.
 * SIGTERM/SIGINT: each worker keeps reading and inspecting until its queues are empty (at
 * most a second; then inline.fail-mode open forwards the rest uninspected), flushes its flows,
 * and the ports stop; while stopped nothing crosses. Frames carry no arrival time here, so
 * inline.max-delay does not apply: a worker that falls behind shows as frames the ports
 * missed (a full RX ring drops at the port, i.e. closed).
 * A service thread (not an lcore) handles SIGHUP and periodic EVE stats; rule reloads are
 * picked up by osprey_worker_packet. It, and the pipeline's reload and control threads, run on
 * the CPUs the lcores leave free, so they never preempt a polling worker.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon.h"
#include "dpdk_args.h"
#include "mon_io.h"
#include "osprey_clock.h"
#include "pipeline.h"
#include "reject.h"
#include "run_dpdk.h"
#include "services.h"
#include "signals.h"

#define MAX_PAIRS 16
#define DRAIN_SECONDS 1.0

enum copy_mode { COPY_IPS, COPY_TAP, COPY_NONE };

struct dpdk_pair {
    int a, b; /* port ids; b = -1 without a peer (copy-mode none) */
};

struct dpdk_worker {
    struct osprey_worker *w;
    enum copy_mode mode;
    bool fail_open; /* inline.fail-mode open */
    struct mon_source *src[2 * MAX_PAIRS];
    int nsrc;
};

/* "A:B" → two ports; "A" alone → one port (copy-mode none only: nothing to forward to).
 * Device names may hold colons (PCI addresses), so a pair splits at the first colon where
 * both sides name a port. */
static int parse_pair(const char *item, enum copy_mode mode, struct dpdk_pair *p)
{
    char err[256] = "", single[256] = "";
    if (mode == COPY_NONE && (p->a = mon_dpdk_port_find(item, single, sizeof single)) >= 0) {
        p->b = -1;
        return 0;
    }
    for (const char *c = strchr(item, ':'); c; c = strchr(c + 1, ':')) {
        char left[256];
        snprintf(left, sizeof left, "%.*s", (int)(c - item), item);
        int a = mon_dpdk_port_find(left, err, sizeof err);
        int b = a >= 0 ? mon_dpdk_port_find(c + 1, err, sizeof err) : -1;
        if (a >= 0 && b >= 0 && a != b) {
            p->a = a;
            p->b = b;
            return 0;
        }
    }
    if (!strchr(item, ':') && single[0])
        snprintf(err, sizeof err, "%s", single);
    fprintf(stderr, "osprey: dpdk.interfaces: '%s' is not %s%s%s\n", item,
            mode == COPY_NONE ? "a DPDK port (nor a pair A:B of two)"
                              : "a pair A:B of two DPDK ports",
            err[0] ? ": " : "", err);
    return -1;
}

/* A reject rule matched: RST or ICMP unreachable frames leave after the batch, out of the
 * receiving port towards the packet's source and out of the peer towards its destination. */
static void send_rejects(struct osprey_worker *w, struct mon_source *src,
                         const struct mon_packet *p)
{
    enum osprey_reject_to to;
    enum osprey_reject kind = osprey_detect_packet_reject(w->dw, &to);
    if (kind == OSPREY_REJECT_NONE)
        return;
    struct osprey_reject_frame fr[2];
    int n = osprey_reject_build(p, kind, to, fr);
    for (int i = 0; i < n; i++)
        mon_dpdk_inject(src, fr[i].to_src, fr[i].data, fr[i].len);
}

/* One batch from one source: inspect (unless !inspect: fail-open after the drain), apply
 * the verdicts, forward. Returns frames read. */
static int worker_batch(struct dpdk_worker *dw, struct mon_source *src, struct mon_packet *batch,
                        bool inspect)
{
    struct osprey_worker *w = dw->w;
    int n = mon_source_read(src, batch, MON_IO_BATCH);
    if (n <= 0)
        return 0;
    const struct mon_dpdk_counters before = *mon_dpdk_source_counters(src);
    uint64_t bytes = 0, flow_drops = 0;
    for (int i = 0; i < n && inspect; i++) {
        struct mon_packet *p = &batch[i];
        bytes += p->caplen;
        osprey_worker_idle(w); /* switch rules (reload) first, so both reads see one dw */
        uint64_t flow_before = osprey_detect_worker_verdicts(w->dw)->dropped_flow;
        enum mon_decode_outcome o = osprey_worker_packet(w, p);
        /* the verdict belongs to a packet that reached detection: an IP datagram; a held
         * fragment or a non-IP frame is forwarded as it is */
        bool drop = (o == MON_DEC_IP && osprey_detect_packet_dropped(w->dw)) ||
                    (p->flags & MON_PKT_DROPPED);
        if (dw->mode == COPY_IPS && drop) {
            mon_dpdk_drop(src, i);
            if (o == MON_DEC_IP)
                send_rejects(w, src, p);
            flow_drops += osprey_detect_worker_verdicts(w->dw)->dropped_flow != flow_before;
        }
    }
    mon_dpdk_complete(src);
    const struct mon_dpdk_counters *c = mon_dpdk_source_counters(src);
    uint64_t fwd = c->forwarded - before.forwarded;
    atomic_fetch_add_explicit(&w->cap.packets, (uint64_t)n, memory_order_relaxed);
    atomic_fetch_add_explicit(&w->cap.bytes, bytes, memory_order_relaxed);
    atomic_fetch_add_explicit(&w->cap.forwarded, fwd, memory_order_relaxed);
    atomic_fetch_add_explicit(inspect ? &w->cap.drop_verdict : &w->cap.fail_open,
                              inspect ? c->dropped - before.dropped : fwd, memory_order_relaxed);
    atomic_fetch_add_explicit(&w->cap.drop_flow, flow_drops, memory_order_relaxed);
    atomic_fetch_add_explicit(&w->cap.tx_errors, c->tx_full - before.tx_full,
                              memory_order_relaxed);
    atomic_fetch_add_explicit(&w->cap.rejects_sent, c->injected - before.injected,
                              memory_order_relaxed);
    return n;
}

/* Read every source once; frames read. */
static int worker_round(struct dpdk_worker *dw, struct mon_packet *batch, bool inspect)
{
    int got = 0;
    for (int s = 0; s < dw->nsrc; s++)
        got += worker_batch(dw, dw->src[s], batch, inspect);
    return got;
}

/* A worker's lcore: poll every source until stopped, then drain and flush. */
static int worker_main(void *arg)
{
    struct dpdk_worker *dw = arg;
    struct mon_packet *batch = calloc(MON_IO_BATCH, sizeof *batch);
    if (!batch) {
        fprintf(stderr, "osprey: worker %d: out of memory\n", dw->w->id);
        osprey_signal_raise(OSPREY_SIG_STOP);
        return -1;
    }
    uint64_t last_tick = osprey_clock_wall_us();
    while (!osprey_signal_take(OSPREY_SIG_STOP)) {
        if (worker_round(dw, batch, true) == 0) {
            uint64_t t = osprey_clock_wall_us();
            if (t - last_tick >= 100000) { /* idle: let flows and fragments time out */
                mon_tick(dw->w->ctx, t);
                osprey_worker_idle(dw->w); /* a reload is not held up by a quiet port */
                last_tick = t;
            }
        }
    }
    /* Drain: what the queues hold when the stop comes is still inspected, for at most
     * DRAIN_SECONDS. What is left after that is inline.fail-mode's: open forwards it
     * uninspected (another DRAIN_SECONDS at most), closed leaves it to die with the port. */
    double until = osprey_clock_mono_s() + DRAIN_SECONDS;
    int got = 1;
    while (got > 0 && osprey_clock_mono_s() < until)
        got = worker_round(dw, batch, true);
    until = osprey_clock_mono_s() + DRAIN_SECONDS;
    while (got > 0 && dw->fail_open && osprey_clock_mono_s() < until)
        got = worker_round(dw, batch, false);
    osprey_worker_flush(dw->w);
    free(batch);
    return 0;
}

struct dpdk_setup {
    enum copy_mode mode;
    struct dpdk_pair pair[MAX_PAIRS];
    int npairs;
    int threads;
    struct rte_mempool *mp;
    int started[2 * MAX_PAIRS]; /* ports started, to stop */
    int nstarted;
};

static int parse_interfaces(const struct osprey_config *cfg, struct dpdk_setup *st)
{
    size_t n;
    const char *const *items = osprey_config_list(cfg, "dpdk.interfaces", &n);
    if (n == 0) {
        fprintf(stderr, "osprey: --dpdk: dpdk.interfaces lists no ports (e.g. "
                        "--set dpdk.interfaces=[net_pcap0:net_pcap1])\n");
        return -1;
    }
    if (n > MAX_PAIRS) {
        fprintf(stderr, "osprey: dpdk.interfaces: at most %d entries\n", MAX_PAIRS);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (parse_pair(items[i], st->mode, &st->pair[i]) < 0)
            return -1;
        for (size_t j = 0; j < i; j++) {
            const struct dpdk_pair *p = &st->pair[j], *q = &st->pair[i];
            if (p->a == q->a || p->a == q->b || (p->b >= 0 && (p->b == q->a || p->b == q->b))) {
                fprintf(stderr, "osprey: dpdk.interfaces: '%s' uses a port listed before\n",
                        items[i]);
                return -1;
            }
        }
    }
    st->npairs = (int)n;
    return 0;
}

static enum copy_mode copy_mode(const struct osprey_config *cfg)
{
    const char *m = osprey_config_str(cfg, "dpdk.copy-mode");
    return strcmp(m, "tap") == 0 ? COPY_TAP : strcmp(m, "none") == 0 ? COPY_NONE : COPY_IPS;
}

static int start_ports(const struct osprey_config *cfg, struct dpdk_setup *st)
{
    struct mon_dpdk_port_cfg pc = {
        .queues = (uint16_t)st->threads,
        .rx_desc = (uint16_t)osprey_config_int(cfg, "dpdk.rx-descriptors"),
        .tx_desc = (uint16_t)osprey_config_int(cfg, "dpdk.tx-descriptors"),
        .promisc = osprey_config_bool(cfg, "dpdk.promisc"),
    };
    char err[512];
    for (int i = 0; i < st->npairs; i++) {
        int ports[2] = {st->pair[i].a, st->pair[i].b};
        for (int k = 0; k < 2 && ports[k] >= 0; k++) {
            if (mon_dpdk_port_start((uint16_t)ports[k], &pc, st->mp, err, sizeof err) < 0) {
                fprintf(stderr, "osprey: %s\n", err);
                return -1;
            }
            st->started[st->nstarted++] = ports[k];
        }
    }
    return 0;
}

/* Worker i's sources: queue i of every port, each forwarding to its pair's other port. */
static int open_sources(struct dpdk_worker *dw, const struct dpdk_setup *st, int i)
{
    char err[256];
    for (int p = 0; p < st->npairs; p++) {
        int ends[2][2] = {{st->pair[p].a, st->pair[p].b}, {st->pair[p].b, st->pair[p].a}};
        for (int d = 0; d < 2 && ends[d][0] >= 0; d++) {
            struct mon_dpdk_queue_cfg qc = {
                .port = (uint16_t)ends[d][0],
                .queue = (uint16_t)i,
                .peer = st->mode == COPY_NONE ? -1 : ends[d][1],
                .mp = st->mp,
            };
            if (!(dw->src[dw->nsrc] = mon_source_open_dpdk(&qc, err, sizeof err))) {
                fprintf(stderr, "osprey: %s\n", err);
                return -1;
            }
            dw->nsrc++;
        }
    }
    return 0;
}

static void print_summary(const struct osprey_pipeline *pl, const struct dpdk_worker *dws,
                          const struct dpdk_setup *st, double secs)
{
    struct mon_dpdk_counters t = {0};
    uint64_t alerts = 0, flows = 0, missed = 0;
    for (int i = 0; i < pl->nworkers; i++) {
        for (int s = 0; s < dws[i].nsrc; s++) {
            const struct mon_dpdk_counters *c = mon_dpdk_source_counters(dws[i].src[s]);
            t.rx += c->rx;
            t.forwarded += c->forwarded;
            t.dropped += c->dropped;
            t.injected += c->injected;
            t.tx_full += c->tx_full;
            t.truncated += c->truncated;
        }
        alerts += osprey_worker_alerts(&pl->w[i]);
        flows += mon_flow_stats(mon_ctx_flows(pl->w[i].ctx))->created;
    }
    for (int i = 0; i < st->nstarted; i++)
        missed += mon_dpdk_port_missed((uint16_t)st->started[i]);
    printf("osprey: dpdk: %llu packets, %llu forwarded, %llu dropped, %llu rejects sent, "
           "%llu lost on full TX rings, %llu missed by the ports, %llu truncated\n",
           (unsigned long long)t.rx, (unsigned long long)t.forwarded,
           (unsigned long long)t.dropped, (unsigned long long)t.injected,
           (unsigned long long)t.tx_full, (unsigned long long)missed,
           (unsigned long long)t.truncated);
    printf("osprey: %llu flows, %llu alerts, %d workers, %.3f s; alerts in %s\n",
           (unsigned long long)flows, (unsigned long long)alerts, pl->nworkers, secs,
           osprey_emit_eve_path(pl->emit));
}

/* The process's chores while the workers forward, on a plain thread (not an lcore): SIGHUP
 * log reopening and periodic EVE stats, until SIGTERM/SIGINT. */
static void *service_main(void *arg)
{
    struct osprey_pipeline *pl = arg;
    while (!osprey_daemon_poll(pl->emit)) {
        if (osprey_emit_stats_due(pl->emit))
            osprey_pipeline_stats(pl);
        usleep(50000);
    }
    return NULL;
}

int osprey_run_dpdk(const struct osprey_options *opts, const struct osprey_config *cfg)
{
    struct dpdk_setup st = {.mode = copy_mode(cfg)};
    struct osprey_pipeline pl = {0};
    struct dpdk_worker *dws = NULL;
    void **args = NULL;
    int rc = OSPREY_EXIT_FAILURE, argc = 0;
    char err[512];
    char **argv = osprey_dpdk_eal_argv(cfg, &argc);
    if (!argv) {
        fprintf(stderr, "osprey: out of memory\n");
        return OSPREY_EXIT_FAILURE;
    }
    if (mon_dpdk_init(argc, argv, err, sizeof err) < 0) {
        fprintf(stderr, "osprey: --dpdk: %s\n", err);
        osprey_dpdk_argv_free(argv, argc);
        return OSPREY_EXIT_FAILURE;
    }
    osprey_signals_install();
    mon_dpdk_control_affinity(); /* threads started from here on stay off the lcores' CPUs */
    int64_t threads = osprey_config_int(cfg, "dpdk.threads");
    unsigned lcores = mon_dpdk_lcores();
    st.threads = threads > 0 ? (int)threads : (int)lcores;
    if ((unsigned)st.threads > lcores) {
        fprintf(stderr, "osprey: dpdk.threads is %d but the EAL runs %u lcores: give it more "
                        "with -l in dpdk.eal-args\n", st.threads, lcores);
        goto out;
    }
    if (parse_interfaces(cfg, &st) < 0)
        goto out;
    if (!(st.mp = mon_dpdk_pool_create((unsigned)osprey_config_int(cfg, "dpdk.mempool-size"),
                                       (unsigned)osprey_config_int(cfg, "dpdk.mempool-cache-size"),
                                       err, sizeof err))) {
        fprintf(stderr, "osprey: %s\n", err);
        goto out;
    }
    if (osprey_pipeline_open(&pl, opts, cfg, st.threads, &osprey_services) < 0)
        goto out;
    dws = calloc((size_t)st.threads, sizeof *dws);
    args = calloc((size_t)st.threads, sizeof *args);
    if (!dws || !args) {
        fprintf(stderr, "osprey: out of memory\n");
        goto out;
    }
    for (int i = 0; i < st.threads; i++) {
        dws[i].w = &pl.w[i];
        dws[i].mode = st.mode;
        dws[i].fail_open = strcmp(osprey_config_str(cfg, "inline.fail-mode"), "open") == 0;
        pl.w[i].inline_mode = st.mode == COPY_IPS;
        pl.w[i].cap.live = true;
        args[i] = &dws[i];
        if (open_sources(&dws[i], &st, i) < 0)
            goto out;
    }
    if (start_ports(cfg, &st) < 0)
        goto out;
    printf("osprey: ready (dpdk, %d ports, %d workers, copy-mode %s)\n", st.nstarted,
           st.threads, osprey_config_str(cfg, "dpdk.copy-mode"));
    fflush(stdout);
    osprey_daemon_ready(); /* -D: the starting command may exit 0 now */
    double t0 = osprey_clock_mono_s();
    pthread_t service;
    int e = pthread_create(&service, NULL, service_main, &pl);
    if (e != 0) {
        fprintf(stderr, "osprey: cannot start the service thread: %s\n", strerror(e));
        goto out;
    }
    mon_dpdk_lcore_affinity(); /* this thread becomes worker 0 on the main lcore */
    int launched = mon_dpdk_launch(worker_main, args, (unsigned)st.threads);
    osprey_signal_raise(OSPREY_SIG_STOP); /* the service thread ends with the workers */
    pthread_join(service, NULL);
    if (launched < 0) {
        fprintf(stderr, "osprey: cannot launch the workers on their lcores\n");
        goto out;
    }
    double secs = osprey_clock_mono_s() - t0;
    print_summary(&pl, dws, &st, secs);
    rc = OSPREY_EXIT_OK;
out:
    for (int i = 0; dws && i < st.threads; i++)
        for (int s = 0; s < dws[i].nsrc; s++)
            mon_source_close(dws[i].src[s]);
    for (int i = 0; i < st.nstarted; i++)
        mon_dpdk_port_stop((uint16_t)st.started[i]);
    if (osprey_pipeline_close(&pl) < 0)
        rc = OSPREY_EXIT_FAILURE;
    free(dws);
    free(args);
    mon_dpdk_pool_free(st.mp);
    mon_dpdk_cleanup();
    osprey_dpdk_argv_free(argv, argc);
    return rc;
}
