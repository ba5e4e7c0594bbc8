/* run_live.c — live capture: the worker threads every live mode runs on, and the IDS mode
 * (`osprey -i IFACE…`, `--pcap-live IFACE…`). See run_live.h.
 *
 * A worker polls its sources, reads batches and hands each to the mode (IDS: every frame to
 * the pipeline; inline: run_inline.c). When nothing arrives for 100 ms it advances its
 * flows' clock (mon_tick) so idle flows still time out. Once SIGTERM/SIGINT is seen it drains
 * what is already in its rings (at most 2 s of it, so a flood cannot hold it forever), ends
 * every flow (records written) and returns.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "daemon.h"
#include "osprey_clock.h"
#include "run_live.h"
#include "services.h"
#include "signals.h"

#define IDLE_TICK_US 100000u   /* advance flow time after this long without frames */
#define STATS_EVERY_US 1000000u
#define DRAIN_MAX_US 2000000u

static void cap_add(_Atomic uint64_t *c, uint64_t n)
{
    /* single writer (the worker): a relaxed load+store, no locked instruction */
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + n,
                          memory_order_relaxed);
}

/* The kernel's counters of the worker's sockets into its capture stats. */
static void refresh_kernel_stats(struct osprey_live_worker *lw)
{
    uint64_t pk = 0, dr = 0;
    for (int k = 0; k < lw->nsrc; k++) {
        struct mon_live_stats st;
        if (mon_source_stats(lw->src[k], &st) == 0) {
            pk += st.kernel_packets;
            dr += st.kernel_drops + st.if_drops;
        }
    }
    atomic_store_explicit(&lw->w->cap.kernel_packets, pk, memory_order_relaxed);
    atomic_store_explicit(&lw->w->cap.kernel_drops, dr, memory_order_relaxed);
}

/* The interface went down (or away): the socket reports it once (reading the error clears
 * it, or poll would wake at once forever). Capture goes on when the link comes back. */
static void socket_error(struct osprey_live_worker *lw, int k)
{
    int e = 0;
    socklen_t l = sizeof e;
    if (getsockopt(mon_source_fd(lw->src[k]), SOL_SOCKET, SO_ERROR, &e, &l) == 0 && e != 0 &&
        lw->w->id == 0) /* one message per interface, not one per worker */
        fprintf(stderr, "osprey: %s: %s (capture goes on when it is back)\n",
                lw->set->ifaces[lw->iface_of[k]], strerror(e));
}

static void *worker_main(void *arg)
{
    struct osprey_live_worker *lw = arg;
    struct osprey_live_set *set = lw->set;
    struct mon_packet *batch = calloc(MON_IO_BATCH, sizeof *batch);
    struct pollfd pfd[OSPREY_LIVE_MAX_IF];
    bool dead[OSPREY_LIVE_MAX_IF] = {false}; /* a source that failed is read no more */
    for (int k = 0; k < lw->nsrc; k++)
        pfd[k] = (struct pollfd){.fd = mon_source_fd(lw->src[k]), .events = POLLIN};
    /* intervals on the monotonic clock (a wall-clock step must not end the drain at once or
     * tick on every loop); the wall clock only for mon_tick, as frames carry wall time */
    uint64_t last_frame = osprey_clock_mono_us(), last_stats = last_frame, stop_at = 0;
    if (!batch) {
        fprintf(stderr, "osprey: worker %d: out of memory\n", lw->w->id);
        lw->failed = true;
        osprey_signal_raise(OSPREY_SIG_STOP);
    }
    while (batch) {
        bool stopping = osprey_signal_take(OSPREY_SIG_STOP);
        uint64_t now = osprey_clock_mono_us();
        if (stopping && !stop_at)
            stop_at = now;
        int got = 0;
        for (int k = 0; k < lw->nsrc; k++) {
            int n = dead[k] ? 0 : mon_source_read(lw->src[k], batch, MON_IO_BATCH);
            if (n < 0) {
                fprintf(stderr, "osprey: %s: capture error: %s\n",
                        set->ifaces[lw->iface_of[k]], lw->src[k]->err);
                dead[k] = true;
                pfd[k].fd = -1; /* poll ignores it */
                lw->failed = true;
                osprey_signal_raise(OSPREY_SIG_STOP);
                continue;
            }
            if (n == 0)
                continue;
            got += n;
            uint64_t bytes = 0;
            for (int i = 0; i < n; i++)
                bytes += batch[i].caplen;
            cap_add(&lw->w->cap.packets, (uint64_t)n);
            cap_add(&lw->w->cap.bytes, bytes);
            set->on_batch(lw, k, batch, n, stopping);
        }
        /* drained: nothing more came after the kernel handed over its partly filled blocks
         * (block-timeout), or the drain has taken too long */
        if (stopping && ((got == 0 && now - stop_at >= set->drain_min_us) ||
                         now - stop_at > DRAIN_MAX_US))
            break;
        if (got > 0) {
            last_frame = now;
        } else {
            int pr = poll(pfd, (nfds_t)lw->nsrc, stopping ? 5 : (int)(IDLE_TICK_US / 1000));
            if (pr < 0 && errno != EINTR) {
                fprintf(stderr, "osprey: worker %d: poll: %s\n", lw->w->id, strerror(errno));
                lw->failed = true;
                osprey_signal_raise(OSPREY_SIG_STOP);
            }
            for (int k = 0; pr > 0 && k < lw->nsrc; k++)
                if (pfd[k].revents & POLLERR)
                    socket_error(lw, k);
            now = osprey_clock_mono_us();
            if (now - last_frame >= IDLE_TICK_US) {
                mon_tick(lw->w->ctx, osprey_clock_wall_us()); /* idle flows time out */
                osprey_worker_idle(lw->w); /* a reload is not held up by a quiet link */
                last_frame = now;
            }
        }
        if (now - last_stats >= STATS_EVERY_US) {
            refresh_kernel_stats(lw);
            last_stats = now;
        }
    }
    refresh_kernel_stats(lw);
    osprey_worker_flush(lw->w); /* every flow ends: its records are written */
    free(batch);
    return NULL;
}

/* IDS: every frame into the pipeline; nothing is sent anywhere. */
static void ids_batch(struct osprey_live_worker *lw, int k, struct mon_packet *pkts, int n,
                      bool stopping)
{
    (void)k;
    (void)stopping;
    for (int i = 0; i < n; i++)
        osprey_worker_packet(lw->w, &pkts[i]);
}

static int worker_count(const struct osprey_live_set *set, const struct osprey_config *cfg)
{
    if (set->use_pcap) /* libpcap has no fanout: one worker per interface */
        return set->nifaces;
    int64_t n = osprey_config_int(cfg, "af-packet.threads");
    if (n <= 0)
        n = osprey_config_int(cfg, "threading.workers");
    if (n <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? c : 1;
    }
    return n > 1024 ? 1024 : (int)n;
}

/* Open every worker's sources, interface by interface and within one in worker order (the
 * order of the fanout group's members, which decides which worker a hash lands on). */
static int open_sources(struct osprey_live_set *set, const struct osprey_config *cfg)
{
    int nw = set->pl.nworkers;
    uint64_t bs = osprey_config_size(cfg, "af-packet.block-size");
    uint64_t pcap_bs = osprey_config_size(cfg, "pcap.buffer-size");
    /* stopping: a V3 block is handed over at the latest after block-timeout */
    uint64_t block_timeout_us = (uint64_t)osprey_config_int(cfg, "af-packet.block-timeout") * 1000u;
    set->drain_min_us = (set->use_pcap ? 0 : 2 * block_timeout_us) + 20000u;
    for (int f = 0; f < set->nifaces; f++) {
        struct mon_live_cfg lc = {
            .iface = set->ifaces[f],
            .fanout_id = set->use_pcap || nw == 1
                             ? 0
                             : (uint16_t)(osprey_config_int(cfg, "af-packet.cluster-id") + f),
            .fanout_defrag = osprey_config_bool(cfg, "af-packet.defrag"),
            .ignore_outgoing = set->inline_mode,
            .per_frame = set->inline_mode, /* no frame waits for a block to fill */
            /* partial checksums, super-frames: run_inline.c */
            .offload_meta = set->inline_mode &&
                            osprey_config_bool(cfg, "af-packet.offload-metadata"),
            .promisc = osprey_config_bool(cfg, "af-packet.promisc"),
            .block_size = bs > UINT32_MAX ? 0 : (uint32_t)bs,
            .block_count = (uint32_t)osprey_config_int(cfg, "af-packet.blocks"),
            .block_timeout_ms = (uint32_t)osprey_config_int(cfg, "af-packet.block-timeout"),
            .buffer_size = pcap_bs > INT32_MAX ? UINT32_MAX : (uint32_t)pcap_bs, /* refused */
            .snaplen = (uint32_t)osprey_config_int(cfg, "pcap.snaplen"),
        };
        for (int i = 0; i < nw; i++) {
            struct osprey_live_worker *lw = &set->lw[i];
            if (set->use_pcap && i != f)
                continue; /* libpcap: worker f captures interface f only */
            char err[512];
            struct mon_source *s = set->use_pcap ? mon_source_open_pcap_live(&lc, err, sizeof err)
                                                 : mon_source_open_afpacket(&lc, err, sizeof err);
            if (!s) {
                fprintf(stderr, "osprey: cannot capture: %s\n", err);
                return -1;
            }
            lw->iface_of[lw->nsrc] = f;
            lw->src[lw->nsrc++] = s;
        }
    }
    return 0;
}

static void print_summary(struct osprey_live_set *set, double secs)
{
    struct osprey_pipeline *pl = &set->pl;
    uint64_t tot[7] = {0};
    for (int i = 0; i < pl->nworkers; i++) {
        struct osprey_worker *w = &pl->w[i];
        const struct mon_flow_stats *fs = mon_flow_stats(mon_ctx_flows(w->ctx));
        uint64_t v[7] = {atomic_load(&w->cap.packets), fs->created, osprey_worker_alerts(w),
                         atomic_load(&w->cap.kernel_packets), atomic_load(&w->cap.kernel_drops),
                         atomic_load(&w->cap.bytes), fs->active_peak};
        for (int k = 0; k < 7; k++)
            tot[k] += v[k];
        if (pl->nworkers > 1)
            printf("osprey: worker %d: %llu packets, %llu flows, %llu alerts, kernel %llu "
                   "packets %llu drops, %llu flows at most\n", i, (unsigned long long)v[0],
                   (unsigned long long)v[1], (unsigned long long)v[2], (unsigned long long)v[3],
                   (unsigned long long)v[4], (unsigned long long)v[6]);
    }
    if (set->inline_mode) {
        uint64_t v[7] = {0};
        for (int i = 0; i < pl->nworkers; i++) {
            const struct osprey_capture_stats *c = &pl->w[i].cap;
            v[0] += atomic_load(&c->forwarded);
            v[1] += atomic_load(&c->drop_verdict);
            v[2] += atomic_load(&c->drop_flow);
            v[3] += atomic_load(&c->rejects_sent);
            v[4] += atomic_load(&c->fail_open);
            v[5] += atomic_load(&c->drop_fail_closed);
            v[6] += atomic_load(&c->tx_errors);
        }
        printf("osprey: inline: %llu forwarded, %llu dropped by rules (%llu of dropped flows), "
               "%llu reject frames sent, %llu forwarded uninspected (fail-open), %llu dropped "
               "uninspected (fail-closed), %llu send errors\n",
               (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2],
               (unsigned long long)v[3], (unsigned long long)v[4], (unsigned long long)v[5],
               (unsigned long long)v[6]);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("osprey: %s stopped after %.1f s: %llu packets (%.1f MB), %llu flows, %llu alerts; "
           "kernel: %llu packets, %llu drops; %d workers; peak memory %ld KiB\n",
           set->mode, secs, (unsigned long long)tot[0], (double)tot[5] / 1e6,
           (unsigned long long)tot[1], (unsigned long long)tot[2], (unsigned long long)tot[3],
           (unsigned long long)tot[4], pl->nworkers, ru.ru_maxrss);
}

int osprey_live_run(struct osprey_live_set *set, const struct osprey_options *opts,
                    const struct osprey_config *cfg)
{
    int rc = OSPREY_EXIT_FAILURE, started = 0;
    osprey_signals_install();
    int nw = worker_count(set, cfg);
    if (osprey_pipeline_open(&set->pl, opts, cfg, nw, &osprey_services) < 0)
        goto out;
    if (!(set->lw = calloc((size_t)nw, sizeof *set->lw))) {
        fprintf(stderr, "osprey: out of memory\n");
        goto out;
    }
    for (int i = 0; i < nw; i++) {
        set->lw[i].set = set;
        set->lw[i].w = &set->pl.w[i];
        set->pl.w[i].inline_mode = set->inline_mode;
        set->pl.w[i].cap.live = true;
    }
    if (open_sources(set, cfg) < 0)
        goto out;
    double t0 = osprey_clock_mono_s();
    for (; started < nw; started++) {
        int e = pthread_create(&set->lw[started].thread, NULL, worker_main, &set->lw[started]);
        if (e != 0) {
            fprintf(stderr, "osprey: cannot start a worker thread: %s\n", strerror(e));
            osprey_signal_raise(OSPREY_SIG_STOP);
            break;
        }
    }
    if (started == nw) {
        printf("osprey: ready: %s on", set->mode);
        for (int f = 0; f < set->nifaces; f++)
            printf(" %s", set->ifaces[f]);
        printf(" (%s, %d workers)\n", set->use_pcap ? "libpcap" : "af-packet", nw);
        fflush(stdout);
        osprey_daemon_ready(); /* -D: the starting command may exit 0 now */
    }
    /* The main thread serves the process (SIGHUP, periodic EVE stats) until told to stop;
     * the workers look at the stop flag themselves. */
    while (!osprey_daemon_poll(set->pl.emit)) {
        if (osprey_emit_stats_due(set->pl.emit))
            osprey_pipeline_stats(&set->pl);
        usleep(50000);
    }
    bool failed = started < nw;
    for (int i = 0; i < started; i++) {
        pthread_join(set->lw[i].thread, NULL);
        failed |= set->lw[i].failed;
    }
    started = 0;
    print_summary(set, osprey_clock_mono_s() - t0);
    rc = failed ? OSPREY_EXIT_FAILURE : OSPREY_EXIT_OK;
out:
    for (int i = 0; set->lw && i < set->pl.nworkers; i++)
        for (int k = 0; k < set->lw[i].nsrc; k++)
            mon_source_close(set->lw[i].src[k]);
    if (osprey_pipeline_close(&set->pl) < 0)
        rc = OSPREY_EXIT_FAILURE;
    free(set->lw);
    set->lw = NULL;
    return rc;
}

int osprey_run_live(const struct osprey_options *opts, const struct osprey_config *cfg)
{
    struct osprey_live_set set = {.mode = "live", .on_batch = ids_batch};
    if (opts->nlive_ifaces > OSPREY_LIVE_MAX_IF) {
        fprintf(stderr, "osprey: at most %d interfaces\n", OSPREY_LIVE_MAX_IF);
        return OSPREY_EXIT_USAGE;
    }
    for (int i = 0; i < opts->nlive_ifaces; i++)
        set.ifaces[set.nifaces++] = opts->live_ifaces[i];
    set.use_pcap =
        opts->pcap_live || strcmp(osprey_config_str(cfg, "live-capture"), "libpcap") == 0;
    return osprey_live_run(&set, opts, cfg);
}
