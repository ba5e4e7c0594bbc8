/* test_event_run.c — walking forests: breadth-first order (mOS Figure 6(b)), pruning,
 * intermediate nodes without handlers, multi-event filters raising 2 of 3 children, priority
 * order across built-ins, hooks apart, handler order, a handler changing the flow's forest
 * mid-walk, UDEs walked last (ev_define_last), and the cost of a walk among 20,000 rules. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_contract_internal.h"
#include "unit.h"

/* ---- a log of what ran: 'F' filter or 'H' handler, with a label ---- */
static char trace[4096];

static void logf_(char kind, int label)
{
    size_t n = strlen(trace);
    snprintf(trace + n, sizeof trace - n, "%s%c%d", n ? " " : "", kind, label);
}

/* Filter arguments: a label, whether to pass, and children to raise. */
struct fctl {
    int label;
    bool pass;
    int nraise;
    mon_event_t raise[4];
    int raise_rc[4];
};

static struct ev_runner *g_rn;  /* the test's runner, for filters that raise */
static struct mon_ctx *const CTX = (struct mon_ctx *)0x1000;
static struct mon_flow *const FLOW = (struct mon_flow *)0x2000;
static int args_ok = 1;

static bool filt(struct mon_ctx *c, struct mon_flow *f, int side, mon_event_t ev, void *a)
{
    struct fctl *fc = a;
    (void)ev;
    if (c != CTX || f != FLOW || side != MON_SIDE_SVR)
        args_ok = 0;
    logf_('F', fc->label);
    for (int i = 0; i < fc->nraise; i++)
        fc->raise_rc[i] = ev_raise(g_rn, fc->raise[i]);
    return fc->pass;
}

static void hand(struct mon_ctx *c, struct mon_flow *f, int side, mon_event_t ev, void *a)
{
    (void)ev;
    if (c != CTX || f != FLOW || side != MON_SIDE_SVR)
        args_ok = 0;
    logf_('H', (int)(intptr_t)a);
}

static void run(struct ev_forest *f, int hook, uint32_t raised, struct mon_event_stats *st)
{
    trace[0] = 0;
    ev_run(g_rn, f, hook, raised, CTX, FLOW, MON_SIDE_SVR, st);
}

static int reg(struct ev_forests *fs, struct ev_forest **slot, mon_event_t ev, int hook,
               mon_handler_fn h, intptr_t label)
{
    struct ev_pair p = {.ev = ev, .hook = (uint8_t)hook, .handler = h, .arg = (void *)label};
    struct ev_forest *nf;
    int err = ev_forest_change(fs, *slot, &p, true, &nf);
    if (err)
        return err;
    ev_forest_release(fs, *slot);
    *slot = nf;
    return 0;
}

#define B(e) (1u << (e))

/* Figure 6(b): e1 → {e2, e3}, e2 → {e4, e6}, e3 → {e5}: BFS is e1 e2 e3 e4 e6 e5. */
static void figure6(void)
{
    struct ev_registry *r = ev_registry_create();
    struct fctl c2 = {.label = 2, .pass = true}, c3 = {.label = 3, .pass = true},
                c4 = {.label = 4, .pass = true}, c5 = {.label = 5, .pass = true},
                c6 = {.label = 6, .pass = true};
    mon_event_t e1 = MON_ON_CONN_NEW_DATA;
    mon_event_t e2 = (mon_event_t)ev_define(r, e1, filt, &c2);
    mon_event_t e3 = (mon_event_t)ev_define(r, e1, filt, &c3);
    mon_event_t e4 = (mon_event_t)ev_define(r, e2, filt, &c4);
    mon_event_t e5 = (mon_event_t)ev_define(r, e3, filt, &c5);
    mon_event_t e6 = (mon_event_t)ev_define(r, e2, filt, &c6);
    ev_registry_freeze(r);
    struct ev_forests *fs = ev_forests_create(r);
    g_rn = ev_runner_create(r);
    struct ev_forest *f = ev_forest_empty(fs);
    /* registered in an order unrelated to the tree */
    reg(fs, &f, e5, MON_HK_RCV, hand, 5);
    reg(fs, &f, e1, MON_HK_RCV, hand, 1);
    reg(fs, &f, e6, MON_HK_RCV, hand, 6);
    reg(fs, &f, e2, MON_HK_RCV, hand, 2);
    reg(fs, &f, e4, MON_HK_RCV, hand, 4);
    reg(fs, &f, e3, MON_HK_RCV, hand, 3);
    struct mon_event_stats st = {0};
    run(f, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), &st);
    CHECK(strcmp(trace, "H1 F2 H2 F3 H3 F4 H4 F6 H6 F5 H5") == 0);
    printf("figure 6(b): %s\n", trace);
    CHECK_EQ_U(st.filters_run, 5);
    CHECK_EQ_U(st.handlers_run, 6);
    CHECK(args_ok);

    /* pruning: e2 fails → e4 and e6 are never evaluated */
    c2.pass = false;
    run(f, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), &st);
    CHECK(strcmp(trace, "H1 F2 F3 H3 F5 H5") == 0);
    c2.pass = true;
    c3.pass = false;
    run(f, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), NULL);
    CHECK(strcmp(trace, "H1 F2 H2 F3 F4 H4 F6 H6") == 0);
    c3.pass = true;
    /* other built-ins and the other hook have no tree */
    run(f, MON_HK_SND, B(MON_ON_CONN_NEW_DATA), NULL);
    CHECK(strcmp(trace, "") == 0);
    run(f, MON_HK_RCV, B(MON_ON_PKT_IN), NULL);
    CHECK(strcmp(trace, "") == 0);
    ev_forest_release(fs, f);

    /* a chain with a handler only at its end: every filter on the way runs */
    f = ev_forest_empty(fs);
    reg(fs, &f, e4, MON_HK_RCV, hand, 4);
    run(f, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), NULL);
    CHECK(strcmp(trace, "F2 F4 H4") == 0);
    c2.pass = false;
    run(f, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), NULL);
    CHECK(strcmp(trace, "F2") == 0);
    c2.pass = true;
    ev_forest_release(fs, f);

    ev_runner_destroy(g_rn);
    ev_forests_destroy(fs);
    ev_registry_destroy(r);
}

/* A multi-event filter M raising 2 of its 3 children. */
static void multi_event(void)
{
    struct ev_registry *r = ev_registry_create();
    struct fctl cm = {.label = 10, .pass = true}, cu = {.label = 11, .pass = true},
                cr = {.label = 12, .pass = true}, cother = {.label = 13, .pass = true};
    mon_event_t m = (mon_event_t)ev_define(r, MON_ON_CONN_NEW_DATA, filt, &cm);
    mon_event_t c1 = (mon_event_t)ev_alloc(r, m);
    mon_event_t c2 = (mon_event_t)ev_alloc(r, m);
    mon_event_t c3 = (mon_event_t)ev_alloc(r, m);
    mon_event_t c4 = (mon_event_t)ev_alloc(r, m);   /* nobody waits for it */
    mon_event_t u = (mon_event_t)ev_define(r, m, filt, &cu);    /* an ordinary UDE child of M */
    mon_event_t rule = (mon_event_t)ev_define(r, c3, filt, &cr); /* a rule below a raised child */
    mon_event_t other = (mon_event_t)ev_define(r, MON_ON_PKT_IN, filt, &cother);
    ev_registry_freeze(r);
    struct ev_forests *fs = ev_forests_create(r);
    g_rn = ev_runner_create(r);
    struct ev_forest *f = ev_forest_empty(fs);
    reg(fs, &f, m, MON_HK_RCV, hand, 100);
    reg(fs, &f, c1, MON_HK_RCV, hand, 101);
    reg(fs, &f, c2, MON_HK_RCV, hand, 102);
    reg(fs, &f, c3, MON_HK_RCV, hand, 103);
    reg(fs, &f, u, MON_HK_RCV, hand, 111);
    reg(fs, &f, rule, MON_HK_RCV, hand, 112);
    reg(fs, &f, other, MON_HK_RCV, hand, 113);

    /* raise c3 then c1 (c3 twice, and c4 that no node waits for) */
    cm.nraise = 4;
    cm.raise[0] = c3;
    cm.raise[1] = c1;
    cm.raise[2] = c3;
    cm.raise[3] = c4;
    struct mon_event_stats st = {0};
    run(f, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), &st);
    /* M's handlers, M's UDE child, then the raised children in raise order, then below */
    CHECK(strcmp(trace, "F10 H100 F11 H111 H103 H101 F12 H112") == 0);
    printf("multi-event: %s\n", trace);
    for (int i = 0; i < 4; i++)
        CHECK_EQ_U(cm.raise_rc[i], 0);
    CHECK_EQ_U(st.filters_run, 3);
    CHECK_EQ_U(st.handlers_run, 5);

    /* M's filter false: M and everything it raised are pruned */
    cm.pass = false;
    run(f, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), NULL);
    CHECK(strcmp(trace, "F10") == 0);
    cm.pass = true;

    /* nothing raised: only the UDE child */
    cm.nraise = 0;
    run(f, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), NULL);
    CHECK(strcmp(trace, "F10 H100 F11 H111") == 0);

    /* raising what is not M's child is refused; raising outside a filter too */
    cm.nraise = 2;
    cm.raise[0] = other;
    cm.raise[1] = c2;
    run(f, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), NULL);
    CHECK_EQ_U(cm.raise_rc[0], (uint64_t)MON_EINVAL);
    CHECK_EQ_U(cm.raise_rc[1], 0);
    CHECK(strcmp(trace, "F10 H100 F11 H111 H102") == 0);
    CHECK_EQ_U(ev_raise(g_rn, c1), (uint64_t)MON_ESTATE);
    /* the raise set does not leak from one walk (or tree) to the next */
    cm.nraise = 0;
    run(f, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA) | B(MON_ON_PKT_IN), NULL);
    CHECK(strcmp(trace, "F13 H113 F10 H100 F11 H111") == 0);

    ev_forest_release(fs, f);
    ev_runner_destroy(g_rn);
    ev_forests_destroy(fs);
    ev_registry_destroy(r);
}

/* Built-ins run by priority, whatever their numbers; hooks are separate trees. */
static void priority_and_hooks(void)
{
    struct ev_registry *r = ev_registry_create();
    ev_registry_freeze(r);
    struct ev_forests *fs = ev_forests_create(r);
    g_rn = ev_runner_create(r);
    struct ev_forest *f = ev_forest_empty(fs);
    for (mon_event_t b = 0; b < MON_EV_BUILTIN_COUNT; b++)
        reg(fs, &f, b, MON_HK_RCV, hand, (intptr_t)b);
    reg(fs, &f, MON_ON_PKT_IN, MON_HK_SND, hand, 99);
    CHECK_EQ_U(ev_forest_roots(f, MON_HK_RCV), B(MON_EV_BUILTIN_COUNT) - 1);
    CHECK_EQ_U(ev_forest_roots(f, MON_HK_SND), B(MON_ON_PKT_IN));

    char want[128];
    run(f, MON_HK_RCV, B(MON_ON_PKT_IN) | B(MON_ON_CONN_NEW_DATA) | B(MON_ON_CONN_END) |
                           B(MON_ON_CONN_START), NULL);
    snprintf(want, sizeof want, "H%d H%d H%d H%d", MON_ON_PKT_IN, MON_ON_CONN_START,
             MON_ON_CONN_NEW_DATA, MON_ON_CONN_END);
    CHECK(strcmp(trace, want) == 0);

    run(f, MON_HK_RCV, B(MON_EV_BUILTIN_COUNT) - 1, NULL);
    snprintf(want, sizeof want, "H%d H%d H%d H%d H%d H%d H%d H%d H%d H%d H%d H%d",
             MON_ON_DECODE_EVENT, MON_ON_PKT_IN, MON_ON_ORPHAN, MON_ON_CONN_START,
             MON_ON_TCP_STATE_CHANGE, MON_ON_REXMIT, MON_ON_CONN_NEW_DATA, MON_ON_ERROR,
             MON_ON_DEPTH, MON_ON_ONE_SIDED, MON_ON_TIMEOUT, MON_ON_CONN_END);
    CHECK(strcmp(trace, want) == 0);
    printf("priority: %s\n", trace);

    run(f, MON_HK_SND, B(MON_EV_BUILTIN_COUNT) - 1, NULL);
    CHECK(strcmp(trace, "H99") == 0);
    run(f, 2, B(MON_ON_PKT_IN), NULL);
    CHECK(strcmp(trace, "") == 0);
    ev_forest_release(fs, f);
    ev_runner_destroy(g_rn);
    ev_forests_destroy(fs);
    ev_registry_destroy(r);
}

static void ha(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e, (void)a;
    logf_('A', 0);
}

static void hb(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e, (void)a;
    logf_('B', 0);
}

/* Handlers of one event run in registration order; a second flow registering the same pairs
 * in reverse has the same set, so it shares the forest (and the order) built first. */
static void handler_order(void)
{
    struct ev_registry *r = ev_registry_create();
    ev_registry_freeze(r);
    struct ev_forests *fs = ev_forests_create(r);
    g_rn = ev_runner_create(r);
    struct ev_forest *x = ev_forest_empty(fs), *y = ev_forest_empty(fs);
    reg(fs, &x, MON_ON_PKT_IN, MON_HK_SND, hb, 0);
    reg(fs, &x, MON_ON_PKT_IN, MON_HK_SND, ha, 0);
    reg(fs, &y, MON_ON_PKT_IN, MON_HK_SND, ha, 0);
    reg(fs, &y, MON_ON_PKT_IN, MON_HK_SND, hb, 0);
    CHECK(x == y);
    run(y, MON_HK_SND, B(MON_ON_PKT_IN), NULL);
    CHECK(strcmp(trace, "B0 A0") == 0);
    ev_forest_release(fs, x);
    ev_forest_release(fs, y);
    ev_runner_destroy(g_rn);
    ev_forests_destroy(fs);
    ev_registry_destroy(r);
}

/* ---- a handler that changes the flow's forest during the walk ---- */
struct flow_state {
    struct ev_forests *fs;
    struct ev_forest *forest;  /* the flow's own reference */
    mon_event_t ev;
};
static struct flow_state g_fl;

static void h_deregister_self(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e;
    logf_('D', 0);
    struct ev_pair p = {.ev = g_fl.ev, .hook = MON_HK_RCV, .handler = h_deregister_self, .arg = a};
    struct ev_forest *nf;
    if (ev_forest_change(g_fl.fs, g_fl.forest, &p, false, &nf) == 0) {
        ev_forest_release(g_fl.fs, g_fl.forest);  /* may free it if the walk held no ref */
        g_fl.forest = nf;
    }
}

static void mid_walk_change(void)
{
    struct ev_registry *r = ev_registry_create();
    struct fctl c = {.label = 1, .pass = true};
    mon_event_t u = (mon_event_t)ev_define(r, MON_ON_CONN_NEW_DATA, filt, &c);
    ev_registry_freeze(r);
    struct ev_forests *fs = ev_forests_create(r);
    g_rn = ev_runner_create(r);
    g_fl = (struct flow_state){fs, ev_forest_empty(fs), MON_ON_CONN_NEW_DATA};
    reg(fs, &g_fl.forest, MON_ON_CONN_NEW_DATA, MON_HK_RCV, h_deregister_self, 0);
    reg(fs, &g_fl.forest, u, MON_HK_RCV, hand, 7);
    struct ev_forest *walking = g_fl.forest;
    CHECK_EQ_U(ev_forest_refs(walking), 1);
    /* what the core does: hold a reference for the call */
    ev_forest_retain(walking);
    run(walking, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), NULL);
    CHECK(g_fl.forest != walking);
    CHECK_EQ_U(ev_forest_refs(walking), 1);  /* only the walk's reference was left */
    ev_forest_release(fs, walking);  /* freed now, not during the walk (ASan would see it) */
    CHECK(strcmp(trace, "D0 F1 H7") == 0);  /* the walk finished on the forest it started */
    /* the change applies from the next run */
    run(g_fl.forest, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), NULL);
    CHECK(strcmp(trace, "F1 H7") == 0);
    struct ev_forest_stats st;
    ev_forests_stats(fs, &st);
    CHECK_EQ_U(st.alive, 2);
    ev_forest_release(fs, g_fl.forest);
    ev_runner_destroy(g_rn);
    ev_forests_destroy(fs);
    ev_registry_destroy(r);
}

/* A nested ev_run on the same runner (from a handler) is refused, not corrupting. */
static void h_nested(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)e;
    logf_('N', 0);
    ev_run(g_rn, a, MON_HK_SND, B(MON_ON_PKT_IN), c, f, s, NULL);
}

static void nested(void)
{
    struct ev_registry *r = ev_registry_create();
    ev_registry_freeze(r);
    struct ev_forests *fs = ev_forests_create(r);
    g_rn = ev_runner_create(r);
    struct ev_forest *f = ev_forest_empty(fs);
    struct ev_pair p = {.ev = MON_ON_PKT_IN, .hook = MON_HK_SND, .handler = h_nested, .arg = NULL};
    struct ev_forest *nf;
    ev_forest_change(fs, f, &p, true, &nf);
    ev_forest_release(fs, f);
    f = nf;
    /* the handler's arg is NULL: pass f through a second pair's arg instead */
    struct ev_pair q = {.ev = MON_ON_PKT_IN, .hook = MON_HK_SND, .handler = h_nested, .arg = f};
    ev_forest_change(fs, f, &q, true, &nf);
    ev_forest_release(fs, f);
    f = nf;
    run(f, MON_HK_SND, B(MON_ON_PKT_IN), NULL);
    CHECK(strcmp(trace, "N0 N0") == 0);
    /* the runner is usable again */
    run(f, MON_HK_SND, B(MON_ON_PKT_IN), NULL);
    CHECK(strcmp(trace, "N0 N0") == 0);
    ev_forest_release(fs, f);
    ev_runner_destroy(g_rn);
    ev_forests_destroy(fs);
    ev_registry_destroy(r);
}

/* ---- 20,000 rules: a walk costs the passing nodes and their direct children only ---- */
struct rule {
    int label;
};

static bool rule_filter(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e, (void)a;
    return true;
}

static bool deny(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e, (void)a;
    return false;
}

static void count_handler(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e;
    (*(int *)a)++;
}

static mon_event_t g_hits[2];

static bool scan(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e, (void)a;
    ev_raise(g_rn, g_hits[0]);
    ev_raise(g_rn, g_hits[1]);
    return true;
}

static void twenty_thousand(void)
{
    enum { RULES = 20000 };
    struct ev_registry *r = ev_registry_create();
    struct rule *rules = calloc(RULES, sizeof *rules);
    mon_event_t *rule_ev = malloc(RULES * sizeof *rule_ev), *hit = malloc(RULES * sizeof *hit);
    mon_event_t m = (mon_event_t)ev_define(r, MON_ON_CONN_NEW_DATA, scan, NULL);
    for (int i = 0; i < RULES; i++) {
        hit[i] = (mon_event_t)ev_alloc(r, m);
        rule_ev[i] = (mon_event_t)ev_define(r, hit[i], rule_filter, &rules[i]);
    }
    /* and 20,000 filters hanging directly off PKT_IN, for contrast */
    mon_event_t *flat = malloc(RULES * sizeof *flat);
    for (int i = 0; i < RULES; i++)
        flat[i] = (mon_event_t)ev_define(r, MON_ON_PKT_IN, deny, &rules[i]);
    ev_registry_freeze(r);
    struct ev_forests *fs = ev_forests_create(r);
    g_rn = ev_runner_create(r);
    int fired = 0;
    /* one forest holding all of them, in one build (one by one would be O(n^2)), as a union
     * of two halves */
    struct ev_pair *pa = malloc(RULES * sizeof *pa), *pb = malloc(RULES * sizeof *pb);
    for (int i = 0; i < RULES; i++) {
        pa[i] = (struct ev_pair){rule_ev[i], MON_HK_RCV, count_handler, &fired};
        pb[i] = (struct ev_pair){flat[i], MON_HK_RCV, count_handler, &fired};
    }
    struct ev_forest *a = NULL, *b = NULL, *f = NULL;
    CHECK_EQ_U(ev_forest_from_pairs(fs, pa, RULES, &a), 0);
    CHECK_EQ_U(ev_forest_from_pairs(fs, pb, RULES, &b), 0);
    CHECK_EQ_U(ev_forest_union(fs, a, b, &f), 0);
    ev_forest_release(fs, a);
    ev_forest_release(fs, b);
    free(pa);
    free(pb);
    /* two roots, the scan, 20,000 hits and rules below it, 20,000 flat filters */
    CHECK_EQ_U(ev_forest_nodes(f, MON_HK_RCV), 2 + 1 + 2 * RULES + RULES);

    g_hits[0] = hit[7];
    g_hits[1] = hit[12345];
    struct mon_event_stats st = {0};
    run(f, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), &st);
    CHECK_EQ_U(st.filters_run, 3);   /* the scan, then the two raised rules' filters */
    CHECK_EQ_U(st.handlers_run, 2);
    CHECK_EQ_U(fired, 2);
    memset(&st, 0, sizeof st);
    run(f, MON_HK_RCV, B(MON_ON_PKT_IN), &st);
    CHECK_EQ_U(st.filters_run, RULES);  /* every direct child of the root is evaluated */
    CHECK_EQ_U(st.handlers_run, 0);
    ev_forest_release(fs, f);
    ev_runner_destroy(g_rn);
    ev_forests_destroy(fs);
    ev_registry_destroy(r);
    free(rules);
    free(rule_ev);
    free(hit);
    free(flat);
}

/* An unfrozen registry that grows after the runner was made: the runner grows before a walk. */
static void runner_growth(void)
{
    struct ev_registry *r = ev_registry_create();
    g_rn = ev_runner_create(r);
    struct ev_forests *fs = ev_forests_create(r);
    struct fctl c[50];
    mon_event_t prev = MON_ON_PKT_IN;
    for (int i = 0; i < 50; i++) {
        c[i] = (struct fctl){.label = i, .pass = true};
        prev = (mon_event_t)ev_define(r, prev, filt, &c[i]);
    }
    struct ev_forest *f = ev_forest_empty(fs);
    reg(fs, &f, prev, MON_HK_SND, hand, 50);
    struct mon_event_stats st = {0};
    run(f, MON_HK_SND, B(MON_ON_PKT_IN), &st);
    CHECK_EQ_U(st.filters_run, 50);
    CHECK_EQ_U(st.handlers_run, 1);
    ev_forest_release(fs, f);
    ev_forests_destroy(fs);
    ev_runner_destroy(g_rn);
    ev_registry_destroy(r);
}

/* ev_define_last: e1 → {L (last), e2}, e2 → {e3}, e3 → {e4}, L → {e5}, e4 → {L2 (last)}.
 * L waits behind the whole tree (e4 is deeper than L), then its child; L2, met while L was
 * waiting, runs right after L in the order met, and L's child e5 after both. A failing L
 * prunes its child; ev_run_event from L itself walks it at once. */
static void walked_last(void)
{
    struct ev_registry *r = ev_registry_create();
    struct fctl cl = {.label = 90, .pass = true}, c2 = {.label = 2, .pass = true},
                c3 = {.label = 3, .pass = true}, c4 = {.label = 4, .pass = true},
                c5 = {.label = 5, .pass = true}, cl2 = {.label = 91, .pass = true};
    mon_event_t e1 = MON_ON_CONN_NEW_DATA;
    mon_event_t l = (mon_event_t)ev_define_last(r, e1, filt, &cl);
    mon_event_t e2 = (mon_event_t)ev_define(r, e1, filt, &c2);
    mon_event_t e3 = (mon_event_t)ev_define(r, e2, filt, &c3);
    mon_event_t e4 = (mon_event_t)ev_define(r, e3, filt, &c4);
    mon_event_t e5 = (mon_event_t)ev_define(r, l, filt, &c5);
    mon_event_t l2 = (mon_event_t)ev_define_last(r, e4, filt, &cl2);
    /* one definition, one way */
    CHECK(ev_define_last(r, e1, filt, &cl) == (int64_t)l);
    CHECK(ev_define(r, e1, filt, &cl) == MON_EINVAL);
    CHECK(ev_define_last(r, e1, filt, &c2) == MON_EINVAL);
    ev_registry_freeze(r);
    struct ev_forests *fs = ev_forests_create(r);
    g_rn = ev_runner_create(r);
    struct ev_forest *f = ev_forest_empty(fs);
    reg(fs, &f, l, MON_HK_RCV, hand, 90);
    reg(fs, &f, e5, MON_HK_RCV, hand, 5);
    reg(fs, &f, l2, MON_HK_RCV, hand, 91);
    reg(fs, &f, e4, MON_HK_RCV, hand, 4);
    run(f, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), NULL);
    CHECK(strcmp(trace, "F2 F3 F4 H4 F90 H90 F91 H91 F5 H5") == 0);
    printf("walked last: %s\n", trace);
    /* a failing deferred node prunes its subtree, as any */
    cl.pass = false;
    run(f, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), NULL);
    CHECK(strcmp(trace, "F2 F3 F4 H4 F90 F91 H91") == 0);
    cl.pass = true;
    /* a branch that fails before its deferred node never queues it */
    c2.pass = false;
    run(f, MON_HK_RCV, B(MON_ON_CONN_NEW_DATA), NULL);
    CHECK(strcmp(trace, "F2 F90 H90 F5 H5") == 0);
    c2.pass = true;
    /* run from the deferred node itself: its handlers, then its children */
    trace[0] = 0;
    CHECK(ev_run_event(g_rn, f, MON_HK_RCV, l, CTX, FLOW, MON_SIDE_SVR, NULL) == 1);
    CHECK(strcmp(trace, "H90 F5 H5") == 0);
    CHECK(args_ok);
    ev_forest_release(fs, f);
    ev_forests_destroy(fs);
    ev_runner_destroy(g_rn);
    ev_registry_destroy(r);
}

int main(void)
{
    figure6();
    walked_last();
    multi_event();
    priority_and_hooks();
    handler_order();
    mid_walk_change();
    nested();
    twenty_thousand();
    runner_growth();
    return unit_report("test_event_run");
}
