/* capture_files.c — the capture-file loop of the offline run modes (capture_files.h). */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture_files.h"
#include "daemon.h"
#include "mon_io.h"
#include "osprey_clock.h"
#include "pcap_jobs.h"
#include "signals.h"

static int is_capture_name(const struct dirent *d)
{
    return d->d_name[0] != '.';
}

int osprey_capture_list(const char *path, char ***out, int *n, FILE *diag)
{
    struct stat st;
    *out = NULL;
    *n = 0;
    if (stat(path, &st) != 0) {
        if (diag)
            fprintf(diag, "osprey: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        *out = malloc(sizeof **out);
        if (!*out || !((*out)[0] = strdup(path)))
            return -1;
        *n = 1;
        return 0;
    }
    struct dirent **ents;
    int k = scandir(path, &ents, is_capture_name, alphasort);
    if (k < 0) {
        if (diag)
            fprintf(diag, "osprey: %s: %s\n", path, strerror(errno));
        return -1;
    }
    *out = calloc((size_t)k + 1, sizeof **out);
    for (int i = 0; i < k; i++) {
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", path, ents[i]->d_name);
        if (*out && stat(full, &st) == 0 && S_ISREG(st.st_mode))
            (*out)[(*n)++] = strdup(full);
        free(ents[i]);
    }
    free(ents);
    if (*n == 0) {
        if (diag)
            fprintf(diag, "osprey: %s: no capture files in the directory\n", path);
        free(*out);
        *out = NULL;
        return -1;
    }
    return *out ? 0 : -1;
}

void osprey_capture_list_free(char **files, int n)
{
    for (int i = 0; files && i < n; i++)
        free(files[i]);
    free(files);
}

int osprey_capture_files(struct osprey_pipeline *pl, char **files, int nfiles,
                         osprey_capture_batch_fn on_batch, void *arg, uint64_t *pkts,
                         uint64_t *bytes)
{
    struct mon_packet *batch = calloc(MON_IO_BATCH, sizeof *batch);
    if (!batch)
        return -1;
    int rc = 0;
    uint64_t num = 0, seen_bytes = 0;
    /* On a terminal, a large capture shows its progress on stderr about once a second. */
    bool progress = isatty(STDERR_FILENO);
    double last = osprey_clock_mono_s();
    for (int i = 0; i < nfiles; i++) {
        char err[512];
        struct mon_source *src = mon_source_open_file(files[i], err, sizeof err);
        if (!src) {
            fprintf(stderr, "osprey: %s\n", err);
            rc = -1;
            continue;
        }
        int n = 0;
        bool stop = false;
        while (!stop && (n = mon_source_read(src, batch, MON_IO_BATCH)) > 0) {
            for (int k = 0; k < n; k++) {
                batch[k].num = ++num; /* pcap_cnt runs on across the files of a directory */
                seen_bytes += batch[k].caplen;
            }
            if (on_batch(arg, batch, n) < 0)
                rc = -1;
            /* SIGTERM/SIGINT: the batch read is processed, then the run ends as at EOF;
             * SIGHUP reopens the log files (daemon.c) */
            stop = osprey_daemon_poll(pl->emit);
            if (stop && pl->jobs) /* --unix-socket: its loop ends on it too */
                osprey_signal_raise(OSPREY_SIG_STOP);
            else if (pl->jobs && osprey_pcap_jobs_interrupted(pl->jobs))
                stop = true; /* pcap-interrupt: this job ends as at EOF */
            if (osprey_emit_stats_due(pl->emit)) /* periodic EVE stats (stats.interval) */
                osprey_pipeline_stats(pl);
            if (progress && (num & 0xfff) < (uint64_t)n && osprey_clock_mono_s() - last >= 1.0) {
                last = osprey_clock_mono_s();
                fprintf(stderr, "\rosprey: file %d/%d, %llu packets, %.1f MB read", i + 1, nfiles,
                        (unsigned long long)num, (double)seen_bytes / 1e6);
                fflush(stderr);
            }
        }
        if (n < 0) {
            fprintf(stderr, "osprey: %s: read error: %s\n", files[i], src->err);
            rc = -1;
        }
        *bytes += src->bytes;
        mon_source_close(src);
        if (stop)
            break;
    }
    if (progress)
        fprintf(stderr, "\r\033[K"); /* clear the progress line before the summary */
    *pkts = num;
    free(batch);
    return rc;
}
