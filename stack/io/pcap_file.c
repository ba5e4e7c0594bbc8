/* pcap_file.c — pcap and pcapng files via libpcap (which reads both formats). */
#include <pcap/pcap.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon_io.h"

struct pcap_file_source {
    struct mon_source base;  /* must be first */
    pcap_t *pc;
    /* libpcap overwrites its frame buffer on every read, so a batch copies each frame into
     * this arena; frames stay valid until the next batch. One memcpy per frame is the price
     * of batching a file source (live ring sources hand out ring slots instead). */
    uint8_t *arena;
    size_t arena_size;
    char *iobuf; /* the FILE's buffer (libpcap reads a file through stdio) */
    int failed;  /* a read error ends the input: reported once the batch before it is consumed */
};

static int pcap_file_read(struct mon_source *src, struct mon_packet *pkts, int max)
{
    struct pcap_file_source *s = (struct pcap_file_source *)src;
    size_t used = 0;
    int n = 0;
    if (s->failed)
        return -1;
    while (n < max) {
        struct pcap_pkthdr *h;
        const u_char *data;
        if (n > 0 && used + 65536 > s->arena_size)
            break; /* a full arena ends the batch before a frame could not fit */
        int rc = pcap_next_ex(s->pc, &h, &data);
        if (rc == PCAP_ERROR_BREAK)
            break;
        if (rc == PCAP_ERROR) {
            snprintf(src->err, sizeof src->err, "%s", pcap_geterr(s->pc));
            s->failed = 1;
            return n > 0 ? n : -1;
        }
        if (used + h->caplen > s->arena_size) {
            /* only the first frame of a batch can get here: grow to hold it */
            size_t want = h->caplen + 65536;
            uint8_t *a = realloc(s->arena, want);
            if (!a) {
                snprintf(src->err, sizeof src->err, "out of memory for a %u-byte frame", h->caplen);
                return -1;
            }
            s->arena = a;
            s->arena_size = want;
        }
        memcpy(s->arena + used, data, h->caplen);
        struct mon_packet *p = &pkts[n++];
        memset(p, 0, offsetof(struct mon_packet, layer));
        p->frame = s->arena + used;
        used += (h->caplen + 15u) & ~15u;
        p->caplen = h->caplen;
        p->wirelen = h->len;
        p->linktype = pcap_datalink(s->pc);
        p->ts_us = (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec;
        p->num = ++src->next_num;
        src->frames++;
        src->bytes += h->caplen;
    }
    return n;
}

static void pcap_file_close(struct mon_source *src)
{
    struct pcap_file_source *s = (struct pcap_file_source *)src;
    pcap_close(s->pc); /* closes the FILE, which used iobuf until then */
    free(s->iobuf);
    free(s->arena);
    free(s);
}

static const struct mon_source_ops pcap_file_ops = {
    .kind = "pcap-file",
    .read = pcap_file_read,
    .close = pcap_file_close,
};

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
    if (!s) {
        pcap_close(pc);
        free(iobuf);
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    s->base.ops = &pcap_file_ops;
    s->pc = pc;
    s->iobuf = iobuf;
    s->arena_size = 1u << 20;
    s->arena = malloc(s->arena_size);
    if (!s->arena) {
        pcap_close(pc);
        free(iobuf);
        free(s);
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    return &s->base;
}

int mon_source_linktype(const struct mon_source *src)
{
    if (src->ops->linktype) /* live sources */
        return src->ops->linktype(src);
    const struct pcap_file_source *s = (const struct pcap_file_source *)src;
    return pcap_datalink(s->pc);
}

void mon_source_close(struct mon_source *src)
{
    if (src)
        src->ops->close(src);
}
