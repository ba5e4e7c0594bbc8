/* example_run.h — the capture loop every example shares: read a pcap, feed libmon, flush. */
#ifndef MON_EXAMPLE_RUN_H
#define MON_EXAMPLE_RUN_H

#include <stdio.h>

#include "mon.h"
#include "mon_io.h"

/* Returns 0, or 1 after printing why the capture could not be read. */
static inline int example_run_capture(struct mon_ctx *ctx, const char *path)
{
    char err[512];
    struct mon_source *src = mon_source_open_file(path, err, sizeof err);
    if (!src) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    struct mon_packet batch[MON_IO_BATCH];
    int n;
    while ((n = mon_source_read(src, batch, MON_IO_BATCH)) > 0)
        for (int i = 0; i < n; i++)
            mon_process(ctx, &batch[i]);
    if (n < 0)
        fprintf(stderr, "%s: %s\n", path, src->err);
    mon_flush(ctx);
    mon_source_close(src);
    return n < 0;
}

/* An engine with default settings, frozen after define() ran, and one worker context. */
static inline struct mon_ctx *example_setup(struct mon_engine **eng,
                                            int (*define)(struct mon_engine *, void *), void *arg)
{
    struct mon_engine_cfg cfg;
    mon_engine_cfg_defaults(&cfg);
    *eng = mon_engine_create(&cfg);
    if (!*eng || (define && define(*eng, arg) < 0) || mon_engine_freeze(*eng) != MON_OK)
        return NULL;
    return mon_ctx_create(*eng, 0);
}

#endif
