/* test_core_rebind.c — mon_ctx_rebind: a context moves to another frozen engine (rule
 * reload) and keeps its flows: same flow record and id, TCP state and the stream's read
 * pointer carry on; the old handlers stop, the new sockets' handlers reach the old flows;
 * the application's per-flow context and the old engine's user slots are released once. */
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "mon.h"
#include "unit.h"

#define CLI 0x0a000001u
#define SVR 0x0a000002u

struct seen {
    int data, ends, filter_true;
    uint64_t flow_id;
    char bytes[64];
};

static struct seen seen_a, seen_b;
static int slot_freed, uctx_dropped, slot_a;

static void free_slot(struct mon_ctx *ctx, struct mon_flow *f, void *val, void *arg)
{
    (void)ctx, (void)f, (void)arg;
    free(val);
    slot_freed++;
}

static int slot_b_freed;

static void free_slot_b(struct mon_ctx *ctx, struct mon_flow *f, void *val, void *arg)
{
    (void)ctx, (void)f, (void)arg;
    free(val);
    slot_b_freed++;
}

static void on_data(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ev;
    struct seen *s = arg;
    s->data++;
    s->flow_id = f->id;
    char buf[64] = {0};
    ssize_t n = mon_peek(ctx, f, side, buf, sizeof buf - 1);
    size_t have = strlen(s->bytes);
    if (n > 0 && have + (size_t)n < sizeof s->bytes)
        memcpy(s->bytes + have, buf, (size_t)n + 1); /* buf is NUL-terminated at n */
    if (s == &seen_a && !mon_get_uctx(ctx, f)) {
        /* what an application hangs on a flow: its context and a library's slot */
        mon_set_uctx(ctx, f, malloc(16));
        CHECK(mon_set_uctx_slot(ctx, f, slot_a, malloc(8)) == MON_OK);
    }
    if (s == &seen_b) /* the new engine's slot on a flow from before: b's destructor frees it */
        CHECK(mon_set_uctx_slot(ctx, f, 0, malloc(8)) == MON_OK);
}

static void on_end(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ctx, (void)f, (void)side, (void)ev;
    ((struct seen *)arg)->ends++;
}

static bool says_world(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                       void *arg)
{
    (void)ctx, (void)f, (void)side, (void)ev, (void)arg;
    seen_b.filter_true++;
    return true;
}

static void drop_uctx(struct mon_ctx *ctx, struct mon_flow *f, void *arg)
{
    (void)arg;
    free(mon_get_uctx(ctx, f));
    uctx_dropped++;
}

static struct mon_engine *engine(bool defrag_off)
{
    struct mon_engine_cfg cfg;
    mon_engine_cfg_defaults(&cfg);
    cfg.decode.checksum_mode = MON_CSUM_NONE;
    cfg.defrag_off = defrag_off;
    return mon_engine_create(&cfg);
}

static void feed(struct mon_ctx *ctx, uint32_t src, uint16_t sport, uint32_t dst, uint16_t dport,
                 uint8_t flags, uint32_t seq, uint32_t ack, const char *data, uint64_t ts)
{
    struct test_frame t;
    mon_process(ctx, tf_build(&t, src, sport, dst, dport, 6, flags, seq, ack, data, ts));
}

static void test_rebind_keeps_flows(void)
{
    struct mon_engine *a = engine(false), *b = engine(false), *unfrozen = engine(false),
                      *nodefrag = engine(true);
    slot_a = mon_uctx_slot_alloc(a, free_slot, NULL);
    CHECK(slot_a == 0);
    int64_t ude = mon_define_event(b, MON_ON_CONN_NEW_DATA, says_world, NULL);
    CHECK(mon_uctx_slot_alloc(b, free_slot_b, NULL) == 0);
    CHECK(ude >= MON_EV_BUILTIN_COUNT);
    CHECK(mon_engine_freeze(a) == MON_OK);
    CHECK(mon_engine_freeze(b) == MON_OK);
    CHECK(mon_engine_freeze(nodefrag) == MON_OK);

    struct mon_ctx *ctx = mon_ctx_create(a, 0);
    static int worker_obj;
    CHECK(mon_ctx_slot_set(ctx, slot_a, &worker_obj) == MON_OK); /* a library's per-worker object */
    struct mon_sock *sa = mon_socket(ctx, MON_SOCK_STREAM, "tcp");
    CHECK(mon_register(ctx, sa, MON_ON_CONN_NEW_DATA, MON_HK_RCV, on_data, &seen_a) == MON_OK);
    CHECK(mon_register(ctx, sa, MON_ON_CONN_END, MON_HK_RCV, on_end, &seen_a) == MON_OK);

    feed(ctx, CLI, 40000, SVR, 80, MON_TH_SYN, 100, 0, NULL, 1000);
    feed(ctx, SVR, 80, CLI, 40000, MON_TH_SYN | MON_TH_ACK, 500, 101, NULL, 2000);
    feed(ctx, CLI, 40000, SVR, 80, MON_TH_ACK, 101, 501, NULL, 3000);
    feed(ctx, CLI, 40000, SVR, 80, MON_TH_ACK | MON_TH_PUSH, 101, 501, "hello", 4000);
    /* a second flow (UDP) that sees no packet after the rebind */
    struct test_frame t;
    mon_process(ctx, tf_build(&t, CLI, 5353, SVR, 53, 17, 0, 0, 0, "q", 4500));
    CHECK_EQ_U(seen_a.data, 1);
    CHECK(strcmp(seen_a.bytes, "hello") == 0);
    uint64_t id = seen_a.flow_id;

    /* refused without touching anything */
    CHECK(mon_ctx_rebind(ctx, unfrozen, drop_uctx, NULL) == MON_ENOTFROZEN);
    CHECK(mon_ctx_rebind(ctx, nodefrag, drop_uctx, NULL) == MON_EINVAL);
    CHECK_EQ_U(uctx_dropped, 0);

    CHECK(mon_ctx_rebind(ctx, b, drop_uctx, NULL) == MON_OK);
    CHECK_EQ_U(uctx_dropped, 2);   /* both live flows, once each */
    CHECK_EQ_U(slot_freed, 1);     /* the TCP flow's slot, by the old engine's destructor */
    CHECK_EQ_U(mon_flow_stats(mon_ctx_flows(ctx))->active, 2);
    CHECK(mon_uctx_slot_find(ctx, free_slot) == MON_ENOENT); /* the new engine's slot table */
    CHECK(mon_uctx_slot_find(ctx, free_slot_b) == 0);
    CHECK(mon_ctx_slot_get(ctx, 0) == NULL); /* the old library's object is not the new one's */

    struct mon_sock *sb = mon_socket(ctx, MON_SOCK_STREAM, NULL);
    CHECK(sb != NULL);
    CHECK(mon_register(ctx, sb, (mon_event_t)ude, MON_HK_RCV, on_data, &seen_b) == MON_OK);
    CHECK(mon_register(ctx, sb, MON_ON_CONN_END, MON_HK_RCV, on_end, &seen_b) == MON_OK);

    feed(ctx, CLI, 40000, SVR, 80, MON_TH_ACK | MON_TH_PUSH, 106, 501, "world", 5000);
    CHECK_EQ_U(seen_a.data, 1);            /* the old handlers are gone */
    CHECK_EQ_U(seen_b.data, 1);            /* the new UDE reaches the old flow */
    CHECK_EQ_U(seen_b.filter_true, 1);
    CHECK_EQ_U(seen_b.flow_id, id);        /* the same flow record */
    CHECK(strcmp(seen_b.bytes, "world") == 0); /* the stream read pointer carried on */
    CHECK_EQ_U(mon_flow_stats(mon_ctx_flows(ctx))->created, 2);

    mon_ctx_destroy(ctx);                  /* flush: CONN_END on the new forest */
    CHECK_EQ_U(seen_b.ends, 1);            /* the TCP flow; the UDP one has only an empty forest */
    CHECK_EQ_U(seen_a.ends, 0);
    CHECK_EQ_U(slot_freed, 1);
    CHECK_EQ_U(slot_b_freed, 1);
    mon_engine_destroy(a);
    mon_engine_destroy(b);
    mon_engine_destroy(unfrozen);
    mon_engine_destroy(nodefrag);
}

static struct mon_engine *g_b;
static int inside_rc = 1;

static void rebind_inside(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                          void *arg)
{
    (void)f, (void)side, (void)ev, (void)arg;
    inside_rc = mon_ctx_rebind(ctx, g_b, NULL, NULL);
}

static void test_rebind_refused_inside_a_handler(void)
{
    struct mon_engine *a = engine(false);
    g_b = engine(false);
    CHECK(mon_engine_freeze(a) == MON_OK);
    CHECK(mon_engine_freeze(g_b) == MON_OK);
    struct mon_ctx *ctx = mon_ctx_create(a, 0);
    struct mon_sock *s = mon_socket(ctx, MON_SOCK_STREAM, NULL);
    CHECK(mon_register(ctx, s, MON_ON_PKT_IN, MON_HK_SND, rebind_inside, NULL) == MON_OK);
    struct test_frame t;
    mon_process(ctx, tf_build(&t, CLI, 1, SVR, 2, 17, 0, 0, 0, "x", 1));
    CHECK(inside_rc == MON_ESTATE);
    /* an empty new engine: the flows stay, nobody listens any more */
    CHECK(mon_ctx_rebind(ctx, g_b, NULL, NULL) == MON_OK);
    mon_process(ctx, tf_build(&t, CLI, 1, SVR, 2, 17, 0, 0, 0, "y", 2));
    CHECK_EQ_U(mon_flow_stats(mon_ctx_flows(ctx))->created, 1);
    mon_ctx_destroy(ctx);
    mon_engine_destroy(a);
    mon_engine_destroy(g_b);
}

int main(void)
{
    test_rebind_keeps_flows();
    test_rebind_refused_inside_a_handler();
    return unit_report("test_core_rebind");
}
