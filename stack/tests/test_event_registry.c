/* test_event_registry.c — the d-forest: built-ins, UDE dedup on (base, filter, arg), chains
 * (root, depth), children of multi-event filters, freezing, growth to many events. */
#include <stdint.h>
#include <stdlib.h>

#include "event_contract_internal.h"
#include "unit.h"

static bool f_a(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e, (void)a;
    return true;
}

static bool f_b(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e, (void)a;
    return false;
}

static void builtins(void)
{
    struct ev_registry *r = ev_registry_create();
    CHECK(r != NULL);
    CHECK_EQ_U(ev_count(r), MON_EV_BUILTIN_COUNT);
    for (mon_event_t b = 0; b < MON_EV_BUILTIN_COUNT; b++) {
        CHECK(ev_exists(r, b));
        CHECK_EQ_U(ev_root(r, b), b);
        CHECK_EQ_U(ev_base(r, b), b);
        CHECK_EQ_U(ev_depth(r, b), 0);
        CHECK(!ev_is_child(r, b));
    }
    CHECK(!ev_exists(r, MON_EV_BUILTIN_COUNT));
    CHECK(!ev_registry_frozen(r));
    ev_registry_destroy(r);
    ev_registry_destroy(NULL);
}

static void define_dedup(void)
{
    struct ev_registry *r = ev_registry_create();
    int x, y;
    int64_t e1 = ev_define(r, MON_ON_CONN_NEW_DATA, f_a, &x);
    CHECK_EQ_U(e1, MON_EV_BUILTIN_COUNT);                       /* dense ids */
    CHECK_EQ_U(ev_define(r, MON_ON_CONN_NEW_DATA, f_a, &x), e1); /* same triple, same id */
    int64_t e_arg = ev_define(r, MON_ON_CONN_NEW_DATA, f_a, &y);
    int64_t e_fn = ev_define(r, MON_ON_CONN_NEW_DATA, f_b, &x);
    int64_t e_base = ev_define(r, MON_ON_PKT_IN, f_a, &x);
    int64_t e_null = ev_define(r, MON_ON_CONN_NEW_DATA, f_a, NULL);
    CHECK_EQ_U(e_arg, e1 + 1);
    CHECK_EQ_U(e_fn, e1 + 2);
    CHECK_EQ_U(e_base, e1 + 3);
    CHECK_EQ_U(e_null, e1 + 4);
    CHECK_EQ_U(ev_count(r), MON_EV_BUILTIN_COUNT + 5);

    /* a chain: root and depth are inherited */
    int64_t e2 = ev_define(r, (mon_event_t)e1, f_a, &x);
    int64_t e3 = ev_define(r, (mon_event_t)e2, f_b, NULL);
    CHECK(e2 > e1 && e3 > e2);
    CHECK_EQ_U(ev_root(r, (mon_event_t)e3), MON_ON_CONN_NEW_DATA);
    CHECK_EQ_U(ev_base(r, (mon_event_t)e3), e2);
    CHECK_EQ_U(ev_depth(r, (mon_event_t)e1), 1);
    CHECK_EQ_U(ev_depth(r, (mon_event_t)e3), 3);
    CHECK_EQ_U(ev_define(r, (mon_event_t)e2, f_b, NULL), e3);

    /* errors */
    CHECK_EQ_U(ev_define(r, 100000, f_a, NULL), (uint64_t)MON_ENOENT);
    CHECK_EQ_U(ev_define(r, MON_ON_PKT_IN, NULL, NULL), (uint64_t)MON_EINVAL);
    CHECK_EQ_U(ev_define(NULL, MON_ON_PKT_IN, f_a, NULL), (uint64_t)MON_EINVAL);
    ev_registry_destroy(r);
}

static void alloc_children(void)
{
    struct ev_registry *r = ev_registry_create();
    int64_t m = ev_define(r, MON_ON_CONN_NEW_DATA, f_a, NULL);
    int64_t c1 = ev_alloc(r, (mon_event_t)m);
    int64_t c2 = ev_alloc(r, (mon_event_t)m);
    CHECK(c1 > m && c2 == c1 + 1);  /* never dedup'd: each call is a new child */
    CHECK(ev_is_child(r, (mon_event_t)c1));
    CHECK_EQ_U(ev_base(r, (mon_event_t)c1), m);
    CHECK_EQ_U(ev_root(r, (mon_event_t)c2), MON_ON_CONN_NEW_DATA);
    CHECK_EQ_U(ev_depth(r, (mon_event_t)c2), 2);
    /* a UDE may extend a child (a rule below a fast-pattern hit) */
    int64_t u = ev_define(r, (mon_event_t)c1, f_b, NULL);
    CHECK_EQ_U(ev_base(r, (mon_event_t)u), c1);
    CHECK_EQ_U(ev_depth(r, (mon_event_t)u), 3);
    CHECK(!ev_is_child(r, (mon_event_t)u));
    /* only a UDE with a filter can raise children */
    CHECK_EQ_U(ev_alloc(r, MON_ON_PKT_IN), (uint64_t)MON_EINVAL);
    CHECK_EQ_U(ev_alloc(r, (mon_event_t)c1), (uint64_t)MON_EINVAL);
    CHECK_EQ_U(ev_alloc(r, 99999), (uint64_t)MON_ENOENT);
    ev_registry_destroy(r);
}

static void freeze(void)
{
    struct ev_registry *r = ev_registry_create();
    int64_t e = ev_define(r, MON_ON_PKT_IN, f_a, NULL);
    ev_registry_freeze(r);
    CHECK(ev_registry_frozen(r));
    CHECK_EQ_U(ev_define(r, MON_ON_PKT_IN, f_b, NULL), (uint64_t)MON_EFROZEN);
    CHECK_EQ_U(ev_define(r, MON_ON_PKT_IN, f_a, NULL), (uint64_t)MON_EFROZEN);
    CHECK_EQ_U(ev_alloc(r, (mon_event_t)e), (uint64_t)MON_EFROZEN);
    CHECK_EQ_U(ev_count(r), MON_EV_BUILTIN_COUNT + 1);
    CHECK(ev_exists(r, (mon_event_t)e));
    ev_registry_destroy(r);
}

/* The first 100 on CONN_NEW_DATA, then event i on event i/100: a wide, deep d-forest. */
static mon_event_t base_of(int i)
{
    return i < 100 ? MON_ON_CONN_NEW_DATA : (mon_event_t)(MON_EV_BUILTIN_COUNT + i / 100);
}

/* Many definitions: the array and the dedup table grow; every id stays found. */
static void many(void)
{
    enum { N = 100000 };
    struct ev_registry *r = ev_registry_create();
    char *args = malloc(N);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        mon_event_t base = base_of(i);
        if (ev_define(r, base, f_a, &args[i]) != MON_EV_BUILTIN_COUNT + i)
            bad++;
    }
    CHECK_EQ_U(bad, 0);
    CHECK_EQ_U(ev_count(r), MON_EV_BUILTIN_COUNT + N);
    for (int i = 0; i < N; i++) {
        mon_event_t base = base_of(i);
        if (ev_define(r, base, f_a, &args[i]) != MON_EV_BUILTIN_COUNT + i)
            bad++;
    }
    CHECK_EQ_U(bad, 0);
    CHECK_EQ_U(ev_count(r), MON_EV_BUILTIN_COUNT + N);
    CHECK_EQ_U(ev_root(r, MON_EV_BUILTIN_COUNT + N - 1), MON_ON_CONN_NEW_DATA);
    free(args);
    ev_registry_destroy(r);
}

int main(void)
{
    builtins();
    define_dedup();
    alloc_children();
    freeze();
    many();
    return unit_report("test_event_registry");
}
