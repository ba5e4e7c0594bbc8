/* reload.c — compile the rules again beside the running ones and move the workers over
 * (see reload.h).
 *
 * Who touches what. The reload thread alone builds generations and retires them; it changes
 * pl->eng/rs/det only when every worker has left them. A worker changes only its own context
 * and detection worker, under r->mu, at a packet boundary (mon_ctx_rebind refuses anything
 * else). The control socket reads worker state under r->mu too, so it never sees a detection
 * worker being freed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* open_memstream, malloc_trim */
#endif
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ips_policy.h"
#include "log.h"
#include "osprey_clock.h"
#include "parsers_config.h"
#include "reload.h"
#include "signals.h"

/* Where a worker stands during a switch. A stuck worker does not retry at every packet (each
 * attempt would throw its flows' detection state away again): it keeps the old rules until
 * the next reload request retries it, or the switch is abandoned. */
enum wstate {
    W_OLD,   /* on the running generation, not tried yet */
    W_NEXT,  /* moved to r->next */
    W_STUCK, /* the attach failed: back on the running generation */
    W_LIMBO, /* the attach failed and so did the way back: its context is on next's engine
                without rules, so next cannot be freed under it */
};

struct rl_gen {
    struct mon_engine *eng;
    struct osprey_parsers *parsers;
    struct osprey_ruleset *rs;
    struct osprey_detect *det;
};

struct osprey_reload {
    struct osprey_pipeline *pl;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop;
    unsigned req_seq, done_seq; /* control requests asked / answered */
    int last_rc;
    char last_msg[1024];
    struct rl_gen next;         /* published, while workers move to it */
    bool switching;
    int moved;                  /* workers on `next` */
    int stuck;                  /* workers that could not attach `next` (out of memory) */
    bool stuck_reported;        /* the switch ended with stuck workers: logged and counted */
    unsigned char *wstate;      /* per worker (by id): enum wstate */
    int inject_fails;           /* test hook: attaches of reloaded rules still to fail */
    unsigned gen;
    struct osprey_reload_stats st;
};

static uint64_t status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    uint64_t kb = 0;
    size_t klen = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, klen) == 0) {
            kb = strtoull(line + klen, NULL, 10);
            break;
        }
    fclose(f);
    return kb;
}

uint64_t osprey_rss_kb(void)
{
    return status_kb("VmRSS:");
}

uint64_t osprey_rss_peak_kb(void)
{
    return status_kb("VmHWM:");
}

static void gen_free(struct rl_gen *g)
{
    osprey_detect_free(g->det);
    osprey_parsers_free(g->parsers);
    osprey_ruleset_free(g->rs);
    mon_engine_destroy(g->eng);
    *g = (struct rl_gen){0};
}

/* Detection's per-flow state goes before the flow changes engine. */
static void drop_detect(struct mon_ctx *ctx, struct mon_flow *f, void *arg)
{
    (void)ctx;
    osprey_detect_flow_end(arg, f);
}

/* Parsers, then detection (its rules wait on the parsers' events) onto w's context, which is
 * bound to g's engine; the old workers are freed once the new ones exist. */
static bool attach(struct osprey_worker *w, const struct rl_gen *g)
{
    struct osprey_parsers_worker *pw = osprey_parsers_attach(g->parsers, w->ctx);
    struct osprey_detect_worker *dw = pw ? osprey_worker_attach(w, g->det) : NULL;
    if (!dw) {
        osprey_parsers_worker_free(pw);
        return false;
    }
    if (w->pw) /* the counters go on from where the old parsers left them */
        osprey_parsers_stats_add(&w->app_before, osprey_parsers_worker_stats(w->pw));
    osprey_parsers_worker_free(w->pw);
    w->pw = pw;
    osprey_worker_tx_hook(w, pw); /* http/dns/tls records go on after a reload */
    w->alerts_before += osprey_detect_worker_alerts(w->dw);
    osprey_detect_worker_free(w->dw);
    w->dw = dw;
    return true;
}

/* Move one worker to r->next (r->mu held; the worker is not inside mon_process). Its flows
 * stay; their detection state goes (drop_detect), their parser state through the old
 * engine's slot destructors, inside mon_ctx_rebind. */
static enum wstate move_worker(struct osprey_reload *r, struct osprey_worker *w)
{
    struct osprey_pipeline *pl = r->pl;
    /* a worker left in limbo is on next's engine already: only the rules are missing */
    if (r->wstate[w->id] != W_LIMBO &&
        mon_ctx_rebind(w->ctx, r->next.eng, drop_detect, w->dw) != MON_OK) {
        osprey_log(OSPREY_LOG_ERROR, "reload: worker %d keeps the old rules: %s", w->id,
                   mon_errmsg(w->ctx));
        return W_STUCK;
    }
    bool injected = r->inject_fails > 0; /* test hook: as if out of memory */
    if (injected)
        r->inject_fails--;
    if (!injected && attach(w, &r->next))
        return W_NEXT;
    /* no memory for the new rules: back onto the old engine and rules, still alive */
    struct rl_gen cur = {pl->eng, pl->parsers, pl->rs, pl->det};
    if (mon_ctx_rebind(w->ctx, cur.eng, NULL, NULL) == MON_OK && attach(w, &cur)) {
        osprey_log(OSPREY_LOG_ERROR, "reload: worker %d: no memory for the new rules; it keeps "
                   "the old ones until the next reload request", w->id);
        return W_STUCK;
    }
    osprey_log(OSPREY_LOG_ERROR, "reload: worker %d: out of memory, it runs without rules "
               "until the next reload request", w->id);
    return W_LIMBO;
}

/* No worker could take `next` and none is left on its engine: free it (r->mu held). */
static void abandon_switch(struct osprey_reload *r)
{
    gen_free(&r->next);
    r->switching = false;
    r->stuck = 0;
    memset(r->wstate, W_OLD, (size_t)r->pl->nworkers);
    r->st.failures++;
    osprey_log(OSPREY_LOG_ERROR, "reload failed: no worker could attach the new rules (out of "
               "memory); the running rules stay and the new ones are freed");
}

/* Every worker has tried `next`; some are stuck (r->mu held). Both generations stay alive:
 * the workers that moved run `next`, the stuck ones the running rules. */
static void report_stuck(struct osprey_reload *r)
{
    int limbo = 0;
    for (int i = 0; i < r->pl->nworkers; i++)
        limbo += r->wstate[i] == W_LIMBO;
    if (r->moved == 0 && limbo == 0) {
        abandon_switch(r);
        return;
    }
    r->stuck_reported = true;
    r->st.failures++;
    osprey_log(OSPREY_LOG_ERROR, "reload: %d of %d workers could not attach the new rules (out "
               "of memory) and keep the old ones; both rule sets stay in memory until the next "
               "reload request moves them", r->stuck, r->pl->nworkers);
}

/* Every worker runs `next`: retire the old generation (r->mu held). */
static void finish_switch(struct osprey_reload *r)
{
    struct osprey_pipeline *pl = r->pl;
    struct rl_gen old = {pl->eng, pl->parsers, pl->rs, pl->det};
    pl->eng = r->next.eng;
    pl->parsers = r->next.parsers;
    pl->rs = r->next.rs;
    pl->det = r->next.det;
    r->next = (struct rl_gen){0};
    r->switching = false;
    r->stuck = 0;
    r->stuck_reported = false;
    memset(r->wstate, W_OLD, (size_t)pl->nworkers);
    gen_free(&old);
    malloc_trim(0); /* hand the old rules' pages back, so the figure below means something */
    r->st.rss_after_kb = osprey_rss_kb();
    osprey_log(OSPREY_LOG_NOTICE, "reload: every worker runs the new rules (the slowest switch "
               "held its packets %.1f ms); old rules freed; "
               "memory %llu KiB (before the reload %llu KiB, with both rule sets %llu KiB, "
               "peak %llu KiB)", r->st.switch_ms_max, (unsigned long long)r->st.rss_after_kb,
               (unsigned long long)r->st.rss_before_kb, (unsigned long long)r->st.rss_during_kb,
               (unsigned long long)osprey_rss_peak_kb());
}

/* Log the loader's diagnostics (one per line), the first `errors` of them as errors. */
static void log_diag(const char *text, int errors)
{
    int n = 0;
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        if (len > 0)
            osprey_log(n++ < errors ? OSPREY_LOG_ERROR : OSPREY_LOG_INFO, "reload: %.*s", len, p);
        p = nl ? nl + 1 : NULL;
    }
}

/* The first line of text into out (for the control socket's answer). */
static void first_line(const char *text, char *out, size_t len)
{
    size_t n = strcspn(text ? text : "", "\n");
    snprintf(out, len, "%.*s", (int)n, text ? text : "");
}

/* The diagnostic that explains a refusal: the first configuration/file problem (config), or
 * the first malformed rule — not the rules rejected only for options Osprey lacks, which the
 * running ruleset had as well. "file:line: sid N: reason" into out; false when none. */
static bool find_diag(const struct osprey_ruleset *rs, bool config, char *out, size_t len)
{
    for (size_t i = 0; rs && i < osprey_ruleset_diag_count(rs); i++) {
        const struct osprey_rules_diag *d = osprey_ruleset_diag(rs, i);
        const char *key = d->key ? d->key : "";
        if (config ? d->kind != OSPREY_DIAG_CONFIG
                   : d->kind != OSPREY_DIAG_REJECTED || !strncmp(key, "unsupported", 11) ||
                         !strcmp(key, "duplicate sid") || strstr(key, "revision"))
            continue;
        if (config)
            snprintf(out, len, "%s%s%.0u: %s", d->file, d->line ? ":" : "", d->line, d->text);
        else
            snprintf(out, len, "%s:%u: sid %u: %s", d->file, d->line, d->sid, d->text);
        return true;
    }
    return false;
}

/* Build the next generation; publish it or say why not. Runs on the reload thread. */
static int do_reload(struct osprey_reload *r, char *msg, size_t len)
{
    struct osprey_pipeline *pl = r->pl;
    pthread_mutex_lock(&r->mu); /* workers count themselves in r->moved as they switch */
    bool busy = r->switching;
    int moved = r->moved, stuck = r->stuck;
    if (busy && stuck > 0 && moved + stuck == pl->nworkers) {
        /* the last switch ended with stuck workers: give them one more try (each at its next
         * packet) rather than a third rule set in memory */
        for (int i = 0; i < pl->nworkers; i++)
            if (r->wstate[i] != W_NEXT)
                r->wstate[i] = r->wstate[i] == W_LIMBO ? W_LIMBO : W_OLD;
        r->stuck = 0;
        r->stuck_reported = false;
        r->gen++;
        atomic_store_explicit(&pl->rules_gen, r->gen, memory_order_release);
        pthread_mutex_unlock(&r->mu);
        snprintf(msg, len, "the rules were not compiled again: %d of %d workers still run the "
                 "rules from before the last reload (out of memory); they try again to attach "
                 "its rules at their next packet (reload once more for later edits)", stuck,
                 pl->nworkers);
        osprey_log(OSPREY_LOG_ERROR, "reload: %s", msg);
        return -1;
    }
    pthread_mutex_unlock(&r->mu);
    if (busy) {
        snprintf(msg, len, "the previous reload is still waiting for %d of %d workers to "
                 "switch (a worker switches at its next packet)", pl->nworkers - moved - stuck,
                 pl->nworkers);
        osprey_log(OSPREY_LOG_ERROR, "reload refused: %s", msg);
        return -1;
    }
    uint64_t before = osprey_rss_kb();
    double t0 = osprey_clock_mono_s();
    osprey_log(OSPREY_LOG_NOTICE, "reload: loading the rules again (memory %llu KiB)",
               (unsigned long long)before);
    struct rl_gen g = {0};
    char *text = NULL;
    size_t tlen = 0;
    FILE *diag = open_memstream(&text, &tlen);
    int rc = -1;
    char why[512] = "";
    struct osprey_parsers_cfg pcfg;
    if (!diag) {
        snprintf(why, sizeof why, "out of memory");
    } else if (osprey_pipeline_engine(pl->cfg, pl->opts->checksums,
                                      osprey_ips_mode(pl->opts, pl->cfg), &g.eng, NULL) < 0) {
        snprintf(why, sizeof why, "cannot create the stack (out of memory)");
    } else if (osprey_parsers_cfg_load(pl->cfg, &pcfg, diag) != 0 ||
               osprey_parsers_define(g.eng, &pcfg, &g.parsers) != 0) {
        fflush(diag);
        first_line(text, why, sizeof why);
        if (!why[0])
            snprintf(why, sizeof why, "cannot define the application-layer parsers");
    } else {
        int lr = osprey_detect_load_rules(pl->cfg, pl->opts->rule_files, pl->opts->nrule_files,
                                          diag, &g.rs);
        fflush(diag);
        const struct osprey_rules_stats *now = g.rs ? osprey_ruleset_stats(g.rs) : NULL;
        const struct osprey_rules_stats *was = osprey_ruleset_stats(pl->rs);
        /* as osprey_pipeline_rules builds them at start (this reload's own parsers) */
        if (lr == 0)
            osprey_pipeline_want_buffers(g.rs, g.parsers);
        struct osprey_detect_opts dopts;
        osprey_pipeline_detect_opts(pl->cfg, g.parsers, &dopts);
        if (lr != 0 || !now) {
            if (!find_diag(g.rs, true, why, sizeof why))
                snprintf(why, sizeof why, "the rule files could not be read");
        } else if (now->syntax_errors > was->syntax_errors) {
            /* an edit broke rules that used to parse: keep what runs rather than lose them */
            char first[400] = "";
            find_diag(g.rs, false, first, sizeof first);
            snprintf(why, sizeof why, "%u malformed rule%s (the running rules have %u): %s",
                     now->syntax_errors, now->syntax_errors == 1 ? "" : "s", was->syntax_errors,
                     first);
        } else if (now->enabled > 0 && now->accepted == 0) {
            snprintf(why, sizeof why, "none of the %u rules could be loaded", now->enabled);
        } else if (osprey_detect_build_opts(&g.det, g.eng, g.rs, diag, &dopts) != 0) {
            fflush(diag);
            first_line(text, why, sizeof why);
        } else if (osprey_pipeline_files(pl->cfg, g.parsers, g.det) < 0 ||
                   osprey_emit_bind(pl->emit, g.eng, diag) < 0) {
            /* the same slots in the same order as at start: the emitter's index is unchanged */
            fflush(diag);
            first_line(text, why, sizeof why);
        } else if (mon_engine_freeze(g.eng) != MON_OK) {
            snprintf(why, sizeof why, "cannot freeze the stack (out of memory)");
        } else {
            rc = 0;
        }
    }
    if (diag)
        fclose(diag);
    double ms = (osprey_clock_mono_s() - t0) * 1e3;
    if (rc < 0) {
        log_diag(text, 20);
        snprintf(msg, len, "the rules were not reloaded, the running rules stay: %s", why);
        osprey_log(OSPREY_LOG_ERROR, "reload failed: %s", msg);
        gen_free(&g);
        free(text);
        pthread_mutex_lock(&r->mu);
        r->st.failures++;
        pthread_mutex_unlock(&r->mu);
        return -1;
    }
    log_diag(text, 0);
    free(text);
    const struct osprey_detect_stats *ds = osprey_detect_stats(g.det);
    uint64_t during = osprey_rss_kb();
    snprintf(msg, len, "rules reloaded: %u rules, %u compiled, %u not compiled (%.1f ms); "
             "workers switch at their next packet", ds->rules, ds->compiled, ds->not_compiled, ms);
    pthread_mutex_lock(&r->mu);
    r->next = g;
    r->switching = true;
    r->moved = 0;
    r->stuck = 0;
    r->stuck_reported = false;
    memset(r->wstate, W_OLD, (size_t)pl->nworkers);
    r->gen++;
    r->st = (struct osprey_reload_stats){r->st.reloads + 1, r->st.failures, r->gen, ms, before,
                                         during, 0, 0};
    atomic_store_explicit(&pl->rules_gen, r->gen, memory_order_release);
    pthread_mutex_unlock(&r->mu);
    osprey_log(OSPREY_LOG_NOTICE, "%s; memory %llu KiB before, %llu KiB with both rule sets",
               msg, (unsigned long long)before, (unsigned long long)during);
    return 0;
}

static void *reload_main(void *arg)
{
    struct osprey_reload *r = arg;
    pthread_mutex_lock(&r->mu);
    while (!r->stop) {
        if (r->switching && r->moved == r->pl->nworkers)
            finish_switch(r);
        else if (r->switching && r->stuck > 0 && !r->stuck_reported &&
                 r->moved + r->stuck == r->pl->nworkers)
            report_stuck(r);
        bool sig = osprey_signal_take(OSPREY_SIG_RELOAD);
        if (sig || r->req_seq != r->done_seq) {
            unsigned asked = r->req_seq;
            char msg[sizeof r->last_msg];
            pthread_mutex_unlock(&r->mu);
            int rc = do_reload(r, msg, sizeof msg);
            pthread_mutex_lock(&r->mu);
            r->done_seq = asked;
            r->last_rc = rc;
            memcpy(r->last_msg, msg, sizeof msg);
            pthread_cond_broadcast(&r->cv);
            continue;
        }
        /* signals are flags: look at them a few times a second (on the monotonic clock: a
         * wall clock set back would stop the looking until it caught up) */
        struct timespec ts = osprey_clock_mono_after(100 * 1000 * 1000);
        pthread_cond_timedwait(&r->cv, &r->mu, &ts);
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

int osprey_reload_start(struct osprey_pipeline *pl)
{
    struct osprey_reload *r = calloc(1, sizeof *r);
    if (!r) {
        osprey_log(OSPREY_LOG_ERROR, "out of memory");
        return -1;
    }
    r->pl = pl;
    if (!(r->wstate = calloc((size_t)pl->nworkers + 1, 1))) {
        osprey_log(OSPREY_LOG_ERROR, "out of memory");
        free(r);
        return -1;
    }
    /* test-only fault injection: the first N attaches of reloaded rules fail as if out of
     * memory (tests/service/test_reload_stuck.py); unset in any real run */
    const char *inj = getenv("OSPREY_TEST_RELOAD_ATTACH_FAILS");
    r->inject_fails = inj ? atoi(inj) : 0;
    pthread_mutex_init(&r->mu, NULL);
    osprey_cond_init_mono(&r->cv); /* the reload thread's timed waits (reload_main) */
    int err = pthread_create(&r->thread, NULL, reload_main, r);
    if (err) {
        osprey_log(OSPREY_LOG_ERROR, "cannot start the reload thread: %s", strerror(err));
        free(r->wstate);
        free(r);
        return -1;
    }
    pl->reload = r;
    return 0;
}

void osprey_reload_stop(struct osprey_pipeline *pl)
{
    struct osprey_reload *r = pl->reload;
    if (!r)
        return;
    pthread_mutex_lock(&r->mu);
    r->stop = true;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    pthread_join(r->thread, NULL);
    if (r->switching) {
        /* workers that saw no packet since the reload, or were stuck: they have stopped,
         * move them here (one last try) */
        r->stuck = 0;
        for (int i = 0; i < pl->nworkers; i++) {
            if (r->wstate[i] == W_NEXT)
                continue;
            enum wstate ws = move_worker(r, &pl->w[i]);
            r->wstate[i] = (unsigned char)ws;
            if (ws == W_NEXT) {
                pl->w[i].rules_gen = r->gen;
                r->moved++;
            } else {
                r->stuck++;
            }
        }
        if (r->moved == pl->nworkers)
            finish_switch(r);
        else
            report_stuck(r); /* abandons (frees) the new rules when no worker is on them */
        if (r->switching)
            osprey_log(OSPREY_LOG_ERROR, "reload: %d workers could not switch; the reloaded "
                       "rules are left unfreed", pl->nworkers - r->moved);
    }
    free(r->wstate);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
    free(r);
    pl->reload = NULL;
}

int osprey_reload_request(struct osprey_reload *r, char *msg, size_t len)
{
    pthread_mutex_lock(&r->mu);
    unsigned mine = ++r->req_seq;
    pthread_cond_broadcast(&r->cv);
    while ((int)(r->done_seq - mine) < 0 && !r->stop)
        pthread_cond_wait(&r->cv, &r->mu);
    int rc = r->stop && (int)(r->done_seq - mine) < 0 ? -1 : r->last_rc;
    snprintf(msg, len, "%s", rc < 0 && r->stop ? "shutting down" : r->last_msg);
    pthread_mutex_unlock(&r->mu);
    return rc;
}

void osprey_reload_switch(struct osprey_worker *w)
{
    struct osprey_reload *r = w->pl->reload;
    unsigned gen = atomic_load_explicit(&w->pl->rules_gen, memory_order_acquire);
    if (!r)
        return;
    pthread_mutex_lock(&r->mu);
    if (!r->switching || gen != r->gen || w->rules_gen == gen || r->wstate[w->id] == W_NEXT) {
        w->rules_gen = gen; /* nothing left to move to (or a retry round it is not part of) */
    } else {
        double t0 = osprey_clock_mono_s();
        w->rules_gen = gen; /* tried: a failure is not retried at every packet */
        enum wstate ws = move_worker(r, w);
        r->wstate[w->id] = (unsigned char)ws;
        if (ws != W_NEXT) {
            if (++r->stuck + r->moved == w->pl->nworkers)
                pthread_cond_broadcast(&r->cv); /* the reload thread reports it */
            goto out;
        }
        double ms = (osprey_clock_mono_s() - t0) * 1e3;
        if (ms > r->st.switch_ms_max)
            r->st.switch_ms_max = ms;
        osprey_log(OSPREY_LOG_INFO, "reload: worker %d switched in %.1f ms, keeping %llu flows",
                   w->id, ms,
                   (unsigned long long)mon_flow_stats(mon_ctx_flows(w->ctx))->active);
        w->rules_gen = gen;
        if (++r->moved == w->pl->nworkers)
            pthread_cond_broadcast(&r->cv); /* the reload thread retires the old rules */
    }
out:
    pthread_mutex_unlock(&r->mu);
}

void osprey_reload_stats(struct osprey_reload *r, struct osprey_reload_stats *out)
{
    pthread_mutex_lock(&r->mu);
    *out = r->st;
    pthread_mutex_unlock(&r->mu);
}

void osprey_reload_lock(struct osprey_reload *r)
{
    if (r)
        pthread_mutex_lock(&r->mu);
}

void osprey_reload_unlock(struct osprey_reload *r)
{
    if (r)
        pthread_mutex_unlock(&r->mu);
}
