/* pcap_file.c — pcap and pcapng files via libpcap (which reads both formats), in batches on
 * the caller's thread; mon_source_read_ahead hands the reading to a thread of its own
 * (pcap_file_ahead.c). */
#include <pcap/pcap.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcap_file_int.h"

int pcap_file_fill(pcap_t *pc, struct pcap_arena *a, struct pcap_frame *out, int max,
                   int *failed, char *err, size_t errlen)
{
    size_t used = 0;
    int n = 0;
    while (n < max) {
        struct pcap_pkthdr *h;
        const u_char *data;
        if (n > 0 && used + 65536 > a->size)
            break; /* a full arena ends the batch before a frame could not fit */
        int rc = pcap_next_ex(pc, &h, &data);
        if (rc == PCAP_ERROR_BREAK)
            break;
        if (rc == PCAP_ERROR) {
            snprintf(err, errlen, "%s", pcap_geterr(pc));
            *failed = 1;
            break;
        }
        if (used + h->caplen > a->size) {
            /* only the first frame of a batch can get here: grow to hold it */
            size_t want = h->caplen + 65536;
            uint8_t *m = realloc(a->mem, want);
            if (!m) {
                snprintf(err, errlen, "out of memory for a %u-byte frame", h->caplen);
                *failed = 1;
                break;
            }
            a->mem = m;
            a->size = want;
        }
        memcpy(a->mem + used, data, h->caplen);
        out[n++] = (struct pcap_frame){
            .data = a->mem + used,
            .caplen = h->caplen,
            .wirelen = h->len,
            .linktype = pcap_datalink(pc),
            .ts_us = (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec,
        };
        used += (h->caplen + 15u) & ~15u;
    }
    return n;
}

void pcap_file_hand_out(struct pcap_file_source *s, const struct pcap_frame *f, int n,
                        struct mon_packet *pkts)
{
    for (int i = 0; i < n; i++) {
        struct mon_packet *p = &pkts[i];
        memset(p, 0, offsetof(struct mon_packet, layer));
        p->frame = f[i].data;
        p->caplen = f[i].caplen;
        p->wirelen = f[i].wirelen;
        p->linktype = f[i].linktype;
        p->ts_us = f[i].ts_us;
        p->num = ++s->base.next_num;
        s->base.frames++;
        s->base.bytes += f[i].caplen;
    }
    if (n > 0)
        s->linktype = f[n - 1].linktype;
}

static int pcap_file_read(struct mon_source *src, struct mon_packet *pkts, int max)
{
    struct pcap_file_source *s = (struct pcap_file_source *)src;
    if (s->ahead)
        return pcap_ahead_read(s, pkts, max);
    if (s->failed)
        return -1;
    if (max > MON_IO_BATCH)
        max = MON_IO_BATCH; /* (the frame list's size) */
    int n = pcap_file_fill(s->pc, &s->arena, s->frames, max, &s->failed, src->err,
                           sizeof src->err);
    pcap_file_hand_out(s, s->frames, n, pkts);
    return n > 0 || !s->failed ? n : -1;
}

static void pcap_file_close(struct mon_source *src)
{
    struct pcap_file_source *s = (struct pcap_file_source *)src;
    pcap_ahead_stop(s->ahead); /* before the FILE goes: the thread reads it */
    pcap_close(s->pc); /* closes the FILE, which used iobuf until then */
    free(s->iobuf);
    free(s->arena.mem);
    free(s->frames);
    free(s);
}

static const struct mon_source_ops pcap_file_ops = {
    .kind = "pcap-file",
    .read = pcap_file_read,
    .close = pcap_file_close,
};

bool mon_source_is_file(const struct mon_source *src)
{
    return src && src->ops == &pcap_file_ops;
}

struct mon_source *mon_source_open_file(const char *path, char *err, size_t errlen)
{
    char perr[PCAP_ERRBUF_SIZE] = "";
    pcap_t *pc = NULL;
    /* libpcap reads a file through stdio, whose buffer is the file system's 4 KiB block: a
     * read(2) per 4 KiB, 200,000 system calls for an 845 MB capture. A 1 MiB buffer of our
     * own (glibc sizes a buffer only when it is given one) makes that 800. */
    enum { IOBUF = 1u << 20 };
    FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : NULL;
    char *iobuf = fp ? malloc(IOBUF) : NULL;
    if (fp) {
        if (iobuf)
            setvbuf(fp, iobuf, _IOFBF, IOBUF);
        pc = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_MICRO, perr);
        if (!pc)
            fclose(fp); /* (libpcap leaves a FILE it was given open on failure) */
    } else {
        pc = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_MICRO, perr);
    }
    if (!pc)
        free(iobuf);
    if (!pc) {
        snprintf(err, errlen, "%s: %s", path, perr);
        return NULL;
    }
    struct pcap_file_source *s = calloc(1, sizeof *s);
    if (s) {
        s->arena.size = 1u << 20;
        s->arena.mem = malloc(s->arena.size);
        s->frames = calloc(MON_IO_BATCH, sizeof *s->frames);
    }
    if (!s || !s->arena.mem || !s->frames) {
        if (s) {
            free(s->arena.mem);
            free(s->frames);
        }
        pcap_close(pc);
        free(iobuf);
        free(s);
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    s->base.ops = &pcap_file_ops;
    s->pc = pc;
    s->iobuf = iobuf;
    s->linktype = pcap_datalink(pc);
    return &s->base;
}

int mon_source_linktype(const struct mon_source *src)
{
    if (src->ops->linktype) /* live sources */
        return src->ops->linktype(src);
    const struct pcap_file_source *s = (const struct pcap_file_source *)src;
    return s->linktype;
}

void mon_source_close(struct mon_source *src)
{
    if (src)
        src->ops->close(src);
}
