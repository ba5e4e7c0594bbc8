/* pipeline.c — the set-up every run mode shares (see pipeline.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alert_defer.h"
#include "ips_policy.h"
#include "osprey_log_file.h"
#include "osprey_clock.h"
#include "parsers_config.h"
#include "pipeline.h"
#include "signals.h"
#include "stack_config.h"

int osprey_pipeline_engine(const struct osprey_config *cfg, const char *checksums, bool ips,
                           struct mon_engine **eng, struct mon_decode_cfg *dcfg)
{
    struct osprey_stack_cfg sc;
    if (osprey_stack_cfg_load(cfg, &sc, stderr) != 0)
        return -1;
    osprey_stack_cfg_delivery(&sc, cfg, ips);
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
                          struct osprey_detect **det, struct osprey_parsers **parsers)
{
    /* the parsers' events first: application-layer rules (http.uri, alert dns …) hang below */
    struct osprey_parsers_cfg pcfg;
    if (osprey_parsers_cfg_load(cfg, &pcfg, stderr) != 0)
        return -1;
    if (osprey_parsers_define(eng, &pcfg, parsers) != 0) {
        fprintf(stderr, "osprey: cannot define the application-layer parsers (out of memory)\n");
        return -1;
    }
    int lr = osprey_detect_load_rules(cfg, opts->rule_files, opts->nrule_files, stderr, rs);
    if (lr != 0) {
        if (lr > 0)
            fprintf(stderr, "osprey: the rules could not be loaded (see above)\n");
        return -1;
    }
    struct osprey_detect_opts dopts;
    osprey_pipeline_detect_opts(cfg, *parsers, &dopts);
    dopts.explain_sid = opts->explain_sid; /* --explain: its report first, then (-r) its trace */
    dopts.explain_out = stdout;
    dopts.labels = opts->dump_chains; /* -T --dump-chains prints them */
    if (osprey_detect_build_opts(det, eng, *rs, stderr, &dopts) != 0)
        return -1;
    if (opts->explain_sid && osprey_detect_explain(*det, stdout) != 0)
        return -1; /* no rule has that sid: nothing to explain */
    osprey_pipeline_want_buffers(*rs, *parsers);
    return osprey_pipeline_files(cfg, *parsers, *det);
}

void osprey_pipeline_want_buffers(const struct osprey_ruleset *rs, struct osprey_parsers *parsers)
{
    /* every buffer an accepted rule names, both directions' rows (SSH's HASSH is computed
     * only when a rule reads it or the configuration asks, as in Suricata); each rules buffer
     * is looked up once, not once per option naming it */
    uint64_t seen[65536 / 64] = {0};
    for (size_t i = 0, n = rs ? osprey_ruleset_count(rs) : 0; i < n; i++) {
        const struct osprey_rule *r = osprey_ruleset_rule(rs, i);
        if (r->status != OSPREY_RULE_ACCEPTED)
            continue;
        for (uint32_t k = 0; k < r->nopts; k++) {
            uint16_t rb = r->opts[k].buffer;
            if (seen[rb / 64] & (1ull << (rb % 64)))
                continue;
            seen[rb / 64] |= 1ull << (rb % 64);
            const char *name = osprey_rules_buffer_name(rb);
            for (int dir = 0; name && dir < 2; dir++) {
                int b = osprey_buffer_find(name, dir);
                if (b >= 0)
                    osprey_parsers_want_buffer(parsers, (uint16_t)b);
            }
        }
    }
}

int osprey_pipeline_files(const struct osprey_config *cfg, struct osprey_parsers *parsers,
                           const struct osprey_detect *det)
{
    /* what the rules test (filemd5 …) and what the outputs write (fileinfo, file-store) */
    unsigned fl = osprey_detect_file_flags(det) | osprey_emit_file_flags(cfg);
    if (!osprey_config_bool(cfg, "outputs.file-store.enabled"))
        fl &= ~OSPREY_FILES_STORE; /* nothing would write the bytes: keep none */
    osprey_parsers_set_files(parsers, fl);
    return 0;
}

void osprey_pipeline_detect_opts(const struct osprey_config *cfg,
                                 const struct osprey_parsers *parsers,
                                 struct osprey_detect_opts *o)
{
    *o = (struct osprey_detect_opts){
        .stream_mpm = osprey_detect_stream_mpm_parse(osprey_config_str(cfg, "detect.stream-mpm")),
        .mpm_cache_dir = osprey_config_bool(cfg, "detect.sgh-mpm-caching")
                             ? osprey_config_str(cfg, "detect.sgh-mpm-caching-path")
                             : NULL,
        .mpm_cache_max_age = osprey_config_seconds(cfg, "detect.sgh-mpm-caching-max-age"),
        .profile_rules = osprey_config_bool(cfg, "profiling.rules.enabled"),
        .pcre_match_limit = (uint32_t)osprey_config_int(cfg, "pcre.match-limit"),
        .pcre_depth_limit = (uint32_t)osprey_config_int(cfg, "pcre.match-limit-recursion"),
        .parsers = parsers,
        .geoip_database = osprey_config_str(cfg, "geoip-database"),
        .datasets_disabled = !osprey_config_bool(cfg, "datasets.enabled"),
        .dataset_memcap = osprey_config_size(cfg, "datasets.defaults.memcap"),
        .dataset_hashsize = (uint32_t)osprey_config_int(cfg, "datasets.defaults.hashsize"),
        .config = cfg};
}

static void emit_alert(const struct osprey_alert *a, const char *app, void *arg)
{
    struct osprey_worker *w = arg;
    if (!(a->pkt->flags & MON_PKT_PSEUDO)) /* not a flow's end: the packet being processed */
        w->pkt_alerts++;
    osprey_emit_alert_app(w->emit, w->ctx, a, w->inline_mode, app);
}

/* A kept alert's transaction object, taken while the parser still holds its transaction */
static char *snap_alert(const struct osprey_alert *a, void *arg)
{
    struct osprey_worker *w = arg;
    return a->flow ? osprey_emit_app_snap(w->emit, w->ctx, a->flow, a->to_server) : NULL;
}

static void on_alert(const struct osprey_alert *a, void *arg)
{
    struct osprey_worker *w = arg;
    if (w->defer && osprey_defer_take(w->defer, a))
        return; /* the other direction's data: with that direction's next packet */
    emit_alert(a, NULL, arg);
}

/* A parsed http/dns/tls transaction: its EVE record (emit_app.c). */
static void on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    struct osprey_worker *w = arg;
    osprey_emit_files(w->emit, ctx, f); /* its files first, as Suricata logs them at close */
    osprey_emit_tx(w->emit, ctx, f, (int)p);
}

void osprey_worker_tx_hook(struct osprey_worker *w, struct osprey_parsers_worker *pw)
{
    osprey_parsers_set_tx_cb(pw, on_tx, w);
}

/* A TCP connection closed: detection lets its stream windows go (the flow lives on). */
static void on_conn_closed(struct mon_flow *f, void *arg)
{
    struct osprey_worker *w = arg;
    osprey_detect_conn_closed(w->dw, f);
    osprey_parsers_conn_closed(w->ctx, f);
}

static void on_flow_end(struct mon_flow *f, void *arg)
{
    struct osprey_worker *w = arg;
    osprey_defer_flow_end(w->defer, f, mon_getlastpkt(w->ctx)); /* with its end packet */
    osprey_detect_flow_end(w->dw, f);
    osprey_emit_flow(w->emit, w->ctx, f);
}

int osprey_pipeline_open(struct osprey_pipeline *pl, const struct osprey_options *opts,
                         const struct osprey_config *cfg, int nworkers,
                         const struct osprey_pipeline_services *svc)
{
    *pl = (struct osprey_pipeline){.opts = opts, .cfg = cfg, .nworkers = nworkers};
    osprey_signals_install(); /* before SIGUSR2's default action could kill a long compile */
    pl->t_start = osprey_clock_mono_s();
    osprey_detect_policy_load(cfg, osprey_ips_mode(opts, cfg), &pl->dpol, stderr);
    if (!(pl->w = calloc((size_t)nworkers, sizeof *pl->w))) {
        fprintf(stderr, "osprey: out of memory\n");
        return -1;
    }
    bool ips = osprey_ips_mode(opts, cfg);
    bool ack = osprey_stack_cfg_ack_delivery(cfg, ips);
    pl->dpol.ack_delivery = ack; /* the rules' packet payload inspection follows delivery */
    if (osprey_pipeline_engine(cfg, opts->checksums, ips, &pl->eng, &pl->dcfg) < 0 ||
        osprey_pipeline_rules(opts, cfg, pl->eng, &pl->rs, &pl->det, &pl->parsers) < 0)
        return -1;
    pl->t_compiled = osprey_clock_mono_s();
    const char *dir = opts->log_dir ? opts->log_dir : osprey_config_str(cfg, "default-log-dir");
    pl->log_dir = dir;
    if (!(pl->emit = osprey_emit_open(cfg, dir, nworkers, stderr)))
        return -1;
    osprey_emit_set_clock(pl->emit, osprey_clock_mono_s);
    if (osprey_emit_bind(pl->emit, pl->eng, stderr) < 0)
        return -1;
    if (mon_engine_freeze(pl->eng) != MON_OK)
        goto nomem;
    for (int i = 0; i < nworkers; i++) {
        struct osprey_worker *w = &pl->w[i];
        w->id = i;
        w->emit = pl->emit;
        w->pl = pl;
        if (!(w->ctx = mon_ctx_create(pl->eng, i)))
            goto nomem;
        if (!(w->pw = osprey_parsers_attach(pl->parsers, w->ctx)))
            goto nomem; /* before detection: its rules wait on the parsers' events */
        osprey_worker_tx_hook(w, w->pw);
        if (!(w->dw = osprey_worker_attach(w, pl->det))) {
            fprintf(stderr, "osprey: cannot attach the rules to the worker (out of memory)\n");
            return -1;
        }
        mon_set_flow_end_cb(w->ctx, on_flow_end, w);
        mon_set_conn_closed_cb(w->ctx, on_conn_closed, w);
        /* the rules' forests, built at startup rather than by the first flows' packets */
        if (mon_ctx_prepare(w->ctx) != MON_OK)
            goto nomem;
        if (ack && !(w->defer = osprey_defer_new(emit_alert, snap_alert, w)))
            goto nomem;
    }
    pl->t_started = osprey_clock_wall_s();
    /* services of a running pipeline: reloads (SIGUSR2, control socket), the control socket;
     * set only now, so quiesce() before this point has nothing to stop */
    pl->svc = svc;
    if (svc && svc->start(pl) < 0)
        return -1;
    return 0;
nomem:
    fprintf(stderr, "osprey: cannot set up the stack (out of memory, or flow.memcap too "
                    "small?)\n");
    return -1;
}

enum mon_decode_outcome osprey_worker_packet(struct osprey_worker *w, struct mon_packet *p)
{
    /* reloaded rules are picked up between two packets (service/reload.c) */
    if (atomic_load_explicit(&w->pl->rules_gen, memory_order_relaxed) != w->rules_gen) {
        osprey_defer_flush(w->defer, p); /* they point into the rules about to go */
        w->pl->svc->worker_switch(w);
    }
    w->pkt_alerts = 0;
    enum mon_decode_outcome oc = mon_process(w->ctx, p);
    osprey_detect_packet_end(w->dw); /* alerts a pass rule could still cancel: given now */
    osprey_defer_packet(w->defer, p); /* then those found earlier for this direction */
    bool tagged = w->dw && oc != MON_DEC_FRAG_HELD && osprey_detect_packet_tagged(w->dw);
    osprey_emit_packet(w->emit, &w->ew, w->ctx, p, tagged, w->pkt_alerts != 0);
    return oc;
}

void osprey_worker_idle(struct osprey_worker *w)
{
    if (atomic_load_explicit(&w->pl->rules_gen, memory_order_relaxed) != w->rules_gen)
        w->pl->svc->worker_switch(w);
    osprey_log_sync_all(); /* what the outputs batched is not held up by a quiet link */
}

struct osprey_detect_worker *osprey_worker_attach(struct osprey_worker *w,
                                                  const struct osprey_detect *det)
{
    struct osprey_detect_worker *dw = osprey_detect_attach(det, w->ctx, on_alert, w);
    if (dw)
        osprey_detect_worker_set_policy(dw, &w->pl->dpol);
    return dw;
}

uint64_t osprey_worker_alerts(const struct osprey_worker *w)
{
    return w->alerts_before + (w->dw ? osprey_detect_worker_alerts(w->dw) : 0);
}

_Static_assert(sizeof(struct osprey_parsers_stats) % sizeof(uint64_t) == 0,
               "osprey_parsers_stats is summed as an array of uint64_t counters");

void osprey_parsers_stats_add(struct osprey_parsers_stats *out,
                              const struct osprey_parsers_stats *add)
{
    uint64_t *o = (uint64_t *)out;
    const uint64_t *a = (const uint64_t *)add;
    for (size_t i = 0; i < sizeof *out / sizeof(uint64_t); i++)
        o[i] += a[i];
}

void osprey_worker_app_stats(const struct osprey_worker *w, struct osprey_parsers_stats *out)
{
    *out = w->app_before;
    if (w->pw)
        osprey_parsers_stats_add(out, osprey_parsers_worker_stats(w->pw));
}

void osprey_worker_flush(struct osprey_worker *w)
{
    mon_flush(w->ctx);
    osprey_detect_packet_end(w->dw);
}

void osprey_pipeline_quiesce(struct osprey_pipeline *pl)
{
    if (pl->svc)
        pl->svc->stop(pl); /* after it, every worker runs pl->eng/det */
}

/* profiling.rules: the top rules by time to stdout and, as JSON, to profiling.rules.filename
 * in the log directory. */
static void rule_profile(struct osprey_pipeline *pl)
{
    if (!pl->det || !pl->w || !pl->cfg || !osprey_config_bool(pl->cfg, "profiling.rules.enabled"))
        return;
    struct osprey_detect_worker **dw = calloc((size_t)pl->nworkers, sizeof *dw);
    if (!dw)
        return;
    for (int i = 0; i < pl->nworkers; i++)
        dw[i] = pl->w[i].dw;
    int limit = (int)osprey_config_int(pl->cfg, "profiling.rules.limit");
    char path[4096];
    const char *name = osprey_config_str(pl->cfg, "profiling.rules.filename");
    FILE *json = NULL;
    if (name && *name) {
        if (name[0] == '/')
            snprintf(path, sizeof path, "%s", name);
        else
            snprintf(path, sizeof path, "%s/%s", pl->log_dir ? pl->log_dir : ".", name);
        if (!(json = fopen(path, "w")))
            fprintf(stderr, "osprey: profiling.rules: cannot write %s: %s\n", path,
                    strerror(errno));
    }
    osprey_detect_profile_write(pl->det, dw, pl->nworkers, limit, json, stdout);
    if (json)
        fclose(json);
    free(dw);
}

int osprey_pipeline_close(struct osprey_pipeline *pl)
{
    osprey_pipeline_quiesce(pl);
    osprey_pipeline_stats(pl); /* the last stats record, while the workers still exist */
    for (int i = 0; pl->w && i < pl->nworkers; i++)
        mon_ctx_destroy(pl->w[i].ctx); /* ends every flow: detection state goes via on_flow_end */
    rule_profile(pl); /* every flow ended: the workers' counts are complete */
    for (int i = 0; pl->w && i < pl->nworkers; i++) {
        osprey_defer_free(pl->w[i].defer); /* empty: every flow ended */
        osprey_detect_worker_free(pl->w[i].dw);
        osprey_parsers_worker_free(pl->w[i].pw);
    }
    int rc = osprey_emit_close(pl->emit, stderr);
    free(pl->w);
    osprey_detect_free(pl->det);
    osprey_parsers_free(pl->parsers);
    osprey_ruleset_free(pl->rs);
    mon_engine_destroy(pl->eng);
    *pl = (struct osprey_pipeline){0};
    return rc;
}
