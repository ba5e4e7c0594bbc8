/* capture_watch.c — the new files of a watched directory (capture_watch.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture_watch.h"
#include "log.h"

static bool seen(const struct osprey_capture_watch *w, const char *name)
{
    for (int i = 0; i < w->ndone; i++)
        if (!strcmp(w->done[i], name))
            return true;
    return false;
}

int osprey_capture_read_new(struct osprey_pipeline *pl, const char *path, bool quiet,
                            bool delete_each, osprey_capture_batch_fn on_batch, void *arg,
                            struct osprey_capture_watch *w, uint64_t *pkts, uint64_t *bytes)
{
    char **files;
    int n;
    if (osprey_capture_list(path, &files, &n, quiet ? NULL : stderr) < 0)
        return quiet ? 0 : -1;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        if (seen(w, files[i]))
            continue;
        /* one file at a time: pcap-interrupt ends the file being read, not the look */
        uint64_t p = 0, b = 0;
        if (osprey_capture_files(pl, &files[i], 1, on_batch, arg, &p, &b) < 0)
            rc = -1;
        *pkts += p;
        *bytes += b;
        if (delete_each && unlink(files[i]) != 0)
            osprey_log(OSPREY_LOG_WARNING, "pcap-file: cannot delete %s", files[i]);
        if (osprey_capture_watch_add(w, files[i]) == 0)
            files[i] = NULL;
    }
    osprey_capture_list_free(files, n);
    return rc;
}

int osprey_capture_watch_add(struct osprey_capture_watch *w, char *path)
{
    char **grown = realloc(w->done, (size_t)(w->ndone + 1) * sizeof *w->done);
    if (!grown)
        return -1;
    w->done = grown;
    w->done[w->ndone++] = path;
    return 0;
}

void osprey_capture_watch_free(struct osprey_capture_watch *w)
{
    osprey_capture_list_free(w->done, w->ndone);
    w->done = NULL;
    w->ndone = 0;
}
