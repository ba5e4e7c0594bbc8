/* capture_list.c — which captures `-r PATH` (and a --unix-socket pcap-file job) reads, in what
 * order (capture_files.h): a file as given; a directory walked recursively, its files ordered
 * by the capture time of their first packet, so rotated captures (any naming) replay in the
 * order they were taken. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture_files.h"
#include "mon_io.h"

/* Deeper than any capture archive; it bounds a symlink loop. */
#define CAPTURE_MAX_DEPTH 32

struct entry {
    char *path;
    uint64_t first_us; /* the first packet's capture time; UINT64_MAX: none read */
};

struct entries {
    struct entry *v;
    int n, cap;
};

/* The first packet's time: what orders the files. A file that is not a capture (or has no
 * packet) sorts after the captures, by name; reading it reports the error as before. */
static uint64_t first_packet_us(const char *path)
{
    char err[256];
    struct mon_source *src = mon_source_open_file(path, err, sizeof err);
    if (!src)
        return UINT64_MAX;
    struct mon_packet p;
    uint64_t ts = mon_source_read(src, &p, 1) == 1 ? p.ts_us : UINT64_MAX;
    mon_source_close(src);
    return ts;
}

static int add(struct entries *e, const char *path)
{
    if (e->n == e->cap) {
        int cap = e->cap ? 2 * e->cap : 16;
        struct entry *v = realloc(e->v, (size_t)cap * sizeof *v);
        if (!v)
            return -1;
        e->v = v;
        e->cap = cap;
    }
    if (!(e->v[e->n].path = strdup(path)))
        return -1;
    e->v[e->n++].first_us = first_packet_us(path);
    return 0;
}

static int is_visible(const struct dirent *d)
{
    return d->d_name[0] != '.'; /* hidden files and directories (and . ..) are left out */
}

static int walk(struct entries *e, const char *dir, int depth, FILE *diag)
{
    struct dirent **ents;
    int k = scandir(dir, &ents, is_visible, alphasort);
    if (k < 0) {
        if (diag)
            fprintf(diag, "osprey: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < k; i++) {
        char full[4096];
        struct stat st;
        if ((size_t)snprintf(full, sizeof full, "%s/%s", dir, ents[i]->d_name) < sizeof full &&
            stat(full, &st) == 0 && rc == 0) {
            if (S_ISREG(st.st_mode))
                rc = add(e, full);
            else if (S_ISDIR(st.st_mode) && depth < CAPTURE_MAX_DEPTH)
                walk(e, full, depth + 1, diag); /* an unreadable subdirectory is skipped */
        }
        free(ents[i]);
    }
    free(ents);
    return rc;
}

static int by_capture_time(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    if (x->first_us != y->first_us)
        return x->first_us < y->first_us ? -1 : 1;
    return strcmp(x->path, y->path); /* same start: the name decides, so the order is stable */
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
    struct entries e = {0};
    int rc = walk(&e, path, 0, diag);
    if (rc == 0 && e.n == 0) {
        if (diag)
            fprintf(diag, "osprey: %s: no capture files in the directory\n", path);
        rc = -1;
    }
    if (rc == 0)
        *out = malloc((size_t)e.n * sizeof **out);
    if (!*out)
        rc = -1;
    if (e.n > 0) /* an empty directory has no array at all */
        qsort(e.v, (size_t)e.n, sizeof *e.v, by_capture_time);
    for (int i = 0; i < e.n; i++) {
        if (rc == 0)
            (*out)[(*n)++] = e.v[i].path;
        else
            free(e.v[i].path);
    }
    free(e.v);
    return rc;
}

void osprey_capture_list_free(char **files, int n)
{
    for (int i = 0; files && i < n; i++)
        free(files[i]);
    free(files);
}
