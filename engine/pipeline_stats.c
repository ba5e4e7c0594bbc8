/* pipeline_stats.c — a stats record from every worker of a pipeline (see pipeline.h). */
#include <stdlib.h>

#include "pipeline.h"

void osprey_pipeline_stats(struct osprey_pipeline *pl)
{
    if (!pl->emit || !pl->w || pl->nworkers <= 0)
        return;
    struct osprey_stats_src *src = calloc((size_t)pl->nworkers, sizeof *src);
    /* copies: a reload frees a worker's parsers (and their counters) once the lock is gone */
    struct osprey_parsers_stats *app = calloc((size_t)pl->nworkers, sizeof *app);
    if (!src || !app) {
        free(src);
        free(app);
        return;
    }
    int n = 0;
    if (pl->svc) /* a worker's rules (w->dw) may be swapped by a reload */
        pl->svc->lock(pl);
    for (int i = 0; i < pl->nworkers; i++) {
        if (!pl->w[i].ctx || !pl->w[i].dw)
            continue; /* open() failed before this worker was set up */
        src[n].ctx = pl->w[i].ctx;
        src[n].alerts = osprey_worker_alerts(&pl->w[i]); /* across reloads */
        const struct osprey_detect_mem *dm = osprey_detect_worker_mem(pl->w[i].dw);
        src[n].detect_memuse = dm->window_bytes;
        src[n].detect_memuse_peak = dm->window_peak;
        const struct osprey_detect_prefilter *pf = osprey_detect_worker_prefilter(pl->w[i].dw);
        src[n].pf_scans = pf->scans;
        src[n].pf_bytes = pf->bytes;
        src[n].pf_raised = pf->raised;
        src[n].pf_unwanted = pf->unwanted;
        src[n].pf_header_checks = pf->header_checks;
        src[n].pf_header_passed = pf->header_passed;
        src[n].pcre_gave_up = n == 0 ? osprey_detect_pcre_limit_hits() : 0;
        src[n].lua = *osprey_detect_worker_lua(pl->w[i].dw);
        src[n].verdicts = *osprey_detect_worker_verdicts(pl->w[i].dw);
        src[n].has_capture = pl->w[i].cap.live; /* live/inline: the kernel's counters */
        src[n].kernel_packets = atomic_load(&pl->w[i].cap.kernel_packets);
        src[n].kernel_drops = atomic_load(&pl->w[i].cap.kernel_drops);
        if (pl->w[i].pw) {
            osprey_worker_app_stats(&pl->w[i], &app[n]); /* across reloads */
            src[n].app = &app[n];
        }
        n++;
    }
    if (pl->svc)
        pl->svc->unlock(pl);
    if (n == pl->nworkers)
        osprey_emit_stats(pl->emit, src, n);
    free(src);
    free(app);
}
