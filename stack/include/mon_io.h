/* mon_io.h — packet sources behind one small interface, read in batches.
 *
 * A source yields frames with their capture metadata into caller-provided struct
 * mon_packet slots. Frames stay valid until the next mon_source_read() on the same source.
 * Files: pcap and pcapng (libpcap). Live: AF_PACKET TPACKET_V3 rings and libpcap live, which
 * also send frames (inline mode); DPDK implements the same operations table.
 */
#ifndef MON_IO_H
#define MON_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mon_packet.h"

#pragma GCC visibility push(default) /* libmon exports what include/ declares: stack/README.md */

#define MON_IO_BATCH 32 /* live sources hand out at most this many frames per read */

struct mon_source;

/* Live capture on one interface (afpacket.c: TPACKET_V3 ring; pcap_live.c: libpcap). */
struct mon_live_cfg {
    const char *iface;
    uint16_t fanout_id;        /* AF_PACKET: PACKET_FANOUT_HASH group (0 = none); a group is
                                  per interface, sockets of one group share its flows */
    bool fanout_defrag;        /* AF_PACKET: the kernel keeps a datagram's fragments together */
    bool ignore_outgoing;      /* do not capture what this host (or we) send on it: inline */
    bool per_frame;            /* AF_PACKET: TPACKET_V2, each frame handed over at once
                                  (inline); else TPACKET_V3 blocks (up to block_timeout_ms) */
    bool offload_meta;         /* AF_PACKET V2: each frame's offload metadata in and out
                                  (PACKET_VNET_HDR: mon_packet.offload; sends carry it, so the
                                  kernel completes partial checksums and cuts super-frames);
                                  slots then hold 64 KiB frames. Linux 5.9 or later */
    bool promisc;
    uint32_t block_size;       /* AF_PACKET ring block bytes (power of two, >= page); 0 = 1 MiB */
    uint32_t block_count;      /* blocks in the ring; 0 = 16 */
    uint32_t block_timeout_ms; /* a partly filled block is handed over after this; 0 = 10 */
    uint32_t buffer_size;      /* libpcap: kernel buffer bytes; 0 = libpcap's default */
    uint32_t snaplen;          /* libpcap: bytes kept of each frame; 0 = 65535 */
};

/* Kernel counters of a live source, accumulated since it opened. */
struct mon_live_stats {
    uint64_t kernel_packets;   /* seen by the kernel socket (incl. dropped ones) */
    uint64_t kernel_drops;     /* dropped because the ring/buffer was full */
    uint64_t if_drops;         /* dropped by the interface/driver (libpcap only) */
    uint64_t tx_frames, tx_errors;
};

/* Open a live source; NULL with the reason in err (no such interface, no permission …). */
struct mon_source *mon_source_open_afpacket(const struct mon_live_cfg *cfg, char *err,
                                            size_t errlen);
struct mon_source *mon_source_open_pcap_live(const struct mon_live_cfg *cfg, char *err,
                                             size_t errlen);

/* The operations every kind of source implements. */
struct mon_source_ops {
    const char *kind;
    /* Fill up to max slots; return the count (0 = end of input), or a negative error. */
    int (*read)(struct mon_source *src, struct mon_packet *pkts, int max);
    void (*close)(struct mon_source *src);
    /* Optional (NULL for files): live sources. */
    int (*fd)(const struct mon_source *src);      /* pollable descriptor */
    int (*send)(struct mon_source *src, const uint8_t *frame, uint32_t len); /* out its iface */
    /* n frames in one call (optional): returns how many left, in order */
    int (*send_batch)(struct mon_source *src, const uint8_t *const *frames, const uint32_t *lens,
                      const struct mon_offload *const *ofl, int n);
    int (*stats)(struct mon_source *src, struct mon_live_stats *st);
    int (*linktype)(const struct mon_source *src);
};

struct mon_source {
    const struct mon_source_ops *ops;
    char err[256];        /* last error, human-readable */
    uint64_t frames;      /* frames delivered */
    uint64_t bytes;       /* captured bytes delivered */
    uint64_t next_num;    /* position counter for mon_packet.num */
};

/* Open a pcap or pcapng file. On failure returns NULL and writes why into err. */
struct mon_source *mon_source_open_file(const char *path, char *err, size_t errlen);

/* Read a file source ahead on a thread of its own (stack/io/pcap_file_ahead.c): the reads
 * then take frames out of batches already read, while the caller processes the ones before.
 * Frames stay valid until the next read, as without it. Only before the first read, and only
 * for a regular file (a FIFO could block the thread, which closing the source joins):
 * MON_EINVAL otherwise, MON_ENOMEM without memory or a thread; the source reads on the caller's
 * thread then, as before. */
int mon_source_read_ahead(struct mon_source *src);

/* Is src a file source (mon_source_open_file)? */
bool mon_source_is_file(const struct mon_source *src);

/* Link type (DLT_*) of the frames the source yields: a file's, that of the last frame handed
 * out (pcapng may change it between reads). */
int mon_source_linktype(const struct mon_source *src);

static inline int mon_source_read(struct mon_source *src, struct mon_packet *pkts, int max)
{
    return src->ops->read(src, pkts, max);
}

void mon_source_close(struct mon_source *src);

/* Live-source helpers; -1 when the source has no such operation (a file). */
static inline int mon_source_fd(const struct mon_source *src)
{
    return src->ops->fd ? src->ops->fd(src) : -1;
}
/* Transmit one whole frame on the source's interface: 0, or -1 (src->err says why). */
static inline int mon_source_send(struct mon_source *src, const uint8_t *frame, uint32_t len)
{
    return src->ops->send ? src->ops->send(src, frame, len) : -1;
}
/* Transmit n frames in order; returns how many were sent (the rest failed: src->err).
 * ofl (NULL = every frame complete): each frame's offload work left undone, as its packet's
 * mon_packet.offload said when it was read — a frame forwarded inline goes on as it came. */
static inline int mon_source_send_batch(struct mon_source *src, const uint8_t *const *frames,
                                        const uint32_t *lens,
                                        const struct mon_offload *const *ofl, int n)
{
    if (src->ops->send_batch)
        return src->ops->send_batch(src, frames, lens, ofl, n);
    int sent = 0;
    for (int i = 0; i < n; i++)
        sent += mon_source_send(src, frames[i], lens[i]) == 0;
    return sent;
}
static inline int mon_source_stats(struct mon_source *src, struct mon_live_stats *st)
{
    return src->ops->stats ? src->ops->stats(src, st) : -1;
}


/* ---- DPDK ports (stack/io/dpdk.c, library mon_dpdk: built only when pkg-config finds
 * libdpdk; nothing else in libmon depends on DPDK). No DPDK header is needed to call these.
 *
 * Order: mon_dpdk_init (the EAL, once per process) → mon_dpdk_pool_create → for each port
 * mon_dpdk_port_start → on each worker lcore mon_source_open_dpdk per (port, queue) →
 * read / mon_dpdk_drop / mon_dpdk_inject / mon_dpdk_complete → close → mon_dpdk_port_stop →
 * mon_dpdk_cleanup. A DPDK source's frames are the mbufs' own bytes (zero copy); a batch's
 * mbufs are forwarded to the peer port (or freed) by mon_dpdk_complete, which the next read
 * calls too. Errors are written into err; nothing prints except the EAL's own log. */
struct rte_mempool;

/* Initialise the EAL with argv (argv[0] is the program name). Returns 0, or -1 with why in
 * err; a file prefix another primary process holds is told as such (with its pid). */
int mon_dpdk_init(int argc, char **argv, char *err, size_t errlen);
void mon_dpdk_cleanup(void);
/* The --file-prefix in argv ("rte" when absent), and the pid of the process that holds it
 * (0 = free). These two are in plain libmon (dpdk_prefix.c): no DPDK needed. */
const char *mon_dpdk_file_prefix(int argc, char *const *argv);
int mon_dpdk_prefix_holder(const char *prefix);

/* Lcores the EAL runs (main included), and the launch of fn(args[i]) on lcore i: args[0] on
 * the calling (main) lcore, the others on worker lcores; returns when all have returned,
 * -1 when n exceeds the lcores. */
unsigned mon_dpdk_lcores(void);
int mon_dpdk_launch(int (*fn)(void *), void *const *args, unsigned n);
/* The EAL pins the calling (main) thread to its lcore's CPU, and threads it creates inherit
 * that. control_affinity moves the calling thread to the CPUs no lcore uses (all it had when
 * none is left), so the threads it creates then (reload, control socket, service) do not
 * preempt a polling lcore; lcore_affinity pins it back to its lcore. 0 or -1. */
int mon_dpdk_control_affinity(void);
int mon_dpdk_lcore_affinity(void);

/* A port by device name ("net_pcap0", "0000:3b:00.0") or number; -1 and err when absent. */
int mon_dpdk_port_find(const char *name, char *err, size_t errlen);

struct rte_mempool *mon_dpdk_pool_create(unsigned mbufs, unsigned cache, char *err,
                                         size_t errlen);
void mon_dpdk_pool_free(struct rte_mempool *mp);

struct mon_dpdk_port_cfg {
    uint16_t queues;           /* RX and TX queue pairs: one per worker */
    uint16_t rx_desc, tx_desc; /* ring sizes (0 = the driver's preference) */
    bool promisc;
};
/* Configure and start a port. With more than one queue, RSS spreads flows with a symmetric
 * Toeplitz key (both directions of a flow reach the same queue) on IP/TCP/UDP. */
int mon_dpdk_port_start(uint16_t port, const struct mon_dpdk_port_cfg *c,
                        struct rte_mempool *mp, char *err, size_t errlen);
void mon_dpdk_port_stop(uint16_t port);
/* Frames the port dropped for lack of RX descriptors or mbufs (imissed + rx_nombuf). */
uint64_t mon_dpdk_port_missed(uint16_t port);

struct mon_dpdk_queue_cfg {
    uint16_t port, queue;   /* RX from */
    int peer;               /* forward to this port's TX queue `queue`; -1 = receive only */
    struct rte_mempool *mp; /* for injected frames */
};
struct mon_dpdk_counters {
    uint64_t rx;        /* frames received */
    uint64_t forwarded; /* frames sent on to the peer */
    uint64_t dropped;   /* frames marked with mon_dpdk_drop (freed, not forwarded) */
    uint64_t injected;  /* frames built with mon_dpdk_inject and sent */
    uint64_t tx_full;   /* frames lost because a TX ring stayed full (or no mbuf to inject) */
    uint64_t truncated; /* multi-segment frames: only the first segment is inspected */
};
struct mon_source *mon_source_open_dpdk(const struct mon_dpdk_queue_cfg *c, char *err,
                                        size_t errlen);
/* Packet i of the last batch is not forwarded (the verdict of an inline drop). */
void mon_dpdk_drop(struct mon_source *src, int i);
/* Queue a copy of frame to leave after the batch: out of the peer port (back = false) or back
 * out of the receiving port (back = true). Returns 0, or -1 (counted in tx_full). */
int mon_dpdk_inject(struct mon_source *src, bool back, const uint8_t *frame, uint32_t len);
/* Send the batch's frames that were not dropped, in order, then the injected ones; free the
 * rest. Returns how many frames left. */
int mon_dpdk_complete(struct mon_source *src);
const struct mon_dpdk_counters *mon_dpdk_source_counters(const struct mon_source *src);

#pragma GCC visibility pop

#endif
