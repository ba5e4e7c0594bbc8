/* test_forest.c — invocation forests: sharing by 1000 flows, O(1) change to an existing
 * forest, exact reference counts, freeing, XOR ids independent of order, union, hooks, and
 * the nodes a set of pairs compiles to (ancestors included, shared prefixes once). */
#include <stdint.h>
#include <stdlib.h>

#include "event_contract_internal.h"
#include "unit.h"

static bool pass(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e, (void)a;
    return true;
}

static void h1(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e, (void)a;
}

static void h2(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e, (void)a;
}

/* What the core does on mon_register_flow: swap the flow's forest and release the old one. */
static int change(struct ev_forests *fs, struct ev_forest **slot, struct ev_pair p, bool add)
{
    struct ev_forest *nf;
    int err = ev_forest_change(fs, *slot, &p, add, &nf);
    if (err)
        return err;
    ev_forest_release(fs, *slot);
    *slot = nf;
    return 0;
}

static struct ev_pair pr(mon_event_t ev, int hook, mon_handler_fn h, void *arg)
{
    return (struct ev_pair){.ev = ev, .hook = (uint8_t)hook, .handler = h, .arg = arg};
}

struct world {
    struct ev_registry *r;
    mon_event_t e[8];
};

/* e0 on CONN_NEW_DATA; e1, e2 on e0; e3 on e1; e4 on PKT_IN */
static void world_init(struct world *w)
{
    static int tag[8];
    w->r = ev_registry_create();
    w->e[0] = (mon_event_t)ev_define(w->r, MON_ON_CONN_NEW_DATA, pass, &tag[0]);
    w->e[1] = (mon_event_t)ev_define(w->r, w->e[0], pass, &tag[1]);
    w->e[2] = (mon_event_t)ev_define(w->r, w->e[0], pass, &tag[2]);
    w->e[3] = (mon_event_t)ev_define(w->r, w->e[1], pass, &tag[3]);
    w->e[4] = (mon_event_t)ev_define(w->r, MON_ON_PKT_IN, pass, &tag[4]);
    ev_registry_freeze(w->r);
}

static void sharing(void)
{
    enum { FLOWS = 1000, BASE = 5 };
    struct world w;
    world_init(&w);
    struct ev_forests *fs = ev_forests_create(w.r);
    struct ev_forest_stats st;
    ev_forests_stats(fs, &st);
    CHECK_EQ_U(st.alive, 1);  /* the empty forest */
    CHECK_EQ_U(st.created, 1);
    uint64_t empty_bytes = st.bytes;
    CHECK(empty_bytes > 0);

    struct ev_forest *empty = ev_forest_empty(fs);
    CHECK_EQ_U(ev_forest_npairs(empty), 0);
    CHECK_EQ_U(ev_forest_roots(empty, MON_HK_RCV), 0);
    uint32_t empty_refs = ev_forest_refs(empty);

    struct ev_forest **flow = malloc(FLOWS * sizeof *flow);
    for (int i = 0; i < FLOWS; i++)
        flow[i] = ev_forest_empty(fs);
    CHECK_EQ_U(ev_forest_refs(empty), empty_refs + FLOWS);

    struct ev_pair base[BASE] = {
        pr(w.e[0], MON_HK_RCV, h1, NULL), pr(w.e[3], MON_HK_RCV, h1, NULL),
        pr(w.e[2], MON_HK_RCV, h2, NULL), pr(w.e[4], MON_HK_SND, h1, NULL),
        pr(MON_ON_CONN_END, MON_HK_SND, h2, NULL),
    };
    /* like a passive socket's pairs reaching every flow: each step builds once */
    int errs = 0;
    for (int p = 0; p < BASE; p++)
        for (int i = 0; i < FLOWS; i++)
            errs += change(fs, &flow[i], base[p], true) != 0;
    CHECK_EQ_U(errs, 0);
    struct ev_forest *shared = flow[0];
    int same = 0;
    for (int i = 0; i < FLOWS; i++)
        same += flow[i] == shared;
    CHECK_EQ_U(same, FLOWS);
    CHECK_EQ_U(ev_forest_refs(shared), FLOWS);
    CHECK_EQ_U(ev_forest_refs(empty), empty_refs);
    CHECK_EQ_U(ev_forest_npairs(shared), BASE);
    ev_forests_stats(fs, &st);
    CHECK_EQ_U(st.alive, 2);  /* the intermediate forests were freed as flows moved on */
    CHECK_EQ_U(st.created, 1 + BASE);
    uint64_t shared_bytes = st.bytes;

    /* half the flows register one more pair: exactly one new forest */
    struct ev_pair extra = pr(w.e[1], MON_HK_RCV, h2, &errs);
    for (int i = 0; i < FLOWS; i += 2)
        errs += change(fs, &flow[i], extra, true) != 0;
    CHECK_EQ_U(errs, 0);
    struct ev_forest *bigger = flow[0];
    CHECK(bigger != shared);
    CHECK_EQ_U(ev_forest_refs(shared), FLOWS / 2);
    CHECK_EQ_U(ev_forest_refs(bigger), FLOWS / 2);
    CHECK_EQ_U(ev_forest_npairs(bigger), BASE + 1);
    CHECK(ev_forest_has(bigger, &extra));
    CHECK(!ev_forest_has(shared, &extra));
    ev_forests_stats(fs, &st);
    CHECK_EQ_U(st.alive, 3);
    CHECK_EQ_U(st.created, 2 + BASE);

    /* registering it again is an error, and changes nothing */
    struct ev_forest *out = NULL;
    CHECK_EQ_U(ev_forest_change(fs, flow[0], &extra, true, &out), (uint64_t)MON_EINVAL);
    CHECK(out == NULL);
    CHECK_EQ_U(ev_forest_change(fs, flow[1], &extra, false, &out), (uint64_t)MON_EINVAL);
    CHECK_EQ_U(ev_forest_refs(bigger), FLOWS / 2);

    /* deregistering returns them to the original forest, the same object */
    for (int i = 0; i < FLOWS; i += 2)
        errs += change(fs, &flow[i], extra, false) != 0;
    CHECK_EQ_U(errs, 0);
    same = 0;
    for (int i = 0; i < FLOWS; i++)
        same += flow[i] == shared;
    CHECK_EQ_U(same, FLOWS);
    CHECK_EQ_U(ev_forest_refs(shared), FLOWS);
    ev_forests_stats(fs, &st);
    CHECK_EQ_U(st.alive, 2);
    CHECK_EQ_U(st.created, 2 + BASE);
    CHECK_EQ_U(st.bytes, shared_bytes);

    /* all flows end: the shared forest goes, the empty one stays */
    for (int i = 0; i < FLOWS; i++)
        ev_forest_release(fs, flow[i]);
    ev_forests_stats(fs, &st);
    CHECK_EQ_U(st.alive, 1);
    CHECK_EQ_U(st.bytes, empty_bytes);
    ev_forest_release(fs, empty);
    free(flow);
    ev_forests_destroy(fs);
    ev_registry_destroy(w.r);
}

static void errors(void)
{
    struct world w;
    world_init(&w);
    struct ev_forests *fs = ev_forests_create(w.r);
    struct ev_forest *f = ev_forest_empty(fs), *out = NULL;
    struct ev_pair p = pr(w.e[0], MON_HK_RCV, h1, NULL);
    CHECK_EQ_U(ev_forest_change(fs, f, &p, false, &out), (uint64_t)MON_EINVAL);
    p.ev = 12345;
    CHECK_EQ_U(ev_forest_change(fs, f, &p, true, &out), (uint64_t)MON_ENOENT);
    p = pr(w.e[0], MON_HK_ANY, h1, NULL);
    CHECK_EQ_U(ev_forest_change(fs, f, &p, true, &out), (uint64_t)MON_EINVAL);
    p = pr(w.e[0], MON_HK_RCV, NULL, NULL);
    CHECK_EQ_U(ev_forest_change(fs, f, &p, true, &out), (uint64_t)MON_EINVAL);
    CHECK_EQ_U(ev_forest_change(fs, f, NULL, true, &out), (uint64_t)MON_EINVAL);
    CHECK(out == NULL);
    /* back to no pairs = the cached empty forest */
    p = pr(w.e[0], MON_HK_RCV, h1, NULL);
    CHECK_EQ_U(change(fs, &f, p, true), 0);
    CHECK_EQ_U(change(fs, &f, p, false), 0);
    struct ev_forest *empty = ev_forest_empty(fs);
    CHECK(f == empty);
    ev_forest_release(fs, empty);
    ev_forest_release(fs, f);
    ev_forests_destroy(fs);
    ev_registry_destroy(w.r);
}

/* The id is an XOR: any order of registration reaches the same forest. */
static void order_independent(void)
{
    struct world w;
    world_init(&w);
    struct ev_forests *fs = ev_forests_create(w.r);
    int a1, a2;
    struct ev_pair p[4] = {
        pr(w.e[3], MON_HK_RCV, h1, NULL), pr(w.e[3], MON_HK_RCV, h1, &a1),
        pr(w.e[2], MON_HK_SND, h2, &a2), pr(MON_ON_PKT_IN, MON_HK_SND, h1, NULL),
    };
    static const int orders[4][4] = {{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}, {1, 3, 0, 2}};
    struct ev_forest *f[4];
    for (int k = 0; k < 4; k++) {
        f[k] = ev_forest_empty(fs);
        for (int i = 0; i < 4; i++)
            CHECK_EQ_U(change(fs, &f[k], p[orders[k][i]], true), 0);
    }
    CHECK(f[0] == f[1] && f[1] == f[2] && f[2] == f[3]);
    CHECK_EQ_U(ev_forest_refs(f[0]), 4);
    /* removing in yet another order, down to two pairs, meets a forest built upwards */
    struct ev_forest *g = ev_forest_empty(fs);
    CHECK_EQ_U(change(fs, &g, p[2], true), 0);
    CHECK_EQ_U(change(fs, &g, p[0], true), 0);
    CHECK_EQ_U(change(fs, &f[3], p[3], false), 0);
    CHECK_EQ_U(change(fs, &f[3], p[1], false), 0);
    CHECK(f[3] == g);
    CHECK_EQ_U(ev_forest_refs(g), 2);
    for (int k = 0; k < 4; k++)
        ev_forest_release(fs, f[k]);
    ev_forest_release(fs, g);
    struct ev_forest_stats st;
    ev_forests_stats(fs, &st);
    CHECK_EQ_U(st.alive, 1);
    ev_forests_destroy(fs);
    ev_registry_destroy(w.r);
}

static void union_of(void)
{
    struct world w;
    world_init(&w);
    struct ev_forests *fs = ev_forests_create(w.r);
    struct ev_pair p1 = pr(w.e[0], MON_HK_RCV, h1, NULL), p2 = pr(w.e[3], MON_HK_RCV, h2, NULL),
                   p3 = pr(w.e[4], MON_HK_SND, h1, NULL);
    struct ev_forest *a = ev_forest_empty(fs), *b = ev_forest_empty(fs), *abc = ev_forest_empty(fs);
    change(fs, &a, p1, true);
    change(fs, &a, p2, true);
    change(fs, &b, p2, true);
    change(fs, &b, p3, true);
    change(fs, &abc, p3, true);
    change(fs, &abc, p1, true);
    change(fs, &abc, p2, true);
    struct ev_forest *u = NULL;
    CHECK_EQ_U(ev_forest_union(fs, a, b, &u), 0);
    CHECK(u == abc);  /* {p1,p2} ∪ {p2,p3} is the forest {p1,p2,p3} */
    CHECK_EQ_U(ev_forest_npairs(u), 3);
    CHECK_EQ_U(ev_forest_refs(abc), 2);
    ev_forest_release(fs, u);
    /* union that must be built */
    ev_forest_release(fs, abc);
    CHECK_EQ_U(ev_forest_union(fs, b, a, &u), 0);
    CHECK_EQ_U(ev_forest_npairs(u), 3);
    CHECK(ev_forest_has(u, &p1) && ev_forest_has(u, &p2) && ev_forest_has(u, &p3));
    CHECK_EQ_U(ev_forest_refs(u), 1);
    struct ev_forest *u2 = NULL;
    CHECK_EQ_U(ev_forest_union(fs, a, b, &u2), 0);
    CHECK(u2 == u);
    ev_forest_release(fs, u2);
    ev_forest_release(fs, u);
    /* with the empty forest and with itself */
    struct ev_forest *e = ev_forest_empty(fs);
    CHECK_EQ_U(ev_forest_union(fs, e, a, &u), 0);
    CHECK(u == a);
    ev_forest_release(fs, u);
    CHECK_EQ_U(ev_forest_union(fs, a, a, &u), 0);
    CHECK(u == a);
    CHECK_EQ_U(ev_forest_refs(a), 2);
    ev_forest_release(fs, u);
    ev_forest_release(fs, e);
    ev_forest_release(fs, a);
    ev_forest_release(fs, b);
    struct ev_forest_stats st;
    ev_forests_stats(fs, &st);
    CHECK_EQ_U(st.alive, 1);
    ev_forests_destroy(fs);
    ev_registry_destroy(w.r);
}

/* Nodes: a pair brings its ancestors; common ancestors are one node; hooks are separate. */
static void shape(void)
{
    struct world w;
    world_init(&w);
    struct ev_forests *fs = ev_forests_create(w.r);
    struct ev_forest *f = ev_forest_empty(fs);
    change(fs, &f, pr(w.e[3], MON_HK_RCV, h1, NULL), true);
    CHECK_EQ_U(ev_forest_nodes(f, MON_HK_RCV), 4);  /* CONN_NEW_DATA → e0 → e1 → e3 */
    CHECK_EQ_U(ev_forest_nodes(f, MON_HK_SND), 0);
    CHECK_EQ_U(ev_forest_roots(f, MON_HK_RCV), 1u << MON_ON_CONN_NEW_DATA);
    CHECK_EQ_U(ev_forest_roots(f, MON_HK_SND), 0);
    change(fs, &f, pr(w.e[2], MON_HK_RCV, h1, NULL), true);
    CHECK_EQ_U(ev_forest_nodes(f, MON_HK_RCV), 5);  /* e2 shares CONN_NEW_DATA → e0 */
    change(fs, &f, pr(w.e[1], MON_HK_RCV, h2, NULL), true);
    CHECK_EQ_U(ev_forest_nodes(f, MON_HK_RCV), 5);  /* e1 already there: a handler, no node */
    change(fs, &f, pr(w.e[3], MON_HK_SND, h1, NULL), true);
    CHECK_EQ_U(ev_forest_nodes(f, MON_HK_SND), 4);  /* the other hook has its own tree */
    CHECK_EQ_U(ev_forest_roots(f, MON_HK_SND), 1u << MON_ON_CONN_NEW_DATA);
    change(fs, &f, pr(MON_ON_CONN_END, MON_HK_SND, h1, NULL), true);
    change(fs, &f, pr(w.e[4], MON_HK_SND, h1, NULL), true);
    CHECK_EQ_U(ev_forest_roots(f, MON_HK_SND),
               (1u << MON_ON_CONN_NEW_DATA) | (1u << MON_ON_CONN_END) | (1u << MON_ON_PKT_IN));
    CHECK_EQ_U(ev_forest_nodes(f, MON_HK_SND), 7);
    CHECK_EQ_U(ev_forest_roots(f, 2), 0);
    CHECK_EQ_U(ev_forest_npairs(f), 6);
    /* the same (event, handler, arg) at both hooks: two pairs, two ids */
    struct ev_forest *a = ev_forest_empty(fs), *b = ev_forest_empty(fs);
    change(fs, &a, pr(w.e[0], MON_HK_SND, h1, NULL), true);
    change(fs, &b, pr(w.e[0], MON_HK_RCV, h1, NULL), true);
    CHECK(a != b);
    ev_forest_release(fs, a);
    ev_forest_release(fs, b);
    ev_forest_release(fs, f);
    ev_forests_destroy(fs);
    ev_registry_destroy(w.r);
}

/* Many distinct forests alive at once: the table grows and finds each by id. */
static void many_forests(void)
{
    enum { N = 5000 };
    struct world w;
    world_init(&w);
    struct ev_forests *fs = ev_forests_create(w.r);
    struct ev_forest **f = malloc(N * sizeof *f);
    char *args = malloc(N);
    int errs = 0;
    for (int i = 0; i < N; i++) {
        f[i] = ev_forest_empty(fs);
        errs += change(fs, &f[i], pr(w.e[0], MON_HK_RCV, h1, NULL), true) != 0;
        errs += change(fs, &f[i], pr(w.e[3], MON_HK_RCV, h2, &args[i]), true) != 0;
    }
    CHECK_EQ_U(errs, 0);
    struct ev_forest_stats st;
    ev_forests_stats(fs, &st);
    CHECK_EQ_U(st.alive, N + 1);  /* N distinct + empty; the common {e0} one was freed */
    int found = 0;
    for (int i = 0; i < N; i++) {
        struct ev_forest *g = ev_forest_empty(fs);
        change(fs, &g, pr(w.e[3], MON_HK_RCV, h2, &args[i]), true);
        change(fs, &g, pr(w.e[0], MON_HK_RCV, h1, NULL), true);
        found += g == f[i];
        ev_forest_release(fs, g);
    }
    CHECK_EQ_U(found, N);
    for (int i = 0; i < N; i++)
        ev_forest_release(fs, f[i]);
    ev_forests_stats(fs, &st);
    CHECK_EQ_U(st.alive, 1);
    free(f);
    free(args);
    ev_forests_destroy(fs);
    ev_registry_destroy(w.r);
}

/* A whole set at once: the same forest as registering one by one; duplicates refused. */
static void from_pairs(void)
{
    struct world w;
    world_init(&w);
    struct ev_forests *fs = ev_forests_create(w.r);
    struct ev_pair p[3] = {pr(w.e[3], MON_HK_RCV, h1, NULL), pr(w.e[2], MON_HK_RCV, h2, NULL),
                           pr(MON_ON_CONN_END, MON_HK_SND, h1, NULL)};
    struct ev_forest *f = ev_forest_empty(fs), *g = NULL;
    for (int i = 2; i >= 0; i--)
        change(fs, &f, p[i], true);
    CHECK_EQ_U(ev_forest_from_pairs(fs, p, 3, &g), 0);
    CHECK(g == f);
    CHECK_EQ_U(ev_forest_refs(f), 2);
    ev_forest_release(fs, g);
    ev_forest_release(fs, f);
    CHECK_EQ_U(ev_forest_from_pairs(fs, p, 3, &g), 0);  /* built this time */
    CHECK_EQ_U(ev_forest_npairs(g), 3);
    CHECK_EQ_U(ev_forest_nodes(g, MON_HK_RCV), 5);
    ev_forest_release(fs, g);
    struct ev_pair dup[4] = {p[0], p[1], p[0], p[2]};
    g = NULL;
    CHECK_EQ_U(ev_forest_from_pairs(fs, dup, 4, &g), (uint64_t)MON_EINVAL);
    CHECK(g == NULL);
    CHECK_EQ_U(ev_forest_from_pairs(fs, NULL, 0, &g), 0);
    struct ev_forest *e = ev_forest_empty(fs);
    CHECK(g == e);
    ev_forest_release(fs, g);
    ev_forest_release(fs, e);
    struct ev_forest_stats st;
    ev_forests_stats(fs, &st);
    CHECK_EQ_U(st.alive, 1);
    ev_forests_destroy(fs);
    ev_registry_destroy(w.r);
}

int main(void)
{
    sharing();
    errors();
    order_independent();
    union_of();
    shape();
    many_forests();
    from_pairs();
    return unit_report("test_forest");
}
