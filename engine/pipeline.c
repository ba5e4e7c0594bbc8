/* pipeline.c — the set-up every run mode shares (see pipeline.h). */
#include <stdlib.h>
#include <time.h>

#include "pipeline.h"
#include "stack_config.h"

double osprey_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int osprey_pipeline_engine(const struct osprey_config *cfg, const char *checksums,
                           struct mon_engine **eng, struct mon_decode_cfg *dcfg)
{
    struct osprey_stack_cfg sc;
    if (osprey_stack_cfg_load(cfg, &sc, stderr) != 0)
        return -1;
    struct mon_engine_cfg ecfg;
    osprey_stack_cfg_engine(&sc, checksums, &ecfg);
    if (dcfg)
        *dcfg = ecfg.decode;
    *eng = mon_engine_create(&ecfg);
    osprey_stack_cfg_release(&sc); /* the engine copied the policy tables */
    if (!*eng)
        fprintf(stderr, "osprey: cannot create the stack (out of memory)\n");
    return *eng ? 0 : -1;
}

int osprey_pipeline_rules(const struct osprey_options *opts, const struct osprey_config *cfg,
                          struct mon_engine *eng, struct osprey_ruleset **rs,
                          struct osprey_detect **det)
{
    int lr = osprey_detect_load_rules(cfg, opts->rule_files, opts->nrule_files, stderr, rs);
    if (lr != 0) {
        if (lr > 0)
            fprintf(stderr, "osprey: the rules could not be loaded (see above)\n");
        return -1;
    }
    struct osprey_detect_opts dopts = {
        osprey_detect_stream_mpm_parse(osprey_config_str(cfg, "detect.stream-mpm"))};
    return osprey_detect_build_opts(det, eng, *rs, stderr, &dopts) != 0 ? -1 : 0;
}

static void on_alert(const struct osprey_alert *a, void *arg)
{
    struct osprey_worker *w = arg;
    osprey_emit_alert(w->emit, a);
}

static void on_flow_end(struct mon_flow *f, void *arg)
{
    struct osprey_worker *w = arg;
    osprey_detect_flow_end(w->dw, f);
}

int osprey_pipeline_open(struct osprey_pipeline *pl, const struct osprey_options *opts,
                         const struct osprey_config *cfg, int nworkers)
{
    *pl = (struct osprey_pipeline){.opts = opts, .cfg = cfg, .nworkers = nworkers};
    pl->t_start = osprey_now_s();
    if (!(pl->w = calloc((size_t)nworkers, sizeof *pl->w))) {
        fprintf(stderr, "osprey: out of memory\n");
        return -1;
    }
    if (osprey_pipeline_engine(cfg, opts->checksums, &pl->eng, &pl->dcfg) < 0 ||
        osprey_pipeline_rules(opts, cfg, pl->eng, &pl->rs, &pl->det) < 0)
        return -1;
    pl->t_compiled = osprey_now_s();
    const char *dir = opts->log_dir ? opts->log_dir : osprey_config_str(cfg, "default-log-dir");
    if (!(pl->emit = osprey_emit_open(cfg, dir, nworkers > 1, stderr)))
        return -1;
    if (mon_engine_freeze(pl->eng) != MON_OK)
        goto nomem;
    for (int i = 0; i < nworkers; i++) {
        struct osprey_worker *w = &pl->w[i];
        w->id = i;
        w->emit = pl->emit;
        if (!(w->ctx = mon_ctx_create(pl->eng, i)))
            goto nomem;
        if (!(w->dw = osprey_detect_attach(pl->det, w->ctx, on_alert, w))) {
            fprintf(stderr, "osprey: cannot attach the rules to the worker (out of memory)\n");
            return -1;
        }
        mon_set_flow_end_cb(w->ctx, on_flow_end, w);
    }
    return 0;
nomem:
    fprintf(stderr, "osprey: cannot set up the stack (out of memory, or flow.memcap too "
                    "small?)\n");
    return -1;
}

void osprey_worker_packet(struct osprey_worker *w, struct mon_packet *p)
{
    mon_process(w->ctx, p);
}

void osprey_worker_flush(struct osprey_worker *w)
{
    mon_flush(w->ctx);
}

int osprey_pipeline_close(struct osprey_pipeline *pl)
{
    for (int i = 0; pl->w && i < pl->nworkers; i++) {
        mon_ctx_destroy(pl->w[i].ctx); /* ends every flow: detection state goes via on_flow_end */
        osprey_detect_worker_free(pl->w[i].dw);
    }
    int rc = osprey_emit_close(pl->emit, stderr);
    free(pl->w);
    osprey_detect_free(pl->det);
    osprey_ruleset_free(pl->rs);
    mon_engine_destroy(pl->eng);
    *pl = (struct osprey_pipeline){0};
    return rc;
}
