/* preload.h — every frame of some captures, copied into memory before a benchmark runs, so
 * the figures are the code's and not the disk's. Shared by the bench programs. */
#ifndef OSPREY_BENCH_PRELOAD_H
#define OSPREY_BENCH_PRELOAD_H

#include <stddef.h>
#include <stdint.h>

#include "mon_packet.h"

struct bench_frame {
    struct mon_packet p;  /* source metadata; p.frame points at data */
    uint8_t *data;
};

struct bench_capture {
    struct bench_frame *f;
    size_t n;
    uint64_t bytes;       /* captured bytes */
};

/* Load files[0..nfiles). Returns 0, or -1 after printing why (prog: for the message). */
int bench_preload(struct bench_capture *c, char *const *files, int nfiles, const char *prog);
void bench_capture_free(struct bench_capture *c);

/* `prog [-n ROUNDS] FILE.pcap...` (default 3 rounds): preload the files. Returns 0, 2 after a
 * usage message, 1 when a capture could not be loaded. */
int bench_rounds_and_capture(int argc, char **argv, const char *prog, int *rounds,
                             struct bench_capture *c);

#endif
