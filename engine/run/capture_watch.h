/* capture_watch.h — a directory read again and again for the captures that appear in it: the
 * continuous mode of `-r DIR` (pcap-file.continuous) and of --unix-socket's
 * pcap-file-continuous jobs. Each look reads the files not read yet, in capture-time order. */
#ifndef OSPREY_CAPTURE_WATCH_H
#define OSPREY_CAPTURE_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "capture_files.h"

struct osprey_capture_watch {
    char **done; /* the files read so far (a deleted one may come back under the same name:
                  * it is then not read again, as Suricata's continuous mode skips it) */
    int ndone;
};

/* Read the files of path not in w->done, each by its own osprey_capture_files call (as
 * --unix-socket jobs always have: pcap-interrupt ends one file); delete_each: unlink each after it is read (--unix-socket jobs; -r reads the
 * pcap-file.delete-when-done key in osprey_capture_files). quiet: an empty or missing
 * directory is not reported (a watched directory often is). Adds the packets and bytes read to
 * *pkts and *bytes; returns osprey_capture_files' status (0 when nothing was new). */
int osprey_capture_read_new(struct osprey_pipeline *pl, const char *path, bool quiet,
                            bool delete_each, osprey_capture_batch_fn on_batch, void *arg,
                            struct osprey_capture_watch *w, uint64_t *pkts, uint64_t *bytes);
/* Count path (malloc'd; owned by w on success) as read: 0, or -1 out of memory. */
int osprey_capture_watch_add(struct osprey_capture_watch *w, char *path);
void osprey_capture_watch_free(struct osprey_capture_watch *w);

#endif
