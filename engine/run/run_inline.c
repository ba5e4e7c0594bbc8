/* run_inline.c — `osprey --af-packet-inline IF1:IF2`: an inline IPS bridging two interfaces.
 *
 * Every worker has one AF_PACKET socket on each interface (fanout groups cluster-id and
 * cluster-id + 1, joined in worker order: the kernel's symmetric flow hash sends a flow's
 * frames on either interface, in either direction, to the same worker). A frame read on one
 * interface is inspected and then sent, unchanged, out of the other one through the worker's
 * socket there, in the order it arrived; the sockets ignore outgoing frames so nothing loops.
 * The sockets carry each frame's offload metadata (mon_live_cfg.offload_meta): a frame whose
 * checksum the sender left partial, or a TSO/GSO super-frame, goes out with the same metadata
 * and the kernel completes it, so veths and virtual NICs work at their default offloads.
 *
 * Verdicts (osprey_detect.h): a frame a drop/reject/sdrop rule matched is not forwarded, nor
 * (for a rule whose action scope is the flow) are the later frames of its flow; reject sends its RST/ICMP frames (reject.c) back out of
 * the receiving interface (towards the source) and on out of the other (towards the
 * destination). An IP fragment that defrag holds is forwarded as it comes; the fragment that
 * completes a datagram carries the datagram's verdict, so a dropped datagram never reassembles
 * on the far side. Frames that are not IP are forwarded.
 *
 * inline.fail-mode applies to frames that are not inspected: those still in the rings when
 * osprey stops, and those that waited longer than inline.max-delay (a worker falling behind
 * catches up): closed drops them, open forwards them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osprey_clock.h"
#include "reject.h"
#include "run_inline.h"
#include "run_live.h"

struct inline_state {
    bool fail_open;
    uint64_t max_delay_us; /* 0 = every frame is inspected */
};

static void cap_inc(_Atomic uint64_t *c, uint64_t n)
{
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + n,
                          memory_order_relaxed);
}

/* The frames of a batch that go on, sent together (one system call) in arrival order. */
struct fwd_queue {
    struct mon_source *out;
    int n;
    const uint8_t *frame[MON_IO_BATCH];
    uint32_t len[MON_IO_BATCH];
    const struct mon_offload *ofl[MON_IO_BATCH]; /* sent with it: the kernel completes it */
};

static void fwd_flush(struct osprey_worker *w, struct fwd_queue *q)
{
    if (q->n == 0)
        return;
    int sent = mon_source_send_batch(q->out, q->frame, q->len, q->ofl, q->n);
    cap_inc(&w->cap.forwarded, (uint64_t)sent);
    cap_inc(&w->cap.tx_errors, (uint64_t)(q->n - sent));
    q->n = 0;
}

/* A frame captured in part (larger than a ring slot: GRO/LRO on, see --preflight) cannot be
 * forwarded as it was: it counts as a send error. */
static void forward(struct osprey_worker *w, struct fwd_queue *q, const struct mon_packet *p)
{
    if (p->caplen != p->wirelen) {
        cap_inc(&w->cap.tx_errors, 1);
        return;
    }
    q->frame[q->n] = p->frame;
    q->ofl[q->n] = &p->offload;
    q->len[q->n++] = p->caplen;
    if (q->n == MON_IO_BATCH)
        fwd_flush(w, q);
}

static void send_rejects(struct osprey_live_worker *lw, int k, const struct mon_packet *p,
                         struct fwd_queue *q)
{
    enum osprey_reject_to to;
    enum osprey_reject kind = osprey_detect_packet_reject(lw->w->dw, &to);
    if (kind == OSPREY_REJECT_NONE)
        return;
    fwd_flush(lw->w, q); /* the flow's earlier frames leave before its reset */
    struct osprey_reject_frame fr[2];
    int n = osprey_reject_build(p, kind, to, fr);
    for (int i = 0; i < n; i++) {
        struct mon_source *via = lw->src[fr[i].to_src ? k : 1 - k];
        if (mon_source_send(via, fr[i].data, fr[i].len) == 0)
            cap_inc(&lw->w->cap.rejects_sent, 1);
        else
            cap_inc(&lw->w->cap.tx_errors, 1);
    }
}

static void inline_batch(struct osprey_live_worker *lw, int k, struct mon_packet *pkts, int n,
                         bool stopping)
{
    const struct inline_state *st = lw->set->arg;
    struct osprey_worker *w = lw->w;
    struct fwd_queue q = {.out = lw->src[1 - k]};
    uint64_t now = st->max_delay_us ? osprey_clock_wall_us() : 0;
    for (int i = 0; i < n; i++) {
        struct mon_packet *p = &pkts[i];
        if (stopping || (st->max_delay_us && now > p->ts_us + st->max_delay_us)) {
            if (st->fail_open) {
                cap_inc(&w->cap.fail_open, 1);
                forward(w, &q, p);
            } else {
                cap_inc(&w->cap.drop_fail_closed, 1);
            }
            continue;
        }
        osprey_worker_idle(w); /* switch rules (reload) first, so both reads see one dw */
        uint64_t flow_before = osprey_detect_worker_verdicts(w->dw)->dropped_flow;
        enum mon_decode_outcome oc = osprey_worker_packet(w, p);
        /* the verdict is only fresh for a packet that entered detection */
        bool drop = (oc == MON_DEC_IP && osprey_detect_packet_dropped(w->dw)) ||
                    (p->flags & MON_PKT_DROPPED);
        if (oc == MON_DEC_IP)
            send_rejects(lw, k, p, &q);
        if (!drop) {
            forward(w, &q, p);
            continue;
        }
        cap_inc(&w->cap.drop_verdict, 1);
        if (osprey_detect_worker_verdicts(w->dw)->dropped_flow != flow_before)
            cap_inc(&w->cap.drop_flow, 1);
    }
    fwd_flush(w, &q);
}

int osprey_run_inline(const struct osprey_options *opts, const struct osprey_config *cfg)
{
    struct inline_state st = {
        .fail_open = strcmp(osprey_config_str(cfg, "inline.fail-mode"), "open") == 0,
        .max_delay_us = (uint64_t)osprey_config_int(cfg, "inline.max-delay") * 1000u,
    };
    struct osprey_live_set set = {.mode = "inline", .inline_mode = true,
                                  .on_batch = inline_batch, .arg = &st, .nifaces = 2};
    char pair[2 * 64];
    snprintf(pair, sizeof pair, "%s", opts->inline_pair);
    char *colon = strchr(pair, ':');
    if (!colon) /* options.c checked the shape already */
        return OSPREY_EXIT_USAGE;
    *colon = '\0';
    set.ifaces[0] = pair;
    set.ifaces[1] = colon + 1;
    return osprey_live_run(&set, opts, cfg);
}
