/* pcap_live.c — live capture (and transmit) through libpcap, for interfaces AF_PACKET does
 * not serve (non-Ethernet links) or other systems. One source per interface, no fanout.
 *
 * libpcap reuses its buffer between dispatches, so a batch copies its frames into an arena
 * that stays valid until the next read, as the file source does.
 */
#include <pcap/pcap.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon_io.h"

#define ARENA_MIN (2u << 20)
#define SNAPLEN_DEFAULT 65535u
#define SNAPLEN_MAX 262144u /* libpcap's own ceiling */

struct pcap_live_source {
    struct mon_source base; /* must be first */
    pcap_t *pc;
    int fd, linktype;
    uint8_t *arena;
    size_t used, arena_size; /* a whole batch of snaplen frames fits */
    struct mon_packet *out; /* the batch being filled by on_frame */
    int n, max;
    uint64_t truncated;     /* frames cut to fit the arena (never, as it is sized) */
    struct mon_live_stats st;
};

static void on_frame(u_char *user, const struct pcap_pkthdr *h, const u_char *data)
{
    struct pcap_live_source *s = (struct pcap_live_source *)user;
    uint32_t len = h->caplen;
    if (s->used + len > s->arena_size) { /* only if libpcap handed more than snaplen */
        len = (uint32_t)(s->arena_size - s->used);
        s->truncated++;
    }
    memcpy(s->arena + s->used, data, len);
    struct mon_packet *p = &s->out[s->n++];
    memset(p, 0, offsetof(struct mon_packet, layer));
    p->frame = s->arena + s->used;
    s->used += (len + 15u) & ~15u;
    p->caplen = len;
    p->wirelen = h->len;
    p->linktype = s->linktype;
    p->ts_us = (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec;
    p->num = ++s->base.next_num;
    s->base.frames++;
    s->base.bytes += len;
}

static int pl_read(struct mon_source *src, struct mon_packet *pkts, int max)
{
    struct pcap_live_source *s = (struct pcap_live_source *)src;
    s->used = 0;
    s->n = 0;
    s->out = pkts;
    if (max <= 0)
        return 0; /* pcap_dispatch would read a whole buffer's worth into pkts */
    if (max > MON_IO_BATCH) /* what the arena is sized for */
        max = MON_IO_BATCH;
    /* at most MON_IO_BATCH frames of at most snaplen bytes each: they fit the arena */
    int rc = pcap_dispatch(s->pc, max, on_frame, (u_char *)s);
    if (rc == PCAP_ERROR) {
        snprintf(src->err, sizeof src->err, "%s", pcap_geterr(s->pc));
        return s->n > 0 ? s->n : -1;
    }
    return s->n;
}

static int pl_fd(const struct mon_source *src)
{
    return ((const struct pcap_live_source *)src)->fd;
}

static int pl_linktype(const struct mon_source *src)
{
    return ((const struct pcap_live_source *)src)->linktype;
}

static int pl_send(struct mon_source *src, const uint8_t *frame, uint32_t len)
{
    struct pcap_live_source *s = (struct pcap_live_source *)src;
    if (pcap_inject(s->pc, frame, len) != (int)len) {
        s->st.tx_errors++;
        snprintf(src->err, sizeof src->err, "send: %s", pcap_geterr(s->pc));
        return -1;
    }
    s->st.tx_frames++;
    return 0;
}

static int pl_stats(struct mon_source *src, struct mon_live_stats *st)
{
    struct pcap_live_source *s = (struct pcap_live_source *)src;
    struct pcap_stat ps;
    if (pcap_stats(s->pc, &ps) == 0) { /* libpcap's counters are totals already */
        s->st.kernel_packets = ps.ps_recv;
        s->st.kernel_drops = ps.ps_drop;
        s->st.if_drops = ps.ps_ifdrop;
    }
    *st = s->st;
    return 0;
}

static void pl_close(struct mon_source *src)
{
    struct pcap_live_source *s = (struct pcap_live_source *)src;
    if (s->pc)
        pcap_close(s->pc);
    free(s->arena);
    free(s);
}

static const struct mon_source_ops pcap_live_ops = {
    .kind = "pcap-live",
    .read = pl_read,
    .close = pl_close,
    .fd = pl_fd,
    .send = pl_send,
    .stats = pl_stats,
    .linktype = pl_linktype,
};

struct mon_source *mon_source_open_pcap_live(const struct mon_live_cfg *cfg, char *err,
                                             size_t errlen)
{
    char perr[PCAP_ERRBUF_SIZE] = "";
    uint32_t snaplen = cfg->snaplen ? cfg->snaplen : SNAPLEN_DEFAULT;
    if (snaplen < 64 || snaplen > SNAPLEN_MAX || cfg->buffer_size > INT32_MAX) {
        snprintf(err, errlen, "%s: snaplen %u (64..%u) or buffer size %u (at most 2 GiB) out of "
                 "range", cfg->iface, snaplen, SNAPLEN_MAX, cfg->buffer_size);
        return NULL;
    }
    size_t arena = (size_t)MON_IO_BATCH * ((snaplen + 15u) & ~15u);
    struct pcap_live_source *s = calloc(1, sizeof *s);
    if (s)
        s->arena_size = arena > ARENA_MIN ? arena : ARENA_MIN;
    if (!s || !(s->arena = malloc(s->arena_size))) {
        free(s);
        snprintf(err, errlen, "%s: out of memory", cfg->iface);
        return NULL;
    }
    s->base.ops = &pcap_live_ops;
    if (!(s->pc = pcap_create(cfg->iface, perr))) {
        snprintf(err, errlen, "%s: %s", cfg->iface, perr);
        pl_close(&s->base);
        return NULL;
    }
    /* the kernel buffer must hold a burst: libpcap's 2 MiB default is ~32 frames on a
     * 64 KiB-MTU link (loopback) in immediate mode, so bursts would drop */
    if (pcap_set_snaplen(s->pc, (int)snaplen) != 0 || pcap_set_promisc(s->pc, cfg->promisc) != 0 ||
        pcap_set_immediate_mode(s->pc, 1) != 0 ||
        (cfg->buffer_size && pcap_set_buffer_size(s->pc, (int)cfg->buffer_size) != 0)) {
        snprintf(err, errlen, "%s: cannot set the capture options: %s", cfg->iface,
                 pcap_geterr(s->pc));
        pl_close(&s->base);
        return NULL;
    }
    int rc = pcap_activate(s->pc);
    if (rc < 0) {
        snprintf(err, errlen, "%s: %s", cfg->iface,
                 rc == PCAP_ERROR ? pcap_geterr(s->pc) : pcap_statustostr(rc));
        pl_close(&s->base);
        return NULL;
    }
    if (cfg->ignore_outgoing && pcap_setdirection(s->pc, PCAP_D_IN) < 0) {
        snprintf(err, errlen, "%s: capture direction: %s", cfg->iface, pcap_geterr(s->pc));
        pl_close(&s->base);
        return NULL;
    }
    if (pcap_setnonblock(s->pc, 1, perr) < 0 || (s->fd = pcap_get_selectable_fd(s->pc)) < 0) {
        snprintf(err, errlen, "%s: no pollable descriptor: %s", cfg->iface, perr);
        pl_close(&s->base);
        return NULL;
    }
    s->linktype = pcap_datalink(s->pc);
    return &s->base;
}
