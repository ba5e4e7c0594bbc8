/* capture_files.h — the capture-file loop both offline run modes share (single: run_offline.c,
 * workers: workers.c): open each file in turn, read it in batches, number the frames, hand each
 * batch on, and between batches do what a run loop does.
 */
#ifndef OSPREY_CAPTURE_FILES_H
#define OSPREY_CAPTURE_FILES_H

#include <stdint.h>
#include <stdio.h>

#include "mon.h"
#include "pipeline.h"

/* The captures to read (capture_list.c): FILE, or every regular file under DIR and its
 * subdirectories (hidden files and directories left out) ordered by the capture time of its
 * first packet (then by path), as malloc'd strings. 0, or -1 after printing why on diag (NULL:
 * quiet; no such path, an empty directory). Free with osprey_capture_list_free. */
int osprey_capture_list(const char *path, char ***out, int *n, FILE *diag);
void osprey_capture_list_free(char **files, int n);

/* pcap-file.delete-when-done, as Suricata's key: no, yes (each file read to its end), or
 * non-alerts (Suricata 8: only a file that raised no alert; Osprey decides on the whole run,
 * after its last flows ended, so a file with an alert is never deleted). */
enum osprey_capture_delete { OSPREY_DELETE_NO, OSPREY_DELETE_YES, OSPREY_DELETE_NON_ALERTS };
enum osprey_capture_delete osprey_capture_delete_mode(const struct osprey_config *cfg);

/* What happens to a batch of n frames (already numbered); 0, or -1 when some frame could
 * not be handled (counted as a failed run; the reading goes on). */
typedef int (*osprey_capture_batch_fn)(void *arg, struct mon_packet *batch, int n);

/* Read files[0..nfiles) into pl's workers through on_batch(arg, …). pcap_cnt (mon_packet.num)
 * runs on across the files of a directory. Between batches: SIGTERM/SIGINT end the run as at
 * EOF (the batch read is processed), SIGHUP reopens the outputs (osprey_daemon_poll), periodic
 * stats records; on a terminal the progress line (packets, % of the files' bytes, rate, time
 * left) is shown on stderr about once a second. -r with pcap-file.delete-when-done: each file
 * read to its end is deleted.
 * *pkts and *bytes receive the frames and captured bytes read. Returns 0, or -1 after an
 * open or read error or a failed batch (the rest is still read). Under --unix-socket
 * (pl->jobs), pcap-interrupt ends the reading as SIGTERM does, SIGTERM the whole run. */
int osprey_capture_files(struct osprey_pipeline *pl, char **files, int nfiles,
                         osprey_capture_batch_fn on_batch, void *arg, uint64_t *pkts,
                         uint64_t *bytes);

#endif
