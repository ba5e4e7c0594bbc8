/* test_core.c — libmon's public API end to end on hand-built frames: engine and event
 * definition rules, sockets and scopes, phase order, per-flow registration sharing forests,
 * what handlers may do in which phase. */
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "mon.h"
#include "unit.h"

#define A 0x0a000001u
#define B 0x0a000002u

struct log {
    char ev[64][24];
    int side[64];
    int n;
    int set_rc, drop_rc;
};

static void rec(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ctx, (void)f;
    struct log *l = arg;
    if (l->n < 64) {
        snprintf(l->ev[l->n], sizeof l->ev[0], "%s", mon_event_name(ev));
        l->side[l->n] = side;
    }
    l->n++;
}

static bool is_port_53(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ctx, (void)side, (void)ev, (void)arg;
    return f && f->sport == 53;
}

static struct mon_engine *engine(void)
{
    struct mon_engine_cfg cfg;
    mon_engine_cfg_defaults(&cfg);
    cfg.decode.checksum_mode = MON_CSUM_NONE;
    return mon_engine_create(&cfg);
}

static void test_engine_rules(void)
{
    struct mon_engine *e = engine();
    int64_t a = mon_define_event(e, MON_ON_PKT_IN, is_port_53, NULL);
    int64_t b = mon_define_event(e, MON_ON_PKT_IN, is_port_53, NULL);
    int64_t c = mon_define_event(e, MON_ON_PKT_IN, is_port_53, (void *)1);
    CHECK(a >= MON_EV_BUILTIN_COUNT);
    CHECK(a == b);                     /* same (base, filter, arg): same event */
    CHECK(c != a);
    CHECK(mon_define_event(e, 99999, is_port_53, NULL) == MON_ENOENT);
    CHECK(mon_ctx_create(e, 0) == NULL);  /* not frozen yet */
    CHECK(mon_engine_freeze(e) == MON_OK);
    CHECK(mon_define_event(e, MON_ON_PKT_IN, is_port_53, (void *)2) == MON_EFROZEN);
    struct mon_ctx *ctx = mon_ctx_create(e, 0);
    CHECK(ctx != NULL);
    CHECK(mon_socket(ctx, MON_SOCK_STREAM, "tcp port nonsense") == NULL);
    CHECK(strstr(mon_errmsg(ctx), "nonsense") != NULL);
    struct mon_sock *s = mon_socket(ctx, MON_SOCK_STREAM, "udp");
    struct log l = {0};
    CHECK(mon_register(ctx, s, (mon_event_t)a, MON_HK_SND, rec, &l) == MON_OK);
    CHECK(mon_register(ctx, s, (mon_event_t)a, MON_HK_SND, rec, &l) == MON_EINVAL);
    CHECK(mon_register(ctx, s, 4242, MON_HK_SND, rec, &l) == MON_ENOENT);
    CHECK(mon_deregister(ctx, s, (mon_event_t)a, MON_HK_SND, rec, &l) == MON_OK);
    CHECK(mon_deregister(ctx, s, (mon_event_t)a, MON_HK_SND, rec, &l) == MON_EINVAL);
    mon_ctx_destroy(ctx);
    mon_engine_destroy(e);
}

static void test_udp_events_and_scope(void)
{
    struct mon_engine *e = engine();
    int64_t dns = mon_define_event(e, MON_ON_PKT_IN, is_port_53, NULL);
    mon_engine_freeze(e);
    struct mon_ctx *ctx = mon_ctx_create(e, 0);
    struct mon_sock *s = mon_socket(ctx, MON_SOCK_STREAM, "udp");
    struct log l = {0};
    mon_register(ctx, s, MON_ON_CONN_START, MON_HK_SND, rec, &l);
    mon_register(ctx, s, (mon_event_t)dns, MON_HK_SND, rec, &l);
    mon_register(ctx, s, MON_ON_CONN_END, MON_HK_RCV, rec, &l);
    struct test_frame t;
    mon_process(ctx, tf_build(&t, A, 5000, B, 53, 17, 0, 0, 0, "q", 1));
    mon_process(ctx, tf_build(&t, B, 53, A, 5000, 17, 0, 0, 0, "r", 2));
    mon_process(ctx, tf_build(&t, A, 5000, B, 80, 17, 0, 0, 0, "x", 3)); /* not DNS */
    /* TCP is out of the socket's scope: no events */
    mon_process(ctx, tf_build(&t, A, 1, B, 2, 6, 0x02, 1, 0, NULL, 4));
    mon_flush(ctx);
    /* PKT_IN's tree (the UDE) runs before CONN_START: built-in priority, not definition order */
    CHECK_EQ_U(l.n, 6);
    CHECK(!strcmp(l.ev[0], "UDE") && l.side[0] == MON_SIDE_CLI);
    CHECK(!strcmp(l.ev[1], "CONN_START") && l.side[1] == MON_SIDE_CLI);
    CHECK(!strcmp(l.ev[2], "UDE") && l.side[2] == MON_SIDE_SVR);
    CHECK(!strcmp(l.ev[3], "CONN_START")); /* the port-80 flow: its UDE filter said no */
    CHECK(!strcmp(l.ev[4], "CONN_END") && !strcmp(l.ev[5], "CONN_END"));
    mon_ctx_destroy(ctx);
    mon_engine_destroy(e);
}

static struct mon_engine *g_eng;
static mon_event_t g_extra;

static void add_on_flow(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)side, (void)ev;
    /* register one more handler on this flow only: the forest is swapped, not copied */
    CHECK(mon_register_flow(ctx, f, MON_ON_PKT_IN, MON_HK_RCV, rec, arg) == MON_OK);
}

static void test_flow_registration_shares_forests(void)
{
    g_eng = engine();
    mon_engine_freeze(g_eng);
    struct mon_ctx *ctx = mon_ctx_create(g_eng, 0);
    struct mon_sock *s = mon_socket(ctx, MON_SOCK_STREAM, NULL);
    struct log l = {0};
    mon_register(ctx, s, MON_ON_CONN_START, MON_HK_SND, add_on_flow, &l);
    struct test_frame t;
    for (uint16_t i = 0; i < 100; i++)
        mon_process(ctx, tf_build(&t, A, (uint16_t)(1000 + i), B, 53, 17, 0, 0, 0, "q", 1));
    const struct mon_event_stats *st = mon_ctx_event_stats(ctx);
    /* the empty forest, the socket's forest, and ONE forest shared by the 100 changed flows */
    CHECK_EQ_U(st->forests, 3);
    CHECK_EQ_U(l.n, 100); /* PKT_IN (receiver hook) ran on each flow after the change */
    mon_process(ctx, tf_build(&t, B, 53, A, 1000, 17, 0, 0, 0, "r", 2));
    CHECK_EQ_U(l.n, 101);
    mon_flush(ctx);
    st = mon_ctx_event_stats(ctx);
    CHECK_EQ_U(st->forests, 2); /* the shared one went with its last flow */
    mon_ctx_destroy(ctx);
    mon_engine_destroy(g_eng);
    (void)g_extra;
}

/* mon_ctx_prepare builds each stream socket's forest and that of a flow every socket takes;
 * the first flows then build none (they would have, at their first packet). */
static void test_prepare_builds_forests_first(void)
{
    struct mon_engine *e = engine();
    mon_engine_freeze(e);
    struct mon_ctx *ctx = mon_ctx_create(e, 0);
    struct mon_sock *a = mon_socket(ctx, MON_SOCK_STREAM, NULL);
    struct mon_sock *b = mon_socket(ctx, MON_SOCK_STREAM, "udp");
    struct log l = {0};
    mon_register(ctx, a, MON_ON_CONN_START, MON_HK_SND, rec, &l);
    mon_register(ctx, b, MON_ON_CONN_END, MON_HK_RCV, rec, &l);
    const struct mon_event_stats *st = mon_ctx_event_stats(ctx);
    uint64_t before = st->forests_created;
    CHECK(mon_ctx_prepare(ctx) == MON_OK);
    st = mon_ctx_event_stats(ctx);
    CHECK_EQ_U(st->forests_created, before + 3); /* a's, b's, and the two together */
    struct test_frame t;
    mon_process(ctx, tf_build(&t, A, 5000, B, 53, 17, 0, 0, 0, "q", 1));  /* both sockets */
    mon_process(ctx, tf_build(&t, A, 1, B, 2, 6, 0x02, 1, 0, NULL, 2));     /* a only */
    st = mon_ctx_event_stats(ctx);
    CHECK_EQ_U(st->forests_created, before + 3);
    CHECK(mon_ctx_prepare(ctx) == MON_OK); /* again: nothing new */
    CHECK_EQ_U(mon_ctx_event_stats(ctx)->forests_created, before + 3);
    mon_flush(ctx);
    CHECK_EQ_U(l.n, 3); /* CONN_START of both flows (a), CONN_END of the UDP one (b) */
    mon_ctx_destroy(ctx);
    mon_engine_destroy(e);
}

static void try_set_and_drop(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)f, (void)side, (void)ev;
    struct log *l = arg;
    l->set_rc = mon_setlastpkt(ctx, MON_AT_PAYLOAD, 0, "Z", 1);
    l->drop_rc = mon_drop(ctx);
}

static void test_phase_rules(void)
{
    struct mon_engine *e = engine();
    mon_engine_freeze(e);
    struct mon_ctx *ctx = mon_ctx_create(e, 0);
    struct mon_sock *s = mon_socket(ctx, MON_SOCK_STREAM, "udp");
    struct log snd = {0}, rcv = {0};
    mon_register(ctx, s, MON_ON_PKT_IN, MON_HK_SND, try_set_and_drop, &snd);
    mon_register(ctx, s, MON_ON_PKT_IN, MON_HK_RCV, try_set_and_drop, &rcv);
    struct test_frame t;
    struct mon_packet *p = tf_build(&t, A, 7, B, 9, 17, 0, 0, 0, "abc", 1);
    mon_process(ctx, p);
    CHECK(snd.set_rc == MON_OK && snd.drop_rc == MON_OK);
    CHECK(p->flags & MON_PKT_DROPPED);
    CHECK(p->flags & MON_PKT_MODIFIED);
    CHECK(t.b[14 + 20 + 8] == 'Z');      /* the payload's first byte was rewritten */
    CHECK(rcv.set_rc == 0 && rcv.drop_rc == 0); /* dropped: the receiver side never ran */
    /* flows created after a deregistration no longer have the handler */
    mon_deregister(ctx, s, MON_ON_PKT_IN, MON_HK_SND, try_set_and_drop, &snd);
    p = tf_build(&t, A, 8, B, 9, 17, 0, 0, 0, "abc", 2);
    mon_process(ctx, p);
    CHECK(rcv.set_rc == MON_ESTATE && rcv.drop_rc == MON_ESTATE);
    CHECK(!(p->flags & MON_PKT_DROPPED));
    CHECK(mon_getlastpkt(ctx) == NULL);  /* only valid inside handlers */
    mon_ctx_destroy(ctx);
    mon_engine_destroy(e);
}

static void test_orphan_and_raw(void)
{
    struct mon_engine *e = engine();
    mon_engine_freeze(e);
    struct mon_ctx *ctx = mon_ctx_create(e, 0);
    struct mon_sock *s = mon_socket(ctx, MON_SOCK_STREAM, NULL);
    struct mon_sock *r = mon_socket(ctx, MON_SOCK_RAW, "udp port 9");
    struct log ls = {0}, lr = {0};
    mon_register(ctx, s, MON_ON_ORPHAN, MON_HK_SND, rec, &ls);
    mon_register(ctx, r, MON_ON_PKT_IN, MON_HK_SND, rec, &lr);
    struct test_frame t;
    /* midstream is off: a TCP ACK with no SYN belongs to no connection */
    mon_process(ctx, tf_build(&t, A, 1, B, 2, 6, 0x10, 5, 5, "data", 1));
    CHECK_EQ_U(ls.n, 1);
    CHECK(!strcmp(ls.ev[0], "ORPHAN"));
    mon_process(ctx, tf_build(&t, A, 7, B, 9, 17, 0, 0, 0, "u", 2));
    mon_process(ctx, tf_build(&t, A, 7, B, 10, 17, 0, 0, 0, "u", 3));
    CHECK_EQ_U(lr.n, 1); /* the raw socket saw only its scope */
    mon_ctx_destroy(ctx);
    mon_engine_destroy(e);
}

/* mon_set_conn_closed_cb: once per connection, after the CONN_END handlers of the closing
 * packet; then the streams' buffers are gone (mon_peek: no buffer) while the flow lives on. */
struct closed_log {
    int conn_end, closed, ended;
    int order_ok;
    ssize_t peek_in_end, peek_after;
    struct mon_ctx *ctx;
    struct mon_flow *f;
};

static void on_end_handler(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                           void *arg)
{
    (void)ev;
    struct closed_log *l = arg;
    char b[16];
    l->conn_end++;
    l->peek_in_end = mon_peek(ctx, f, side, b, sizeof b); /* read before the close: 0 left */
}

static void on_closed(struct mon_flow *f, void *arg)
{
    struct closed_log *l = arg;
    l->closed++;
    l->order_ok = l->conn_end == 1;
    l->f = f;
}

static void on_flow_end_rec(struct mon_flow *f, void *arg)
{
    (void)f;
    ((struct closed_log *)arg)->ended++;
}

static void test_conn_closed_callback(void)
{
    struct mon_engine *e = engine();
    mon_engine_freeze(e);
    struct mon_ctx *ctx = mon_ctx_create(e, 0);
    struct mon_sock *s = mon_socket(ctx, MON_SOCK_STREAM, NULL);
    struct closed_log l = {0};
    mon_register(ctx, s, MON_ON_CONN_END, MON_HK_RCV, on_end_handler, &l);
    mon_set_conn_closed_cb(ctx, on_closed, &l);
    mon_set_flow_end_cb(ctx, on_flow_end_rec, &l);
    struct test_frame t;
    mon_process(ctx, tf_build(&t, A, 1, B, 2, 6, 0x02, 100, 0, NULL, 1));       /* SYN */
    mon_process(ctx, tf_build(&t, B, 2, A, 1, 6, 0x12, 500, 101, NULL, 2));     /* SYN-ACK */
    mon_process(ctx, tf_build(&t, A, 1, B, 2, 6, 0x10, 101, 501, NULL, 3));     /* ACK */
    mon_process(ctx, tf_build(&t, A, 1, B, 2, 6, 0x18, 101, 501, "hello", 4));  /* data */
    mon_process(ctx, tf_build(&t, B, 2, A, 1, 6, 0x10, 501, 106, NULL, 5));
    CHECK_EQ_U(l.closed, 0);
    mon_process(ctx, tf_build(&t, A, 1, B, 2, 6, 0x11, 106, 501, NULL, 6));     /* FIN */
    mon_process(ctx, tf_build(&t, B, 2, A, 1, 6, 0x11, 501, 107, NULL, 7));     /* FIN */
    mon_process(ctx, tf_build(&t, A, 1, B, 2, 6, 0x10, 107, 502, NULL, 8));     /* last ACK */
    CHECK_EQ_U(l.conn_end, 1);
    CHECK_EQ_U(l.closed, 1);
    CHECK(l.order_ok);
    CHECK(l.peek_in_end >= 0); /* the CONN_END handlers still had the stream */
    CHECK_EQ_U(l.ended, 0); /* the flow itself is still there */
    char b[16];
    CHECK(mon_peek(ctx, l.f, MON_SIDE_SVR, b, sizeof b) == MON_ENOBUF);
    mon_process(ctx, tf_build(&t, B, 2, A, 1, 6, 0x11, 501, 107, NULL, 9));     /* FIN again */
    CHECK_EQ_U(l.closed, 1); /* once per connection */
    mon_flush(ctx);
    CHECK_EQ_U(l.ended, 1);
    mon_ctx_destroy(ctx);
    mon_engine_destroy(e);
}

int main(void)
{
    test_engine_rules();
    test_udp_events_and_scope();
    test_flow_registration_shares_forests();
    test_prepare_builds_forests_first();
    test_phase_rules();
    test_orphan_and_raw();
    test_conn_closed_callback();
    return unit_report("test_core");
}
