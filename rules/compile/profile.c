/* profile.c — per-rule profiling in any build (profiling.rules.enabled; Suricata needs a
 * special build for its rule profiling).
 *
 * With profiling on, each option unit's UDE calls det_unit_prof_filter, which times the unit's
 * evaluation and counts it in the worker's slot of that UDE (one slot per (parent, unit): the
 * UDE node rules with an identical chain prefix share, whose time counts for each of them). A
 * rule's figures: checks = evaluations of the first unit of its chain (its header and fast
 * pattern passed), matches = times its chain completed, time = the time of the units of its
 * chain. Without profiling nothing here runs: chains use det_unit_filter directly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "detect_int.h"
#include "opt_eval.h"
#include "osprey_json_writer.h"

/* The worker evaluating on this thread (one thread per worker), for the filters, which get no
 * worker argument. */
static _Thread_local struct osprey_detect_worker *prof_worker;

void det_prof_enter(struct osprey_detect_worker *w)
{
    prof_worker = w;
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

bool det_unit_prof_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                          void *arg)
{
    (void)ev;
    const struct det_prof_unit *pu = arg;
    struct osprey_detect_worker *w = prof_worker;
    uint64_t t0 = now_ns();
    bool ok = pu->u->ops->eval(pu->u, ctx, f, side);
    if (w && w->prof) {
        w->prof[pu->id].calls++;
        w->prof[pu->id].ns += now_ns() - t0;
    }
    return ok;
}

static uint32_t slot_hash(mon_event_t parent, const struct det_unit *u, uint32_t cap)
{
    uint64_t k = ((uint64_t)(uintptr_t)u >> 4) ^ ((uint64_t)parent * 0x9e3779b97f4a7c15ull);
    return (uint32_t)((k * 0xff51afd7ed558ccdull) >> 32) & (cap - 1);
}

/* The profile slot of unit u under parent: one per UDE node (an open-addressing map, compile
 * time only). */
const struct det_prof_unit *det_prof_unit_of(struct osprey_detect *d, mon_event_t parent,
                                             const struct det_unit *u)
{
    if (d->nprof_units * 2 >= d->prof_cap) {
        uint32_t cap = d->prof_cap ? d->prof_cap * 2 : 1024;
        struct det_prof_unit **t = calloc(cap, sizeof *t);
        if (!t)
            return NULL;
        for (uint32_t i = 0; i < d->prof_cap; i++) {
            if (!d->prof_map[i])
                continue;
            uint32_t h = slot_hash(d->prof_map[i]->parent, d->prof_map[i]->u, cap);
            while (t[h])
                h = (h + 1) & (cap - 1);
            t[h] = d->prof_map[i];
        }
        free(d->prof_map);
        d->prof_map = t;
        d->prof_cap = cap;
    }
    uint32_t h = slot_hash(parent, u, d->prof_cap);
    for (; d->prof_map[h]; h = (h + 1) & (d->prof_cap - 1))
        if (d->prof_map[h]->u == u && d->prof_map[h]->parent == parent)
            return d->prof_map[h];
    struct det_prof_unit *pu = malloc(sizeof *pu);
    if (!pu)
        return NULL;
    *pu = (struct det_prof_unit){u, parent, d->nprof_units++};
    d->prof_map[h] = pu;
    return pu;
}

void det_prof_free(struct osprey_detect *d)
{
    for (uint32_t i = 0; i < d->prof_cap; i++)
        free(d->prof_map[i]);
    free(d->prof_map);
    d->prof_map = NULL;
    d->prof_cap = d->nprof_units = 0;
}

struct rule_fig {
    const struct det_rule *dr;
    uint64_t checks, matches, ns;
};

static int by_time(const void *a, const void *b)
{
    const struct rule_fig *x = a, *y = b;
    if (x->ns != y->ns)
        return x->ns > y->ns ? -1 : 1;
    return x->checks > y->checks ? -1 : x->checks < y->checks;
}

uint64_t osprey_detect_pcre_limit_hits(void)
{
    return pcre_limit_hits();
}

int osprey_detect_profile_write(const struct osprey_detect *d,
                                struct osprey_detect_worker *const *w, int nw, int limit,
                                FILE *json, FILE *text)
{
    if (!d->prof)
        return 0;
    /* a rule compiled into two chains (stream and packet, or both sides) is one rule */
    struct rule_fig *fig = calloc(d->nrules ? d->nrules : 1, sizeof *fig);
    if (!fig)
        return -1;
    uint64_t total = 0;
    for (uint32_t i = 0; i < d->nrules; i++) {
        const struct det_rule *dr = &d->rules[i];
        struct rule_fig *r = &fig[dr->rule_idx];
        r->dr = &d->rules[dr->rule_idx];
        for (int k = 0; k < nw; k++) {
            for (uint32_t u = 0; u < dr->nprof; u++) {
                const struct det_prof_count *c = &w[k]->prof[dr->prof_ids[u]];
                r->ns += c->ns;
                if (u == 0)
                    r->checks += c->calls;
            }
            r->matches += w[k]->prof_matches[i];
            if (!dr->nprof)
                r->checks += w[k]->prof_matches[i];
        }
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->nrules; i++)
        if (fig[i].dr && (fig[i].checks || fig[i].matches)) {
            fig[n++] = fig[i];
            total += fig[i].ns;
        }
    qsort(fig, n, sizeof *fig, by_time);
    uint32_t top = limit > 0 && (uint32_t)limit < n ? (uint32_t)limit : n;
    if (json) { /* Suricata's rule_perf.log fields */
        struct osprey_jw w;
        osprey_jw_init(&w);
        osprey_jw_open(&w, NULL);
        osprey_jw_str(&w, "sort", "ticks");
        osprey_jw_str(&w, "unit", "ns");
        osprey_jw_array(&w, "rules");
        for (uint32_t i = 0; i < top; i++) {
            const struct osprey_rule *r = fig[i].dr->rule;
            osprey_jw_open(&w, NULL);
            osprey_jw_int(&w, "signature_id", r->sid);
            osprey_jw_int(&w, "gid", r->gid ? r->gid : 1);
            osprey_jw_int(&w, "rev", r->rev);
            osprey_jw_str(&w, "msg", r->msg ? r->msg : "");
            osprey_jw_int(&w, "checks", (int64_t)fig[i].checks);
            osprey_jw_int(&w, "matches", (int64_t)fig[i].matches);
            osprey_jw_int(&w, "ticks_total", (int64_t)fig[i].ns);
            osprey_jw_int(&w, "ticks_avg", (int64_t)(fig[i].checks ? fig[i].ns / fig[i].checks : 0));
            osprey_jw_double(&w, "percent",
                             total ? 100.0 * (double)fig[i].ns / (double)total : 0.0);
            osprey_jw_close(&w);
        }
        osprey_jw_array_end(&w);
        char *line = osprey_jw_finish(&w);
        if (line)
            fputs(line, json);
        free(line);
    }
    if (text) {
        fprintf(text, "osprey: rule profile (top %u of %u rules evaluated, by time in their "
                      "options):\n", top, n);
        for (uint32_t i = 0; i < top; i++)
            fprintf(text, "  sid %-9u %10.3f ms %6.2f%%  checks %-9llu matches %-7llu %s\n",
                    fig[i].dr->rule->sid, (double)fig[i].ns / 1e6,
                    total ? 100.0 * (double)fig[i].ns / (double)total : 0.0,
                    (unsigned long long)fig[i].checks, (unsigned long long)fig[i].matches,
                    fig[i].dr->rule->msg ? fig[i].dr->rule->msg : "");
    }
    free(fig);
    return 0;
}
