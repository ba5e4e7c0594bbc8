/* afpacket.c — live capture (and transmit) on one Linux interface with an AF_PACKET
 * receive ring: TPACKET_V3 (IDS) or TPACKET_V2 (inline: low latency).
 *
 * V3: the kernel fills variable-size frames into ring blocks; a block belongs to us while its
 * status has TP_STATUS_USER, which happens when it is full or after block_timeout_ms — cheap
 * per frame, but a frame on a quiet link waits up to that long. V2: one fixed-size slot per
 * frame, each handed over as soon as it is written — what an inline bridge needs.
 * A batch hands out frames in place (no copy): a block (V3) or slot (V2) is returned to the
 * kernel only at the next read, so a batch's frames stay valid until the next
 * mon_source_read(). Several sockets on one interface may join one PACKET_FANOUT_HASH
 * group: the kernel then splits the interface's traffic by a symmetric flow hash (both
 * directions of a flow go to the same member), which is how N workers share an interface.
 * Transmit is a plain send() on the same socket (bound to the interface).
 *
 * Offload metadata (cfg->offload_meta, inline): on a veth or a virtual NIC the sender's kernel
 * leaves the TCP/UDP checksum to an "offload" that never runs (only the pseudo-header sum is
 * there, TP_STATUS_CSUMNOTREADY) and hands over TSO/GSO super-frames of up to 64 KiB. Sent on
 * unchanged, the receiver drops them. With PACKET_VNET_HDR the kernel writes a virtio_net_hdr
 * in front of each frame in the ring (where to complete the checksum, how to cut the
 * segments); a frame sent with the same header is completed by the kernel on the way out.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <pcap/dlt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mon_io.h"

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif

#ifndef TP_STATUS_CSUMNOTREADY
#define TP_STATUS_CSUMNOTREADY (1 << 3)
#endif

#define VLAN_FRAME_MAX (65536u + 64u) /* room for one frame with its tag put back */
#define GSO_FRAME_MAX (65536u + 64u)  /* a TSO/GSO super-frame: 64 KiB of IP and its headers */

struct afp_source {
    struct mon_source base; /* must be first */
    int fd;
    int ifindex;
    int linktype;
    uint8_t *ring;
    size_t ring_len;
    uint32_t block_size, block_count;
    bool v2;               /* per-frame ring: slots of frame_size, frame_count of them */
    bool vnet;             /* PACKET_VNET_HDR: a virtio_net_hdr before every frame, both ways */
    uint32_t frame_size, frame_count;
    uint32_t cur;          /* block (V3) or slot (V2) being read */
    uint32_t left;         /* frames of cur not handed out yet (0 = cur not opened) */
    uint8_t *next;         /* next frame header in cur */
    uint32_t done_blocks;  /* blocks (V2: slots) before cur handed out, returned at the next read */
    uint8_t *vlan_arena;   /* frames whose VLAN tag the kernel stripped, rebuilt whole */
    struct mon_live_stats st;
};

static struct tpacket_block_desc *block(struct afp_source *s, uint32_t i)
{
    return (struct tpacket_block_desc *)(s->ring + (size_t)i * s->block_size);
}

/* Hand the blocks fully read by the previous batch back to the kernel. */
static void release_done(struct afp_source *s)
{
    if (s->v2) {
        uint32_t first = (s->cur + s->frame_count - s->done_blocks) % s->frame_count;
        for (uint32_t k = 0; k < s->done_blocks; k++) {
            struct tpacket2_hdr *h = (struct tpacket2_hdr *)(s->ring + (size_t)((first + k) %
                                                             s->frame_count) * s->frame_size);
            __atomic_store_n(&h->tp_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
        }
        s->done_blocks = 0;
        return;
    }
    uint32_t first = (s->cur + s->block_count - s->done_blocks) % s->block_count;
    for (uint32_t k = 0; k < s->done_blocks; k++) {
        struct tpacket_block_desc *b = block(s, (first + k) % s->block_count);
        __atomic_store_n(&b->hdr.bh1.block_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
    }
    s->done_blocks = 0;
}

/* The kernel strips an 802.1Q tag into the header (VLAN offload); put it back so the frame
 * is what was on the wire (detection sees the VLAN, inline forwards the same bytes). */
static const uint8_t *restore_vlan(struct afp_source *s, uint32_t status, uint16_t tci,
                                   uint16_t tpid_in, const uint8_t *frame, uint32_t *caplen,
                                   uint32_t *wirelen, int slot)
{
    if (!s->vlan_arena && !(s->vlan_arena = malloc((size_t)MON_IO_BATCH * VLAN_FRAME_MAX)))
        return frame; /* out of memory: the frame without its tag rather than nothing */
    uint32_t len = *caplen < VLAN_FRAME_MAX - 4 ? *caplen : VLAN_FRAME_MAX - 4;
    if (len < 12)
        return frame;
    uint8_t *out = s->vlan_arena + (size_t)slot * VLAN_FRAME_MAX;
    uint16_t tpid = (status & TP_STATUS_VLAN_TPID_VALID) ? tpid_in : 0x8100;
    memcpy(out, frame, 12);
    out[12] = (uint8_t)(tpid >> 8);
    out[13] = (uint8_t)tpid;
    out[14] = (uint8_t)(tci >> 8);
    out[15] = (uint8_t)tci;
    memcpy(out + 16, frame + 12, len - 12);
    *caplen = len + 4;
    *wirelen += 4;
    return out;
}

static void fill(struct mon_source *src, struct mon_packet *p, const uint8_t *frame,
                 uint32_t caplen, uint32_t wirelen, uint64_t ts_us, uint32_t status)
{
    struct afp_source *s = (struct afp_source *)src;
    memset(p, 0, offsetof(struct mon_packet, layer));
    if (status & TP_STATUS_CSUMNOTREADY) /* where it starts: only with vnet (offload_in) */
        p->offload.flags |= MON_OFL_CSUM_PARTIAL;
    p->frame = frame;
    p->caplen = caplen;
    p->wirelen = wirelen;
    p->linktype = s->linktype;
    p->ts_us = ts_us;
    p->num = ++src->next_num;
    src->frames++;
    src->bytes += caplen;
}

/* The virtio_net_hdr the kernel wrote just before the frame (PACKET_VNET_HDR), into the
 * packet; a VLAN tag put back in front (tagged) moves the offsets by its 4 bytes. */
static void offload_in(struct mon_packet *p, const uint8_t *mac, bool tagged)
{
    struct virtio_net_hdr vh;
    memcpy(&vh, mac - sizeof vh, sizeof vh);
    uint16_t shift = tagged ? 4 : 0;
    p->offload = (struct mon_offload){
        .flags = (uint8_t)((vh.flags & VIRTIO_NET_HDR_F_NEEDS_CSUM ? MON_OFL_CSUM_PARTIAL : 0) |
                           (vh.flags & VIRTIO_NET_HDR_F_DATA_VALID ? MON_OFL_CSUM_VALID : 0)),
        .gso_type = vh.gso_type,
        .hdr_len = (uint16_t)(vh.hdr_len ? vh.hdr_len + shift : 0),
        .gso_size = vh.gso_size,
        .csum_start = (uint16_t)(vh.flags & VIRTIO_NET_HDR_F_NEEDS_CSUM ? vh.csum_start + shift
                                                                        : 0),
        .csum_offset = vh.csum_offset,
    };
}

/* The header a frame is sent with on a PACKET_VNET_HDR socket: what was left undone when it
 * was read (ofl), or nothing (a frame osprey built itself, complete). */
static struct virtio_net_hdr offload_out(const struct mon_offload *ofl)
{
    struct virtio_net_hdr vh = {.gso_type = VIRTIO_NET_HDR_GSO_NONE};
    if (!ofl)
        return vh;
    if (ofl->flags & MON_OFL_CSUM_PARTIAL) {
        vh.flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
        vh.csum_start = ofl->csum_start;
        vh.csum_offset = ofl->csum_offset;
    }
    vh.gso_type = ofl->gso_type;
    vh.gso_size = ofl->gso_size;
    vh.hdr_len = ofl->hdr_len;
    return vh;
}

/* V2: one slot per frame, in ring order. */
static int read_v2(struct afp_source *s, struct mon_packet *pkts, int max)
{
    int n = 0;
    while (n < max && s->done_blocks < s->frame_count) {
        struct tpacket2_hdr *h = (struct tpacket2_hdr *)(s->ring + (size_t)s->cur * s->frame_size);
        uint32_t st = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);
        if (!(st & TP_STATUS_USER))
            break;
        const uint8_t *frame = (const uint8_t *)h + h->tp_mac;
        uint32_t caplen = h->tp_snaplen, wirelen = h->tp_len;
        const uint8_t *mac = frame;
        if (st & TP_STATUS_VLAN_VALID)
            frame = restore_vlan(s, st, h->tp_vlan_tci, h->tp_vlan_tpid, frame, &caplen,
                                 &wirelen, n);
        fill(&s->base, &pkts[n], frame, caplen, wirelen,
             (uint64_t)h->tp_sec * 1000000u + h->tp_nsec / 1000u, st);
        if (s->vnet)
            offload_in(&pkts[n], mac, frame != mac);
        n++;
        s->done_blocks++;
        s->cur = (s->cur + 1) % s->frame_count;
    }
    return n;
}

static int afp_read(struct mon_source *src, struct mon_packet *pkts, int max)
{
    struct afp_source *s = (struct afp_source *)src;
    release_done(s);
    if (max > MON_IO_BATCH) /* the VLAN arena has one slot per frame of a batch */
        max = MON_IO_BATCH;
    if (s->v2)
        return read_v2(s, pkts, max);
    int n = 0;
    while (n < max) {
        if (s->left == 0) {
            /* every block was read in this batch: cur is one of them, still ours until the
             * next read returns it (its status still says USER) */
            if (s->done_blocks == s->block_count)
                break;
            struct tpacket_block_desc *b = block(s, s->cur);
            if (!(__atomic_load_n(&b->hdr.bh1.block_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER))
                break; /* the kernel is still filling it */
            s->left = b->hdr.bh1.num_pkts;
            s->next = (uint8_t *)b + b->hdr.bh1.offset_to_first_pkt;
            if (s->left == 0) { /* an empty block (timeout): give it back */
                s->done_blocks++;
                s->cur = (s->cur + 1) % s->block_count;
                continue;
            }
        }
        const struct tpacket3_hdr *h = (const struct tpacket3_hdr *)s->next;
        const uint8_t *frame = s->next + h->tp_mac;
        uint32_t caplen = h->tp_snaplen, wirelen = h->tp_len;
        if (h->tp_status & TP_STATUS_VLAN_VALID)
            frame = restore_vlan(s, h->tp_status, h->hv1.tp_vlan_tci, h->hv1.tp_vlan_tpid, frame,
                                 &caplen, &wirelen, n);
        fill(src, &pkts[n++], frame, caplen, wirelen,
             (uint64_t)h->tp_sec * 1000000u + h->tp_nsec / 1000u, h->tp_status);
        s->next += h->tp_next_offset;
        if (--s->left == 0) { /* block exhausted: returned at the next read */
            s->done_blocks++;
            s->cur = (s->cur + 1) % s->block_count;
        }
    }
    return n;
}

static int afp_fd(const struct mon_source *src)
{
    return ((const struct afp_source *)src)->fd;
}

static int afp_linktype(const struct mon_source *src)
{
    return ((const struct afp_source *)src)->linktype;
}

static int afp_send(struct mon_source *src, const uint8_t *frame, uint32_t len)
{
    struct afp_source *s = (struct afp_source *)src;
    struct virtio_net_hdr vh = offload_out(NULL);
    struct iovec iov[2] = {{&vh, sizeof vh}, {(void *)frame, len}};
    struct msghdr m = {.msg_iov = s->vnet ? iov : iov + 1, .msg_iovlen = s->vnet ? 2 : 1};
    size_t want = len + (s->vnet ? sizeof vh : 0);
    for (;;) {
        ssize_t k = sendmsg(s->fd, &m, 0);
        if (k == (ssize_t)want) {
            s->st.tx_frames++;
            return 0;
        }
        if (k < 0 && errno == EINTR)
            continue;
        s->st.tx_errors++;
        snprintf(src->err, sizeof src->err, "send: %s", k < 0 ? strerror(errno) : "short write");
        return -1;
    }
}

/* One sendmmsg() for a batch: a system call per batch instead of per frame. A frame the
 * interface refuses is counted and skipped; the ones after it are still sent, in order. */
static int afp_send_batch(struct mon_source *src, const uint8_t *const *frames,
                          const uint32_t *lens, const struct mon_offload *const *ofl, int n)
{
    struct afp_source *s = (struct afp_source *)src;
    struct mmsghdr msg[MON_IO_BATCH];
    struct iovec iov[MON_IO_BATCH][2];
    struct virtio_net_hdr vh[MON_IO_BATCH];
    int done = 0, sent = 0; /* done: sent or refused */
    while (done < n) {
        int k = n - done < MON_IO_BATCH ? n - done : MON_IO_BATCH;
        for (int i = 0; i < k; i++) {
            vh[i] = offload_out(ofl ? ofl[done + i] : NULL);
            iov[i][0] = (struct iovec){&vh[i], sizeof vh[i]};
            iov[i][1] = (struct iovec){(void *)frames[done + i], lens[done + i]};
            msg[i] = (struct mmsghdr){.msg_hdr = {.msg_iov = s->vnet ? iov[i] : iov[i] + 1,
                                                  .msg_iovlen = s->vnet ? 2 : 1}};
        }
        int r = sendmmsg(s->fd, msg, (unsigned)k, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) { /* the first of them was refused */
            snprintf(src->err, sizeof src->err, "send: %s", r < 0 ? strerror(errno) : "refused");
            s->st.tx_errors++;
            done++;
            continue;
        }
        s->st.tx_frames += (uint64_t)r;
        sent += r;
        done += r;
    }
    return sent;
}

static int afp_stats(struct mon_source *src, struct mon_live_stats *st)
{
    struct afp_source *s = (struct afp_source *)src;
    struct tpacket_stats_v3 ks;
    socklen_t l = sizeof ks;
    /* the kernel resets its counters on every read: accumulate */
    if (getsockopt(s->fd, SOL_PACKET, PACKET_STATISTICS, &ks, &l) == 0) {
        s->st.kernel_packets += ks.tp_packets;
        s->st.kernel_drops += ks.tp_drops;
    }
    *st = s->st;
    return 0;
}

static void afp_close(struct mon_source *src)
{
    struct afp_source *s = (struct afp_source *)src;
    if (s->ring)
        munmap(s->ring, s->ring_len);
    if (s->fd >= 0)
        close(s->fd);
    free(s->vlan_arena);
    free(s);
}

static const struct mon_source_ops afp_ops = {
    .kind = "af-packet",
    .read = afp_read,
    .close = afp_close,
    .fd = afp_fd,
    .send = afp_send,
    .send_batch = afp_send_batch,
    .stats = afp_stats,
    .linktype = afp_linktype,
};

static int fail(struct afp_source *s, char *err, size_t errlen, const char *iface,
                const char *what)
{
    snprintf(err, errlen, "%s: %s: %s", iface, what, strerror(errno));
    afp_close(&s->base);
    return -1;
}

/* Link type of the interface: Ethernet-framed devices only (loopback has a zero Ethernet
 * header too); anything else is for the libpcap source. */
static int iface_linktype(int fd, const char *iface, char *err, size_t errlen)
{
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", iface);
    if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
        snprintf(err, errlen, "%s: %s", iface, strerror(errno));
        return -1;
    }
    if (ifr.ifr_hwaddr.sa_family == ARPHRD_ETHER || ifr.ifr_hwaddr.sa_family == ARPHRD_LOOPBACK)
        return DLT_EN10MB;
    snprintf(err, errlen, "%s: not an Ethernet interface (ARPHRD %u): use --pcap-live", iface,
             ifr.ifr_hwaddr.sa_family);
    return -1;
}

static int iface_mtu(int fd, const char *iface)
{
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", iface);
    return ioctl(fd, SIOCGIFMTU, &ifr) == 0 ? ifr.ifr_mtu : -1;
}

struct mon_source *mon_source_open_afpacket(const struct mon_live_cfg *cfg, char *err,
                                            size_t errlen)
{
    const char *iface = cfg->iface;
    if (!iface || !*iface || strlen(iface) >= IFNAMSIZ) {
        snprintf(err, errlen, "'%s': not an interface name", iface ? iface : "");
        return NULL;
    }
    struct afp_source *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "%s: out of memory", iface);
        return NULL;
    }
    s->base.ops = &afp_ops;
    s->fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
    if (s->fd < 0) {
        fail(s, err, errlen, iface, errno == EPERM ? "AF_PACKET socket (needs CAP_NET_RAW)"
                                                   : "AF_PACKET socket");
        return NULL;
    }
    if (!(s->ifindex = (int)if_nametoindex(iface))) {
        fail(s, err, errlen, iface, "no such interface");
        return NULL;
    }
    if ((s->linktype = iface_linktype(s->fd, iface, err, errlen)) < 0) {
        afp_close(&s->base);
        return NULL;
    }
    s->v2 = cfg->per_frame;
    int v = s->v2 ? TPACKET_V2 : TPACKET_V3;
    if (setsockopt(s->fd, SOL_PACKET, PACKET_VERSION, &v, sizeof v) < 0) {
        fail(s, err, errlen, iface, s->v2 ? "TPACKET_V2" : "TPACKET_V3");
        return NULL;
    }
    if (s->v2 && cfg->offload_meta) {
        /* before the ring exists (the kernel refuses it after); an old kernel that refuses it
         * altogether leaves the socket as it was: frames are then forwarded as they come */
        int one = 1;
        s->vnet = setsockopt(s->fd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof one) == 0;
    }
    if (cfg->ignore_outgoing) {
        int one = 1;
        if (setsockopt(s->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof one) < 0) {
            fail(s, err, errlen, iface, "PACKET_IGNORE_OUTGOING (Linux 4.20 or later)");
            return NULL;
        }
    }
    long page = sysconf(_SC_PAGESIZE);
    s->block_size = cfg->block_size ? cfg->block_size : 1u << 20;
    s->block_count = cfg->block_count ? cfg->block_count : 16;
    if (page <= 0 || s->block_size % (uint32_t)page || (s->block_size & (s->block_size - 1))) {
        snprintf(err, errlen, "%s: ring block size %u is not a power of two multiple of the "
                 "page size", iface, s->block_size);
        afp_close(&s->base);
        return NULL;
    }
    struct tpacket_req3 req = {
        .tp_block_size = s->block_size,
        .tp_block_nr = s->block_count,
        .tp_frame_size = 2048, /* V3 packs variable-size frames; this only sizes the count */
        .tp_retire_blk_tov = cfg->block_timeout_ms ? cfg->block_timeout_ms : 10,
    };
    if (s->v2) {
        /* a slot holds the largest frame the interface can receive whole (MTU + link header
         * + a VLAN tag + the slot's own header), rounded up to a power of two */
        int mtu = iface_mtu(s->fd, iface);
        uint32_t need = TPACKET_ALIGN(TPACKET2_HDRLEN) + (uint32_t)(mtu > 0 ? mtu : 1500) + 64;
        if (s->vnet) /* + its virtio_net_hdr, and room for a whole super-frame */
            need = TPACKET_ALIGN(TPACKET2_HDRLEN) + (uint32_t)sizeof(struct virtio_net_hdr) +
                   (mtu > 0 && (uint32_t)mtu > GSO_FRAME_MAX ? (uint32_t)mtu : GSO_FRAME_MAX);
        for (s->frame_size = 2048; s->frame_size < need; s->frame_size *= 2) {
        }
        if (s->frame_size > s->block_size) {
            snprintf(err, errlen, "%s: ring block size %u is smaller than one frame (%u bytes "
                     "for MTU %d)", iface, s->block_size, s->frame_size, mtu);
            afp_close(&s->base);
            return NULL;
        }
        req.tp_frame_size = s->frame_size;
        req.tp_retire_blk_tov = 0;
    }
    req.tp_frame_nr = (s->block_size / req.tp_frame_size) * s->block_count;
    s->frame_count = req.tp_frame_nr;
    /* a V2 request is the first four fields of a V3 one */
    if (setsockopt(s->fd, SOL_PACKET, PACKET_RX_RING, &req,
                   s->v2 ? sizeof(struct tpacket_req) : sizeof req) < 0) {
        fail(s, err, errlen, iface, "PACKET_RX_RING");
        return NULL;
    }
    s->ring_len = (size_t)s->block_size * s->block_count;
    s->ring = mmap(NULL, s->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_LOCKED, s->fd, 0);
    if (s->ring == MAP_FAILED) /* MAP_LOCKED may exceed RLIMIT_MEMLOCK: try unlocked */
        s->ring = mmap(NULL, s->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
    if (s->ring == MAP_FAILED) {
        s->ring = NULL;
        fail(s, err, errlen, iface, "mmap of the ring");
        return NULL;
    }
    struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
                              .sll_ifindex = s->ifindex};
    if (bind(s->fd, (struct sockaddr *)&sll, sizeof sll) < 0) {
        fail(s, err, errlen, iface, "bind");
        return NULL;
    }
    if (cfg->promisc) {
        struct packet_mreq mr = {.mr_ifindex = s->ifindex, .mr_type = PACKET_MR_PROMISC};
        if (setsockopt(s->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof mr) < 0) {
            fail(s, err, errlen, iface, "promiscuous mode");
            return NULL;
        }
    }
    if (cfg->fanout_id) {
        uint32_t arg = cfg->fanout_id | (uint32_t)PACKET_FANOUT_HASH << 16;
        if (cfg->fanout_defrag)
            arg |= (uint32_t)PACKET_FANOUT_FLAG_DEFRAG << 16;
        if (setsockopt(s->fd, SOL_PACKET, PACKET_FANOUT, &arg, sizeof arg) < 0) {
            fail(s, err, errlen, iface, "PACKET_FANOUT (cluster-id in use by another program?)");
            return NULL;
        }
    }
    return &s->base;
}
