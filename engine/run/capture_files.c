/* capture_files.c — the capture-file loop of the offline run modes (capture_files.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture_files.h"
#include "daemon.h"
#include "osprey_log_file.h"
#include "mon_io.h"
#include "osprey_clock.h"
#include "osprey_config.h"
#include "pcap_jobs.h"
#include "signals.h"

enum osprey_capture_delete osprey_capture_delete_mode(const struct osprey_config *cfg)
{
    const char *v = osprey_config_str(cfg, "pcap-file.delete-when-done");
    if (!v)
        return OSPREY_DELETE_NO;
    if (!strcasecmp(v, "non-alerts"))
        return OSPREY_DELETE_NON_ALERTS;
    if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcasecmp(v, "on") || !strcmp(v, "1"))
        return OSPREY_DELETE_YES;
    return OSPREY_DELETE_NO;
}

/* The progress line: packets, the share of the files' bytes read, the packet rate and the
 * time left at the byte rate so far. The bytes of the file being read are estimated from its
 * frames (a 16-byte pcap record header each): libmon does not expose the file offset. */
struct progress {
    bool on;            /* stderr is a terminal */
    double t0, last;    /* start, last line */
    uint64_t total;     /* bytes of all the files (their sizes on disk) */
    uint64_t done;      /* bytes of the files finished */
};

static bool regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static uint64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static void progress_show(struct progress *pr, const struct mon_source *src, uint64_t size,
                          uint64_t pkts, int file, int nfiles)
{
    double now = osprey_clock_mono_s();
    pr->last = now;
    uint64_t cur = src ? 24 + src->bytes + 16 * src->frames : 0;
    uint64_t read = pr->done + (cur < size ? cur : size);
    if (read > pr->total) /* a file grew since it was first measured */
        pr->total = read;
    double pct = pr->total ? 100.0 * (double)read / (double)pr->total : 100.0;
    double secs = now - pr->t0 > 1e-3 ? now - pr->t0 : 1e-3;
    double left = read ? (double)(pr->total - read) * secs / (double)read : 0;
    unsigned l = (unsigned)(left + 0.5);
    fprintf(stderr, "\rosprey: %llu packets, %.0f%% of %.1f MB, %.0f packets/s, %u:%02u:%02u left"
            " (file %d/%d)\033[K", (unsigned long long)pkts, pct > 100 ? 100 : pct,
            (double)pr->total / 1e6, (double)pkts / secs, l / 3600, l / 60 % 60, l % 60,
            file, nfiles);
    fflush(stderr);
}

int osprey_capture_files(struct osprey_pipeline *pl, char **files, int nfiles,
                         osprey_capture_batch_fn on_batch, void *arg, uint64_t *pkts,
                         uint64_t *bytes)
{
    struct mon_packet *batch = calloc(MON_IO_BATCH, sizeof *batch);
    if (!batch)
        return -1;
    int rc = 0;
    uint64_t num = 0;
    /* -r: pcap-file.delete-when-done (a --unix-socket job says it per job: run_unix_socket.c) */
    bool del = !pl->jobs && osprey_capture_delete_mode(pl->cfg) == OSPREY_DELETE_YES;
    /* not for --runmode workers: its reader is a thread of its own already, asleep most of
     * the time waiting for the workers' rings; a second thread copying every frame once more
     * took CPU from the workers (about 7 % of the processing on the benchmark capture) */
    bool ahead = osprey_config_bool(pl->cfg, "pcap-file.read-ahead") && pl->nworkers == 1;
    /* On a terminal, the progress is shown on stderr: at the start, about once a second, and
     * at the end (then cleared for the summary). */
    struct progress pr = {.on = isatty(STDERR_FILENO), .t0 = osprey_clock_mono_s()};
    for (int i = 0; pr.on && i < nfiles; i++)
        pr.total += file_size(files[i]);
    for (int i = 0; i < nfiles; i++) {
        char err[512];
        uint64_t size = pr.on ? file_size(files[i]) : 0;
        struct mon_source *src = mon_source_open_file(files[i], err, sizeof err);
        if (!src) {
            fprintf(stderr, "%sosprey: %s\n", pr.on ? "\r\033[K" : "", err);
            rc = -1;
            pr.done += size;
            continue;
        }
        if (ahead)
            (void)mon_source_read_ahead(src); /* (a FIFO, or no thread: read here, as before) */
        bool may_wait = !regular_file(files[i]);
        int n = 0;
        bool stop = false;
        while (!stop && (n = mon_source_read(src, batch, MON_IO_BATCH)) > 0) {
            for (int k = 0; k < n; k++)
                batch[k].num = ++num; /* pcap_cnt runs on across the files of a directory */
            if (on_batch(arg, batch, n) < 0)
                rc = -1;
            /* SIGTERM/SIGINT: the batch read is processed, then the run ends as at EOF (the
             * flag stays raised: a continuous -r or --unix-socket loop ends on it too);
             * SIGHUP reopens the log files (daemon.c) */
            stop = osprey_daemon_poll(pl->emit);
            if (stop && pl->jobs) /* --unix-socket: its loop ends on it too */
                osprey_signal_raise(OSPREY_SIG_STOP);
            else if (pl->jobs && osprey_pcap_jobs_interrupted(pl->jobs))
                stop = true; /* pcap-interrupt: this job ends as at EOF */
            if (osprey_emit_stats_due(pl->emit)) /* periodic EVE stats (stats.interval) */
                osprey_pipeline_stats(pl);
            if (pr.on && (num == (uint64_t)n || osprey_clock_mono_s() - pr.last >= 1.0))
                progress_show(&pr, src, size, num, i + 1, nfiles);
            /* the records this batch wrote (batched by the outputs) are out before the next
             * read when it may wait (-r on a FIFO that pauses); a regular file's reads do not,
             * so the outputs write out only the batches that are due (their flush age), never
             * waiting on a file's lock: taking every log's lock after each read batch of 32
             * frames, the packet thread slept behind the flow writer thread 2,429 times a run
             * of the benchmark capture */
            if (may_wait)
                osprey_log_sync_all();
            else
                osprey_log_sync_due();
        }
        osprey_log_sync_all();
        if (n < 0) {
            fprintf(stderr, "%sosprey: %s: read error: %s\n", pr.on ? "\r\033[K" : "",
                    files[i], src->err);
            rc = -1;
        }
        *bytes += src->bytes;
        mon_source_close(src);
        pr.done += size;
        /* a file read to its end (not cut short by a signal or a read error) is done */
        if (del && !stop && n == 0 && unlink(files[i]) != 0)
            fprintf(stderr, "osprey: cannot delete %s: %s\n", files[i], strerror(errno));
        if (stop)
            break;
    }
    if (pr.on) { /* the last state, then the line cleared before the summary */
        progress_show(&pr, NULL, 0, num, nfiles, nfiles);
        fprintf(stderr, "\r\033[K");
    }
    *pkts = num;
    free(batch);
    return rc;
}
