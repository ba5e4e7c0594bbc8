/* pcap_file_int.h — the pcap file source's state, shared by its synchronous reader
 * (pcap_file.c) and its read-ahead thread (pcap_file_ahead.c). Private to stack/io. */
#ifndef MON_PCAP_FILE_INT_H
#define MON_PCAP_FILE_INT_H

#include <pcap/pcap.h>
#include <stdint.h>

#include "mon.h"
#include "mon_io.h"

/* One frame read, its bytes in an arena (what a mon_packet needs from the file). */
struct pcap_frame {
    const uint8_t *data;
    uint32_t caplen, wirelen;
    int linktype;
    uint64_t ts_us;
};

/* An arena frames are copied into: libpcap overwrites its frame buffer on every read. */
struct pcap_arena {
    uint8_t *mem;
    size_t size;
};

struct pcap_ahead; /* pcap_file_ahead.c */

struct pcap_file_source {
    struct mon_source base; /* must be first */
    pcap_t *pc;
    struct pcap_arena arena; /* the synchronous reader's: frames stay valid until the next read */
    struct pcap_frame *frames; /* the synchronous reader's, MON_IO_BATCH */
    char *iobuf;   /* the FILE's buffer (libpcap reads a file through stdio) */
    int failed;    /* a read error ends the input: reported once the frames before it are out */
    int linktype;  /* of the last frame handed out */
    struct pcap_ahead *ahead; /* non-NULL: a thread reads ahead (pcap_file_ahead.c) */
};

/* Read up to max frames from s->pc into out, their bytes copied into a (grown only for a first
 * frame larger than it; a frame that would not fit ends the batch). Returns the count; sets
 * *failed and writes err when the read after them failed. Touches nothing else of s. */
int pcap_file_fill(pcap_t *pc, struct pcap_arena *a, struct pcap_frame *out, int max,
                   int *failed, char *err, size_t errlen);

/* Hand frames out as mon_packets: numbered, counted in the source's totals. */
void pcap_file_hand_out(struct pcap_file_source *s, const struct pcap_frame *f, int n,
                        struct mon_packet *pkts);

int pcap_ahead_read(struct pcap_file_source *s, struct mon_packet *pkts, int max);
void pcap_ahead_stop(struct pcap_ahead *a);

#endif
