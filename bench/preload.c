/* preload.c — see preload.h. */
#include "preload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon_io.h"

int bench_preload(struct bench_capture *c, char *const *files, int nfiles, const char *prog)
{
    size_t cap = 0;
    memset(c, 0, sizeof *c);
    struct mon_packet batch[MON_IO_BATCH];
    for (int i = 0; i < nfiles; i++) {
        char err[512];
        struct mon_source *src = mon_source_open_file(files[i], err, sizeof err);
        if (!src) {
            fprintf(stderr, "%s: %s\n", prog, err);
            return -1;
        }
        int got;
        while ((got = mon_source_read(src, batch, MON_IO_BATCH)) > 0) {
            for (int j = 0; j < got; j++) {
                if (c->n == cap) {
                    cap = cap ? cap * 2 : 65536;
                    struct bench_frame *nf = realloc(c->f, cap * sizeof *nf);
                    if (!nf)
                        goto oom;
                    c->f = nf;
                }
                struct bench_frame *f = &c->f[c->n];
                f->p = batch[j];
                f->data = malloc(batch[j].caplen ? batch[j].caplen : 1);
                if (!f->data)
                    goto oom;
                memcpy(f->data, batch[j].frame, batch[j].caplen);
                f->p.frame = f->data;
                c->bytes += batch[j].caplen;
                c->n++;
            }
        }
        if (got < 0)
            fprintf(stderr, "%s: %s: %s (using the frames before it)\n", prog, files[i], src->err);
        mon_source_close(src);
        continue;
    oom:
        mon_source_close(src);
        fprintf(stderr, "%s: out of memory loading %s\n", prog, files[i]);
        return -1;
    }
    return 0;
}

void bench_capture_free(struct bench_capture *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->f[i].data);
    free(c->f);
    memset(c, 0, sizeof *c);
}

int bench_rounds_and_capture(int argc, char **argv, const char *prog, int *rounds,
                             struct bench_capture *c)
{
    int opt;
    *rounds = 3;
    while ((opt = getopt(argc, argv, "n:")) != -1) {
        if (opt != 'n')
            return 2;
        *rounds = atoi(optarg);
    }
    if (optind >= argc || *rounds < 1) {
        fprintf(stderr, "usage: %s [-n ROUNDS] FILE.pcap...\n", prog);
        return 2;
    }
    return bench_preload(c, argv + optind, argc - optind, prog) != 0 ? 1 : 0;
}
