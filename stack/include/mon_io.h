/* mon_io.h — packet sources behind one small interface, read in batches.
 *
 * A source yields frames with their capture metadata into caller-provided struct
 * mon_packet slots. Frames stay valid until the next mon_source_read() on the same source.
 * Today: pcap and pcapng files (libpcap). Live AF_PACKET, libpcap live and DPDK sources
 * implement the same operations table (struct mon_source_ops) later.
 */
#ifndef MON_IO_H
#define MON_IO_H

#include <stddef.h>
#include <stdint.h>

#include "mon_packet.h"

#define MON_IO_BATCH 32

struct mon_source;

/* The operations every kind of source implements. */
struct mon_source_ops {
    const char *kind;
    /* Fill up to max slots; return the count (0 = end of input), or a negative error. */
    int (*read)(struct mon_source *src, struct mon_packet *pkts, int max);
    void (*close)(struct mon_source *src);
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

/* Link type (DLT_*) of the frames the source yields; may change between reads for pcapng. */
int mon_source_linktype(const struct mon_source *src);

static inline int mon_source_read(struct mon_source *src, struct mon_packet *pkts, int max)
{
    return src->ops->read(src, pkts, max);
}

void mon_source_close(struct mon_source *src);

#endif
