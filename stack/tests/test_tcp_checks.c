/* test_tcp_checks.c — the stream events of Suricata's state machine (tcp_checks.c): the exact
 * phase-1 event bits of each packet, and none on ordinary connections. (That a packet raising
 * one is handled as before holds by construction: the checks read the connection const.) */
#include "test_tcp_util.h"

#define B(e) (1ull << MON_TE_##e)

/* Phase-1 events of one packet (the sender's; tcp_receiver adds only REASM_*). */
static uint64_t ev(struct tconn *c, int from, uint8_t flags, uint32_t seq, uint32_t ack,
                   const char *data)
{
    tc_pkt(c, from, flags, seq, ack, data, data ? (uint32_t)strlen(data) : 0);
    return c->t.pkt_events & ~(B(REASM_GAP) | B(REASM_OVERLAP_DIFF) | B(REASM_DEPTH) |
                               B(REASM_RECLAIM));
}

/* Every close order, with data, and a simultaneous open: nothing to report. */
static void test_ordinary_connections_raise_nothing(void)
{
    struct tconn c;
    tc_init(&c, NULL);
    CHECK_EQ_U(ev(&c, CLI, F_S, 1000, 0, NULL), 0);
    CHECK_EQ_U(ev(&c, SVR, F_S | F_A, 5000, 1001, NULL), 0);
    CHECK_EQ_U(ev(&c, CLI, F_A, 1001, 5001, NULL), 0);
    CHECK_EQ_U(ev(&c, CLI, F_A | F_P, 1001, 5001, "GET /"), 0);
    CHECK_EQ_U(ev(&c, SVR, F_A | F_P, 5001, 1006, "200 OK"), 0);
    CHECK_EQ_U(ev(&c, CLI, F_A, 1006, 5007, NULL), 0);
    CHECK_EQ_U(ev(&c, CLI, F_A, 1005, 5007, NULL), 0); /* a keep-alive */
    CHECK_EQ_U(ev(&c, CLI, F_F | F_A, 1006, 5007, NULL), 0);
    CHECK_EQ_U(ev(&c, SVR, F_A, 5007, 1007, NULL), 0);
    CHECK_EQ_U(ev(&c, SVR, F_F | F_A, 5007, 1007, NULL), 0);
    CHECK_EQ_U(ev(&c, CLI, F_A, 1007, 5008, NULL), 0);
    tc_free(&c);

    /* the server closes first */
    tc_init(&c, NULL);
    tc_handshake(&c, 10, 20);
    CHECK_EQ_U(ev(&c, SVR, F_F | F_A, 21, 11, NULL), 0);
    CHECK_EQ_U(ev(&c, CLI, F_A, 11, 22, NULL), 0);
    CHECK_EQ_U(ev(&c, CLI, F_A | F_P, 11, 22, "late"), 0); /* half close: it may still send */
    CHECK_EQ_U(ev(&c, SVR, F_A, 22, 15, NULL), 0);
    CHECK_EQ_U(ev(&c, CLI, F_F | F_A, 15, 22, NULL), 0);
    CHECK_EQ_U(ev(&c, SVR, F_A, 22, 16, NULL), 0);
    tc_free(&c);

    /* the FINs cross */
    tc_init(&c, NULL);
    tc_handshake(&c, 10, 20);
    CHECK_EQ_U(ev(&c, SVR, F_F | F_A, 21, 11, NULL), 0);
    CHECK_EQ_U(ev(&c, CLI, F_F | F_A, 11, 21, NULL), 0);
    CHECK_EQ_U(ev(&c, CLI, F_A, 12, 22, NULL), 0);
    CHECK_EQ_U(ev(&c, SVR, F_A, 22, 12, NULL), 0);
    tc_free(&c);

    /* simultaneous open (Suricata's four-way handshake) */
    tc_init(&c, NULL);
    CHECK_EQ_U(ev(&c, CLI, F_S, 100, 0, NULL), 0);
    CHECK_EQ_U(ev(&c, SVR, F_S, 200, 0, NULL), 0);
    CHECK_EQ_U(ev(&c, CLI, F_S | F_A, 100, 201, NULL), 0);
    CHECK_EQ_U(ev(&c, SVR, F_S | F_A, 200, 101, NULL), 0);
    tc_free(&c);
}

/* The events of one packet sent after setup(), on a fresh connection (a packet with a wrong
 * ack may still move what libmon believes — capture loss — so each check starts anew). */
static uint64_t one(void (*setup)(struct tconn *), const struct mon_tcp_cfg *cfg, int from,
                    uint8_t flags, uint32_t seq, uint32_t ack, const char *data)
{
    struct tconn c;
    tc_init(&c, cfg);
    setup(&c);
    uint64_t e = ev(&c, from, flags, seq, ack, data);
    tc_free(&c);
    return e;
}

static void syn_sent(struct tconn *c) { tc_pkt(c, CLI, F_S, 1000, 0, NULL, 0); }
static void syn_recv(struct tconn *c)
{
    syn_sent(c);
    tc_pkt(c, SVR, F_S | F_A, 5000, 1001, NULL, 0);
}
static void four_way(struct tconn *c)
{
    syn_sent(c);
    tc_pkt(c, SVR, F_S, 5000, 0, NULL, 0);
}
static void four_way_synack(struct tconn *c) /* ... and the client's SYN-ACK */
{
    four_way(c);
    tc_pkt(c, CLI, F_S | F_A, 1000, 5001, NULL, 0);
}
static void est(struct tconn *c) { tc_handshake(c, 1000, 5000); }
static void est_data(struct tconn *c) /* the client sent 5 bytes, acknowledged */
{
    est(c);
    tc_pkt(c, CLI, F_A | F_P, 1001, 5001, "hello", 5);
    tc_pkt(c, SVR, F_A, 5001, 1006, NULL, 0);
}
static void fin1(struct tconn *c) /* the server's FIN first */
{
    est(c);
    tc_pkt(c, SVR, F_F | F_A, 5001, 1001, NULL, 0);
}
static void fin2(struct tconn *c)
{
    fin1(c);
    tc_pkt(c, CLI, F_A, 1001, 5002, NULL, 0);
}
static void time_wait(struct tconn *c)
{
    fin2(c);
    tc_pkt(c, CLI, F_F | F_A, 1001, 5002, NULL, 0);
}
static void closing(struct tconn *c) /* the FINs cross */
{
    fin1(c);
    tc_pkt(c, CLI, F_F | F_A, 1001, 5001, NULL, 0);
}
static void close_wait(struct tconn *c) /* the client's FIN first, after its data */
{
    est_data(c);
    tc_pkt(c, CLI, F_F | F_A, 1006, 5001, NULL, 0);
}
static void close_wait_acked(struct tconn *c)
{
    close_wait(c);
    tc_pkt(c, SVR, F_A, 5001, 1007, NULL, 0);
}
static void last_ack(struct tconn *c)
{
    close_wait_acked(c);
    tc_pkt(c, SVR, F_F | F_A, 5001, 1007, NULL, 0);
}

static void test_handshake_checks(void)
{
    CHECK_EQ_U(one(syn_sent, NULL, SVR, F_S | F_A, 5000, 999, NULL), B(SYNACK_WRONG_ACK));
    CHECK_EQ_U(one(syn_recv, NULL, SVR, F_S | F_A, 5000, 1001, NULL), 0);
    CHECK_EQ_U(one(syn_recv, NULL, SVR, F_S | F_A, 5000, 1234, NULL), B(SYNACK_RESEND_DIFF_ACK));
    CHECK_EQ_U(one(syn_recv, NULL, SVR, F_S | F_A, 6000, 1001, NULL), 0); /* queued */
    CHECK_EQ_U(one(syn_recv, NULL, CLI, F_S | F_A, 1000, 5001, NULL),
               B(SYNACK_TOSERVER_SYN_RECV));
    CHECK_EQ_U(one(syn_recv, NULL, SVR, F_S, 5000, 0, NULL), B(SYN_TOCLIENT_SYN_RECV));
    CHECK_EQ_U(one(syn_recv, NULL, CLI, F_S, 3000, 0, NULL), B(SYN_RESEND_DIFF_SEQ_SYN_RECV));
    /* passively, a server ACK before the handshake's may follow an ACK the capture lost */
    CHECK_EQ_U(one(syn_recv, NULL, SVR, F_A, 5001, 999, NULL), 0);
    CHECK_EQ_U(one(syn_recv, NULL, SVR, F_A | F_P, 5001, 1001, "220"), 0);
    CHECK_EQ_U(one(syn_recv, NULL, CLI, F_A, 1001, 7000, NULL), B(RIGHT_SEQ_WRONG_ACK));
    CHECK_EQ_U(one(syn_recv, NULL, CLI, F_A, 3000, 7000, NULL), B(WRONG_SEQ_WRONG_ACK));
    CHECK_EQ_U(one(syn_recv, NULL, CLI, F_A, 1100, 5001, NULL), 0); /* packets missed */
    CHECK_EQ_U(one(four_way, NULL, CLI, F_S | F_A, 1000, 7000, NULL), B(4WHS_SYNACK_WRONG_ACK));
    CHECK_EQ_U(one(four_way, NULL, CLI, F_S | F_A, 999, 5001, NULL), B(4WHS_SYNACK_WRONG_SYN));
    CHECK_EQ_U(one(four_way_synack, NULL, SVR, F_A, 5001, 1001, NULL), 0);
    CHECK_EQ_U(one(four_way_synack, NULL, SVR, F_A, 5005, 1001, NULL), B(4WHS_WRONG_SEQ));
    CHECK_EQ_U(one(four_way_synack, NULL, SVR, F_A, 5001, 1001 + 70000, NULL),
               B(4WHS_INVALID_ACK) | B(PKT_INVALID_ACK));
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    cfg.inline_mode = true; /* IPS: we would have seen the handshake's ACK */
    CHECK_EQ_U(one(syn_recv, &cfg, SVR, F_A, 5001, 999, NULL), B(ACK_IN_WRONG_DIR));
    CHECK_EQ_U(one(syn_recv, &cfg, SVR, F_A | F_P, 5001, 1001, "220"), B(ACK_DATA_INJECT));
    CHECK_EQ_U(one(syn_recv, &cfg, CLI, F_A, 1001, 5001, NULL), 0);
    /* SYN-ACKs with other ISNs: the sixth is a flood */
    struct tconn c;
    tc_init(&c, NULL);
    syn_recv(&c);
    for (uint32_t i = 1; i <= 5; i++)
        CHECK_EQ_U(ev(&c, SVR, F_S | F_A, 5000 + 1000 * i, 1001, NULL), 0);
    CHECK_EQ_U(ev(&c, SVR, F_S | F_A, 9999, 1001, NULL), B(SYNACK_FLOOD));
    tc_free(&c);
    mon_tcp_cfg_defaults(&cfg);
    cfg.async_oneside = true;
    CHECK_EQ_U(one(syn_sent, &cfg, CLI, F_A, 1050, 9000, NULL), B(ASYNC_WRONG_SEQ));
    CHECK_EQ_U(one(syn_sent, &cfg, CLI, F_A, 1001, 9000, NULL), 0);
    CHECK_EQ_U(one(syn_sent, NULL, CLI, F_A, 1050, 9000, NULL), 0); /* not one-sided */
}

static void test_established_checks(void)
{
    CHECK_EQ_U(one(est, NULL, SVR, F_S | F_A, 5000, 1001, NULL), 0); /* the server is silent */
    CHECK_EQ_U(one(est, NULL, CLI, F_S | F_A, 1000, 5001, NULL), B(EST_SYNACK_TOSERVER));
    CHECK_EQ_U(one(est, NULL, SVR, F_S | F_A, 7000, 1001, NULL), B(EST_SYNACK_DIFF_SEQ));
    CHECK_EQ_U(one(est, NULL, SVR, F_S, 5000, 0, NULL), B(EST_SYN_TOCLIENT));
    CHECK_EQ_U(one(est, NULL, CLI, F_S, 1000, 0, NULL), B(EST_SYN_RESEND));
    CHECK_EQ_U(one(est, NULL, CLI, F_S, 700, 0, NULL), B(EST_SYN_DIFF_SEQ));
    /* est_data: the server acknowledged the client's data, so it spoke: 3WHS confirmed */
    CHECK_EQ_U(one(est_data, NULL, SVR, F_S | F_A, 5000, 1006, NULL), B(EST_SYNACK_RESEND));
    CHECK_EQ_U(one(est_data, NULL, SVR, F_S | F_A, 5000, 1001, NULL), B(EST_SYNACK_DIFF_ACK));
    CHECK_EQ_U(one(est_data, NULL, CLI, F_A | F_P, 1001, 5001, "hel"), B(EST_BEFORE_LAST_ACK));
    CHECK_EQ_U(one(est_data, NULL, CLI, F_A, 1005, 5001, NULL), 0); /* a keep-alive */
    CHECK_EQ_U(one(est, NULL, CLI, F_A | F_P, 1001 + 70000, 5001, "x"), B(EST_OUT_OF_WINDOW));
    CHECK_EQ_U(one(est, NULL, CLI, F_A | F_P, 1001, 5001 + 70000, "x"),
               B(EST_INVALID_ACK) | B(PKT_INVALID_ACK));
    CHECK_EQ_U(one(est, NULL, SVR, F_R | F_A, 5001, 1001 + 70000, NULL),
               B(RST_INVALID_ACK) | B(PKT_INVALID_ACK));
    CHECK_EQ_U(one(est, NULL, CLI, F_F | F_A, 1001, 5001 + 70000, NULL),
               B(FIN_INVALID_ACK) | B(PKT_INVALID_ACK));
    CHECK_EQ_U(one(est, NULL, CLI, F_F | F_A, 1001 + 70000, 5001, NULL), B(FIN_OUT_OF_WINDOW));
    CHECK_EQ_U(one(est, NULL, CLI, F_F | F_S | F_A, 1001, 5001, NULL), B(FIN_SYN));
    /* an ACK past everything seen that shrinks the window far more than it moves (bug 1238);
     * the same window change at the expected seq and ack is a window update */
    struct tconn c;
    tc_init(&c, NULL);
    est(&c);
    c.win[SVR] = 1000;
    CHECK_EQ_U(ev(&c, SVR, F_A, 5002, 1010, NULL), B(BAD_WINDOW_UPDATE));
    tc_free(&c);
    tc_init(&c, NULL);
    est(&c);
    c.win[SVR] = 1000;
    CHECK_EQ_U(ev(&c, SVR, F_A, 5001, 1001, NULL), 0);
    tc_free(&c);
}

static void test_closing_checks(void)
{
    CHECK_EQ_U(one(fin1, NULL, CLI, F_F | F_A, 1001 + 70000, 5002, NULL), B(FIN1_FIN_WRONG_SEQ));
    CHECK_EQ_U(one(fin1, NULL, CLI, F_A | F_P, 1001 + 70000, 5002, "x"), B(FIN1_ACK_WRONG_SEQ));
    CHECK_EQ_U(one(fin1, NULL, CLI, F_A, 1001, 5002 + 70000, NULL),
               B(FIN1_INVALID_ACK) | B(PKT_INVALID_ACK));
    CHECK_EQ_U(one(fin1, NULL, CLI, F_S, 1000, 0, NULL), B(SHUTDOWN_SYN_RESEND));
    CHECK_EQ_U(one(fin2, NULL, CLI, F_F | F_A, 1001 + 70000, 5002, NULL), B(FIN2_FIN_WRONG_SEQ));
    CHECK_EQ_U(one(fin2, NULL, CLI, F_A | F_P, 1001 + 70000, 5002, "x"), B(FIN2_ACK_WRONG_SEQ));
    CHECK_EQ_U(one(fin2, NULL, CLI, F_A, 1001, 5002 + 70000, NULL),
               B(FIN2_INVALID_ACK) | B(PKT_INVALID_ACK));
    CHECK_EQ_U(one(time_wait, NULL, SVR, F_A, 5500, 1002, NULL), B(TIMEWAIT_ACK_WRONG_SEQ));
    CHECK_EQ_U(one(time_wait, NULL, SVR, F_A, 5002, 1002 + 70000, NULL),
               B(TIMEWAIT_INVALID_ACK) | B(PKT_INVALID_ACK));
    CHECK_EQ_U(one(time_wait, NULL, SVR, F_A, 5002, 1002, NULL), 0);
    CHECK_EQ_U(one(closing, NULL, CLI, F_A, 1010, 5002, NULL), B(CLOSING_ACK_WRONG_SEQ));
    CHECK_EQ_U(one(closing, NULL, CLI, F_A, 1002, 5002 + 70000, NULL),
               B(CLOSING_INVALID_ACK) | B(PKT_INVALID_ACK));
    CHECK_EQ_U(one(closing, NULL, CLI, F_A, 1002, 5002, NULL), 0);
    CHECK_EQ_U(one(close_wait, NULL, SVR, F_F | F_A, 5001 + 70000, 1007, NULL),
               B(CLOSEWAIT_FIN_OUT_OF_WINDOW));
    CHECK_EQ_U(one(close_wait, NULL, SVR, F_F | F_A, 5001, 1007 + 70000, NULL),
               B(CLOSEWAIT_INVALID_ACK) | B(PKT_INVALID_ACK));
    CHECK_EQ_U(one(close_wait, NULL, SVR, F_A, 5001 + 70000, 1007, NULL),
               B(CLOSEWAIT_ACK_OUT_OF_WINDOW));
    CHECK_EQ_U(one(close_wait_acked, NULL, CLI, F_A | F_P, 1001, 5001, "hello"),
               B(CLOSEWAIT_BEFORE_LAST_ACK) | B(PKT_REXMIT));
    CHECK_EQ_U(one(last_ack, NULL, CLI, F_A, 1500, 5002, NULL), B(LASTACK_ACK_WRONG_SEQ));
    CHECK_EQ_U(one(last_ack, NULL, CLI, F_A, 1007, 5002 + 70000, NULL),
               B(LASTACK_INVALID_ACK) | B(PKT_INVALID_ACK));
    CHECK_EQ_U(one(last_ack, NULL, CLI, F_A, 1007, 5002, NULL), 0);
}

static void test_names(void)
{
    CHECK(strcmp(mon_tcp_event_name(MON_TE_EST_INVALID_ACK), "est_invalid_ack") == 0);
    CHECK(strcmp(mon_tcp_event_name(MON_TE_4WHS_SYNACK_WRONG_SYN),
                 "4whs_synack_with_wrong_syn") == 0);
    CHECK(MON_TE__COUNT <= 64);
}

int main(void)
{
    test_ordinary_connections_raise_nothing();
    test_handshake_checks();
    test_established_checks();
    test_closing_checks();
    test_names();
    return unit_report("test_tcp_checks");
}
