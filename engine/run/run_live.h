/* run_live.h — live capture run modes: `osprey -i IFACE…` / `--pcap-live IFACE…` (IDS) and
 * the worker threads that --af-packet-inline (run_inline.c) runs on too.
 *
 * Each worker thread owns one pipeline worker (its flows, mon_ctx, detection scratch) and one
 * capture source per interface. AF_PACKET sockets of one interface join one fanout group
 * (af-packet.cluster-id + the interface's index), joined in worker order, so the kernel's
 * symmetric flow hash sends both directions of a flow to the same worker — and, with two
 * interfaces, the same flow on either interface to the same worker index.
 */
#ifndef OSPREY_RUN_LIVE_H
#define OSPREY_RUN_LIVE_H

#include <pthread.h>
#include <stdbool.h>

#include "mon_io.h"
#include "options.h"
#include "pipeline.h"

#define OSPREY_LIVE_MAX_IF 8

struct osprey_live_worker;

/* A batch read from source k of a worker; stopping: SIGTERM/SIGINT was seen (draining). */
typedef void (*osprey_live_batch_fn)(struct osprey_live_worker *lw, int k,
                                     struct mon_packet *pkts, int n, bool stopping);

struct osprey_live_set {
    const char *ifaces[OSPREY_LIVE_MAX_IF];
    int nifaces;
    bool use_pcap;        /* libpcap sources (one worker per interface) */
    bool inline_mode;     /* ignore outgoing frames; verdicts enforced */
    const char *mode;     /* "live" / "inline", for messages */
    osprey_live_batch_fn on_batch;
    void *arg;            /* the mode's state (run_inline.c) */
    /* filled by osprey_live_run */
    uint64_t drain_min_us; /* stopping: keep reading at least this long (ring block timeout) */
    struct osprey_pipeline pl;
    struct osprey_live_worker *lw;
};

struct osprey_live_worker {
    struct osprey_live_set *set;
    struct osprey_worker *w;
    struct mon_source *src[OSPREY_LIVE_MAX_IF];
    int nsrc;
    int iface_of[OSPREY_LIVE_MAX_IF]; /* src[k] captures set->ifaces[iface_of[k]] */
    pthread_t thread;
    bool failed;           /* a capture error stopped the worker */
};

/* Open the pipeline and the sources, print "osprey: ready", run the workers until
 * SIGTERM/SIGINT, drain, flush, print the summary. Returns an exit status. */
int osprey_live_run(struct osprey_live_set *set, const struct osprey_options *opts,
                    const struct osprey_config *cfg);

/* `osprey -i IFACE…` / `--pcap-live IFACE…`: the live IDS. */
int osprey_run_live(const struct osprey_options *opts, const struct osprey_config *cfg);

#endif
