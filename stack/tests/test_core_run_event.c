/* test_core_run_event.c — what UDE libraries need from libmon: per-flow slots with
 * destructors (mon_uctx_slot_alloc …) and running an event's subtree synchronously once per
 * application message (mon_run_event), including multi-event filters, nesting, and a packet
 * that has no flow. */
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "mon.h"
#include "unit.h"

#define A 0x0a000001u
#define B 0x0a000002u

static struct mon_engine *engine(void)
{
    struct mon_engine_cfg cfg;
    mon_engine_cfg_defaults(&cfg);
    cfg.decode.checksum_mode = MON_CSUM_NONE;
    return mon_engine_create(&cfg);
}

/* ---- slots ---- */
static int freed, end_seen_val, slot_a;

static void free_val(struct mon_ctx *ctx, struct mon_flow *f, void *val, void *arg)
{
    (void)ctx, (void)f;
    CHECK(arg == (void *)&freed);
    CHECK(end_seen_val == 7); /* the flow-end callback ran first and saw the slot */
    freed += *(int *)val;
    free(val);
}

static struct mon_ctx *g_ctx;

static void on_end(struct mon_flow *f, void *arg)
{
    (void)arg;
    int *v = mon_get_uctx_slot(g_ctx, f, slot_a);
    end_seen_val = v ? *v : -1;
}

static void store(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)side, (void)ev, (void)arg;
    if (mon_get_uctx_slot(ctx, f, slot_a))
        return;
    int *v = malloc(sizeof *v);
    *v = 7;
    CHECK(mon_set_uctx_slot(ctx, f, slot_a, v) == MON_OK);
    CHECK(mon_get_uctx_slot(ctx, f, 1) == NULL);
    mon_set_uctx(ctx, f, (void *)f); /* the application's pointer is a separate thing */
}

static void test_slots(void)
{
    struct mon_engine *e = engine();
    slot_a = mon_uctx_slot_alloc(e, free_val, &freed);
    CHECK(slot_a == 0);
    CHECK(mon_uctx_slot_alloc(e, NULL, NULL) == 1);
    for (int i = 2; i < MON_UCTX_SLOTS; i++)
        CHECK(mon_uctx_slot_alloc(e, NULL, NULL) == i);
    CHECK(mon_uctx_slot_alloc(e, NULL, NULL) == MON_ENOMEM);
    mon_engine_freeze(e);
    CHECK(mon_uctx_slot_alloc(e, NULL, NULL) == MON_EFROZEN);
    struct mon_ctx *ctx = g_ctx = mon_ctx_create(e, 0);
    CHECK(mon_uctx_slot_find(ctx, free_val) == slot_a);
    CHECK(mon_uctx_slot_find(ctx, NULL) == MON_ENOENT);
    CHECK(mon_ctx_slot_get(ctx, slot_a) == NULL);
    CHECK(mon_ctx_slot_set(ctx, slot_a, &freed) == MON_OK);
    CHECK(mon_ctx_slot_get(ctx, slot_a) == &freed);
    CHECK(mon_ctx_slot_set(ctx, MON_UCTX_SLOTS, &freed) == MON_EINVAL);
    CHECK(mon_ctx_slot_get(ctx, -1) == NULL);
    mon_set_flow_end_cb(ctx, on_end, NULL);
    struct mon_sock *s = mon_socket(ctx, MON_SOCK_STREAM, NULL);
    mon_register(ctx, s, MON_ON_PKT_IN, MON_HK_SND, store, NULL);
    struct test_frame t;
    mon_process(ctx, tf_build(&t, A, 5000, B, 53, 17, 0, 0, 0, "q", 1));
    mon_process(ctx, tf_build(&t, B, 53, A, 5000, 17, 0, 0, 0, "r", 2));
    mon_process(ctx, tf_build(&t, A, 5001, B, 53, 17, 0, 0, 0, "q", 3));
    CHECK_EQ_U(freed, 0);
    mon_flush(ctx);
    CHECK_EQ_U(freed, 14); /* two flows, each destructor once */
    CHECK(mon_set_uctx_slot(ctx, NULL, 0, NULL) == MON_EINVAL);
    mon_ctx_destroy(ctx);
    mon_engine_destroy(e);
}

/* ---- mon_run_event ---- */
static mon_event_t ev_msg, ev_even, ev_never, ev_multi, ev_kid, ev_unwatched;
static int cur_msg, seen[16], nseen, kids, nest_max, nest_rc;
static char order[64];

/* The "parser": each packet's payload is a list of messages, one character each; it runs the
 * message event once per message with that message current, then says false. */
static int hooks_seen;

static bool parse(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ev, (void)arg;
    hooks_seen |= 1 << mon_hook_now(ctx);
    const struct mon_packet *p = mon_getlastpkt(ctx);
    for (uint32_t i = 0; i < p->payload_len; i++) {
        cur_msg = p->payload[i] - '0';
        CHECK(mon_run_event(ctx, f, side, ev_msg) == 2); /* its SND and RCV trees */
    }
    CHECK(mon_run_event(ctx, f, side, ev_unwatched) == 0);
    return false;
}

static bool is_even(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ctx, (void)f, (void)side, (void)ev, (void)arg;
    return cur_msg % 2 == 0;
}

static bool never(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ctx, (void)f, (void)side, (void)ev, (void)arg;
    return false;
}

static bool multi(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)f, (void)side, (void)ev, (void)arg;
    if (cur_msg == 3)
        CHECK(mon_raise_event(ctx, ev_kid) == MON_OK);
    return true;
}

static void on_msg(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ctx, (void)f, (void)side, (void)ev;
    size_t n = strlen(order);
    if (n + 2 < sizeof order) {
        order[n] = *(const char *)arg;
        order[n + 1] = (char)('0' + cur_msg);
        order[n + 2] = 0;
    }
    if (*(const char *)arg == 'm' && nseen < 16)
        seen[nseen++] = cur_msg;
}

static void on_kid(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ctx, (void)f, (void)side, (void)ev, (void)arg;
    kids++;
}

static int depth;
static void recurse(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ev, (void)arg;
    if (cur_msg != 9)
        return;
    depth++;
    if (depth > nest_max)
        nest_max = depth;
    int rc = mon_run_event(ctx, f, side, ev_msg);
    if (rc < 0)
        nest_rc = rc;
    depth--;
}

static void test_run_event(void)
{
    struct mon_engine *e = engine();
    int64_t drv = mon_define_event(e, MON_ON_PKT_IN, parse, NULL);
    ev_msg = (mon_event_t)mon_alloc_event(e, (mon_event_t)drv);
    ev_unwatched = (mon_event_t)mon_alloc_event(e, (mon_event_t)drv);
    ev_even = (mon_event_t)mon_define_event(e, ev_msg, is_even, NULL);
    ev_never = (mon_event_t)mon_define_event(e, ev_msg, never, NULL);
    ev_multi = (mon_event_t)mon_define_event(e, ev_msg, multi, NULL);
    ev_kid = (mon_event_t)mon_alloc_event(e, ev_multi);
    mon_engine_freeze(e);
    struct mon_ctx *ctx = mon_ctx_create(e, 0);
    CHECK(mon_run_event(ctx, NULL, 0, ev_msg) == MON_EINVAL);
    struct mon_sock *s = mon_socket(ctx, MON_SOCK_STREAM, "udp");
    static const char m = 'm', v = 'e', n = 'n';
    mon_register(ctx, s, ev_msg, MON_HK_SND, on_msg, (void *)&m);
    mon_register(ctx, s, ev_even, MON_HK_RCV, on_msg, (void *)&v); /* other hook: run too */
    mon_register(ctx, s, ev_never, MON_HK_SND, on_msg, (void *)&n);
    mon_register(ctx, s, ev_kid, MON_HK_SND, on_kid, NULL);
    mon_register(ctx, s, ev_msg, MON_HK_SND, recurse, NULL);
    struct test_frame t;
    mon_process(ctx, tf_build(&t, A, 5000, B, 53, 17, 0, 0, 0, "1234", 1));
    /* PKT_IN runs in both phases: the driver filter is in both hooks' trees (its subtree has
     * handlers in each), so a real library parses each packet once (see parsers/); here each
     * phase's walk ran the four messages */
    CHECK_EQ_U(nseen, 8);
    CHECK(seen[0] == 1 && seen[1] == 2 && seen[2] == 3 && seen[3] == 4);
    /* per message: the SND tree (m), then the RCV tree (e for even ones) */
    CHECK(!strncmp(order, "m1m2e2m3m4e4", 12));
    CHECK_EQ_U(kids, 2); /* message 3 raised the multi-event child, once per phase */
    CHECK_EQ_U(hooks_seen, 3); /* the driver ran in the SND walk and in the RCV walk */
    CHECK(mon_hook_now(ctx) == -1);
    CHECK(mon_run_event(ctx, NULL, 0, MON_ON_PKT_IN) == MON_EINVAL);
    mon_process(ctx, tf_build(&t, A, 5000, B, 53, 17, 0, 0, 0, "9", 2));
    CHECK_EQ_U(nest_max, 4);
    CHECK(nest_rc == MON_ESTATE); /* the fifth level is refused */
    mon_ctx_destroy(ctx);
    mon_engine_destroy(e);
}

/* ---- a packet without a flow ---- */
static mon_event_t ev_pkt_ude;
static int flowless_runs, flowless_rc;

static bool always(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ctx, (void)f, (void)side, (void)ev, (void)arg;
    return true;
}

static void count_flowless(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                           void *arg)
{
    (void)ctx, (void)side, (void)ev, (void)arg;
    if (!f)
        flowless_runs++;
}

static void on_orphan_run(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                          void *arg)
{
    (void)ev, (void)arg;
    if (!f)
        flowless_rc = mon_run_event(ctx, NULL, side, ev_pkt_ude);
}

static void test_run_event_without_flow(void)
{
    struct mon_engine *e = engine();
    ev_pkt_ude = (mon_event_t)mon_define_event(e, MON_ON_PKT_IN, always, NULL);
    mon_engine_freeze(e);
    struct mon_ctx *ctx = mon_ctx_create(e, 0);
    struct mon_sock *s = mon_socket(ctx, MON_SOCK_STREAM, NULL);
    mon_register(ctx, s, MON_ON_ORPHAN, MON_HK_SND, on_orphan_run, NULL);
    mon_register(ctx, s, ev_pkt_ude, MON_HK_SND, count_flowless, NULL);
    struct test_frame t;
    /* a UDP length that disagrees with the datagram: invalid, no flow, ORPHAN: the UDE's
     * subtree runs in the socket's forest with no flow */
    struct mon_packet *p = tf_build(&t, A, 5000, B, 53, 17, 0, 0, 0, "q", 1);
    t.b[14 + 20 + 5] = 3;
    mon_process(ctx, p);
    CHECK_EQ_U(flowless_rc, 1);
    CHECK_EQ_U(flowless_runs, 1);
    CHECK(mon_run_event(ctx, NULL, 0, ev_pkt_ude) == MON_EINVAL); /* outside a walk */
    mon_ctx_destroy(ctx);
    mon_engine_destroy(e);
}

int main(void)
{
    test_slots();
    test_run_event();
    test_run_event_without_flow();
    return unit_report("test_core_run_event");
}
