/* workers.h — `--runmode workers` for offline captures: one reader thread, N worker threads.
 *
 * The reader (the calling thread) reads the captures, decodes each frame only to find its
 * outermost IP address pair, and copies the frame into the ring of the worker that pair hashes
 * to. Each worker feeds its own mon_ctx (mon_process), so flows, reassembly and detection state
 * stay per worker; nothing on the packet path is locked.
 */
#ifndef OSPREY_WORKERS_H
#define OSPREY_WORKERS_H

#include <stdint.h>

#include "mon.h"
#include "pipeline.h"

/* Read files[0..nfiles) and process them on workers ws[0..n) (n >= 1), one thread each, each
 * fed through a ring of ring_size bytes of frames (threading.ring-size: 0 = 64 MiB shared
 * out, 4 to 16 MiB each; at least 1 MiB)
 * (osprey_worker_packet); every worker is flushed (osprey_worker_flush) by its thread before this returns. pcap_cnt (packet
 * num) runs on across the files as in single mode. *pkts and *bytes receive the frames and
 * captured bytes read. Between batches it does what single mode's loop does (SIGTERM/SIGINT
 * stop the reading, SIGHUP reopens the outputs, periodic stats records). Returns 0, -1 after a read error (the rest is still read), or -2 if the
 * threads could not be started (nothing was read). */
int osprey_workers_run(struct osprey_worker *ws, int n, const struct mon_decode_cfg *dcfg,
                       uint64_t ring_size, char **files, int nfiles, uint64_t *pkts,
                       uint64_t *bytes);

/* The worker (0..n-1) a decoded packet belongs to: a symmetric hash of the unordered outermost
 * IP address pair (see workers.c for why outermost); frames without IP go to worker 0. */
int osprey_workers_pick(const struct mon_packet *p, int n);

#endif
