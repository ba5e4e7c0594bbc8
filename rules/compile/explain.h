/* explain.h — `osprey --explain SID`: how one rule compiled (explain.c) and, on traffic, where
 * its chains advanced and stopped (explain_trace.c). Private to rules/compile/.
 *
 * Only a build asked to explain (osprey_detect_opts.explain_sid) has this state: its UDEs are
 * defined with tracing wrappers around the filters, so a normal build runs the very same
 * filters as before and pays nothing. */
#ifndef RULES_EXPLAIN_H
#define RULES_EXPLAIN_H

#include <stdio.h>

#include "detect_int.h"

#define DET_EXPLAIN_CHAINS 8 /* a rule has one or two chains; several rules may share a sid */

struct det_explain_chain {
    const struct det_rule *dr;
    uint32_t *node;             /* indexes into d->nodes: the base's child first, the leaf last */
    uint32_t n;
};

struct det_explain {
    uint32_t sid;
    FILE *out;
    char *not_compiled;         /* the compiler's line when it refused the rule, else NULL */
    uint32_t nchains;
    struct det_explain_chain chain[DET_EXPLAIN_CHAINS];
    uint32_t nev;               /* event ids below nev may be on a chain */
    uint8_t *on;                /* per event id: bit c set when it is on chain c */
    uint16_t *step;             /* per event id: its step (1 = the base event's child) */
    uint64_t stopped, matched, acted; /* trace lines: failed steps, matches, actions taken */
};

/* Start explaining sid on d (at the beginning of the build): 0, or -1 when out of memory. */
int det_explain_open(struct osprey_detect *d, uint32_t sid, FILE *out);
void det_explain_free(struct det_explain *ex);
/* The filter to define a UDE with: fn itself, or, when d explains a rule, its tracing
 * wrapper (same decisions; a failed step of the explained rule is printed). */
mon_filter_fn det_explain_filter(const struct osprey_detect *d, mon_filter_fn fn);
/* The compiler refused rule r with this diagnostic line: kept when r is the explained one. */
void det_explain_not_compiled(struct osprey_detect *d, const struct osprey_rule *r,
                              const char *line);
/* After the build: find the explained rule's chains in d->nodes. 0, or -1 (out of memory). */
int det_explain_index(struct osprey_detect *d);
/* A match of rule pm->dr was committed (runtime.c): outcome NULL when the rule's action was
 * taken (alert, drop …), else why not (flowbits, threshold …). */
void det_explain_commit(const struct osprey_detect_worker *w, const struct det_pending *pm,
                        const struct mon_packet *p, const char *outcome);

#endif
