/* test_tcp_state.c — both endpoints' TCP state as a middlebox infers it: the exact event
 * bits of each phase and the states after each packet. */
#include "test_tcp_util.h"

#define ST(c, cs, ss)                                \
    do {                                             \
        CHECK_EQ_U(tc_state(c, CLI), MON_TCP_##cs);  \
        CHECK_EQ_U(tc_state(c, SVR), MON_TCP_##ss);  \
    } while (0)

#define PH(r, s, rx_, v)               \
    do {                               \
        struct ph r_ = (r);            \
        CHECK_EQ_U(r_.snd, (s));       \
        CHECK_EQ_U(r_.rx, (rx_));      \
        CHECK_EQ_U(r_.rcv, (v));       \
    } while (0)

static void test_handshake(void)
{
    struct tconn c;
    tc_init(&c, NULL);
    /* SYN: the connection starts; the client sent a SYN, the server received it */
    PH(tc_pkt(&c, CLI, F_S, 1000, 0, NULL, 0), EV_START | EV_SC, 0, EV_SC);
    ST(&c, SYN_SENT, SYN_RCVD);
    /* SYN-ACK: nothing changes for the server; the client is established */
    PH(tc_pkt(&c, SVR, F_S | F_A, 5000, 1001, NULL, 0), 0, 0, EV_SC);
    ST(&c, ESTABLISHED, SYN_RCVD);
    /* ACK: the server is established */
    PH(tc_pkt(&c, CLI, F_A, 1001, 5001, NULL, 0), 0, 0, EV_SC);
    ST(&c, ESTABLISHED, ESTABLISHED);
    CHECK_EQ_U(c.t.stats.sessions, 1);
    CHECK_EQ_U(c.t.stats.invalid_state, 0);
    CHECK(c.f.tcp.side[CLI].isn == 1000 && c.f.tcp.side[SVR].isn == 5000);
    CHECK(!((c.f.tcp.side[CLI].flags | c.f.tcp.side[SVR].flags) & MON_TCPF_MIDSTREAM));
    /* data both ways */
    PH(tc_pkt(&c, CLI, F_A | F_P, 1001, 5001, "GET /", 5), 0, 0, EV_DATA);
    PH(tc_pkt(&c, SVR, F_A | F_P, 5001, 1006, "200", 3), 0, 0, EV_DATA);
    char buf[64];
    CHECK_EQ_U(tc_read(&c, SVR, buf, sizeof buf), 5);
    CHECK(strcmp(buf, "GET /") == 0);
    CHECK_EQ_U(tc_read(&c, CLI, buf, sizeof buf), 3);
    CHECK(strcmp(buf, "200") == 0);
    /* client closes first: FIN_WAIT_1 / CLOSE_WAIT */
    PH(tc_pkt(&c, CLI, F_F | F_A, 1006, 5004, NULL, 0), EV_SC, 0, EV_SC);
    ST(&c, FIN_WAIT_1, CLOSE_WAIT);
    /* its ACK: FIN_WAIT_2 */
    PH(tc_pkt(&c, SVR, F_A, 5004, 1007, NULL, 0), 0, 0, EV_SC);
    ST(&c, FIN_WAIT_2, CLOSE_WAIT);
    /* server FIN: LAST_ACK / TIME_WAIT */
    PH(tc_pkt(&c, SVR, F_F | F_A, 5004, 1007, NULL, 0), EV_SC, 0, EV_SC);
    ST(&c, TIME_WAIT, LAST_ACK);
    /* final ACK: CLOSED, and the end */
    PH(tc_pkt(&c, CLI, F_A, 1007, 5005, NULL, 0), 0, 0, EV_SC | EV_END);
    ST(&c, TIME_WAIT, CLOSED);
    /* after the end: the final ACK again and a FIN retransmission are normal, no event */
    PH(tc_pkt(&c, CLI, F_A, 1007, 5005, NULL, 0), 0, 0, 0);
    PH(tc_pkt(&c, SVR, F_F | F_A, 5004, 1007, NULL, 0), 0, 1, 0);
    /* anything else is an orphan */
    PH(tc_pkt(&c, CLI, F_A | F_P, 1007, 5005, "x", 1), EV_ORPHAN, 0, 0);
    PH(tc_pkt(&c, CLI, F_S, 777, 0, NULL, 0), EV_ORPHAN, 0, 0);
    CHECK_EQ_U(c.t.stats.orphans, 2);
    tc_free(&c);
}

static void test_fin_ack_together(void)
{
    /* FIN+ACK acknowledging the peer's FIN: FIN_WAIT_1 → TIME_WAIT in one packet */
    struct tconn c;
    tc_init(&c, NULL);
    tc_handshake(&c, 10, 20);
    PH(tc_pkt(&c, CLI, F_F | F_A, 11, 21, NULL, 0), EV_SC, 0, EV_SC);
    PH(tc_pkt(&c, SVR, F_F | F_A, 21, 12, NULL, 0), EV_SC, 0, EV_SC);
    ST(&c, TIME_WAIT, LAST_ACK);
    PH(tc_pkt(&c, CLI, F_A, 12, 22, NULL, 0), 0, 0, EV_SC | EV_END);
    ST(&c, TIME_WAIT, CLOSED);
    tc_free(&c);
}

static void test_half_close_server_first(void)
{
    struct tconn c;
    tc_init(&c, NULL);
    tc_handshake(&c, 100, 900);
    /* the server closes first, the client keeps sending (half close) */
    PH(tc_pkt(&c, SVR, F_F | F_A, 901, 101, NULL, 0), EV_SC, 0, EV_SC);
    ST(&c, CLOSE_WAIT, FIN_WAIT_1);
    PH(tc_pkt(&c, CLI, F_A, 101, 902, NULL, 0), 0, 0, EV_SC);
    ST(&c, CLOSE_WAIT, FIN_WAIT_2);
    PH(tc_pkt(&c, CLI, F_A | F_P, 101, 902, "more", 4), 0, 0, EV_DATA);
    PH(tc_pkt(&c, CLI, F_A | F_P, 105, 902, "data", 4), 0, 0, EV_DATA);
    PH(tc_pkt(&c, SVR, F_A, 902, 109, NULL, 0), 0, 0, 0);
    char buf[32];
    CHECK_EQ_U(tc_read(&c, SVR, buf, sizeof buf), 8);
    CHECK(strcmp(buf, "moredata") == 0);
    PH(tc_pkt(&c, CLI, F_F | F_A, 109, 902, NULL, 0), EV_SC, 0, EV_SC);
    ST(&c, LAST_ACK, TIME_WAIT);
    PH(tc_pkt(&c, SVR, F_A, 902, 110, NULL, 0), 0, 0, EV_SC | EV_END);
    ST(&c, CLOSED, TIME_WAIT);
    tc_free(&c);
}

static void test_half_close_client_first_with_data(void)
{
    struct tconn c;
    tc_init(&c, NULL);
    tc_handshake(&c, 100, 900);
    /* data riding on the FIN is in the stream before the close */
    PH(tc_pkt(&c, CLI, F_F | F_A | F_P, 101, 901, "bye", 3), EV_SC, 0, EV_SC | EV_DATA);
    ST(&c, FIN_WAIT_1, CLOSE_WAIT);
    /* the server goes on sending into the half-closed connection */
    PH(tc_pkt(&c, SVR, F_A | F_P, 901, 105, "resp", 4), 0, 0, EV_SC | EV_DATA);
    ST(&c, FIN_WAIT_2, CLOSE_WAIT);
    PH(tc_pkt(&c, SVR, F_F | F_A, 905, 105, NULL, 0), EV_SC, 0, EV_SC);
    PH(tc_pkt(&c, CLI, F_A, 105, 906, NULL, 0), 0, 0, EV_SC | EV_END);
    char buf[32];
    CHECK_EQ_U(tc_read(&c, SVR, buf, sizeof buf), 3);
    CHECK(strcmp(buf, "bye") == 0);
    CHECK_EQ_U(tc_read(&c, CLI, buf, sizeof buf), 4);
    CHECK(strcmp(buf, "resp") == 0);
    tc_free(&c);
}

static void test_simultaneous_close(void)
{
    struct tconn c;
    tc_init(&c, NULL);
    tc_handshake(&c, 100, 900);
    PH(tc_pkt(&c, CLI, F_F | F_A, 101, 901, NULL, 0), EV_SC, 0, EV_SC);
    ST(&c, FIN_WAIT_1, CLOSE_WAIT);
    /* the server's FIN crossed the client's: it does not acknowledge it */
    PH(tc_pkt(&c, SVR, F_F | F_A, 901, 101, NULL, 0), EV_SC, 0, EV_SC);
    ST(&c, CLOSING, LAST_ACK);
    PH(tc_pkt(&c, SVR, F_A, 902, 102, NULL, 0), 0, 0, EV_SC);
    ST(&c, TIME_WAIT, LAST_ACK);
    PH(tc_pkt(&c, CLI, F_A, 102, 902, NULL, 0), 0, 0, EV_SC | EV_END);
    ST(&c, TIME_WAIT, CLOSED);
    tc_free(&c);
}

static void test_simultaneous_open(void)
{
    struct tconn c;
    tc_init(&c, NULL);
    PH(tc_pkt(&c, CLI, F_S, 100, 0, NULL, 0), EV_START | EV_SC, 0, EV_SC);
    ST(&c, SYN_SENT, SYN_RCVD);
    /* the other SYN crossed it: its sender had already received the first one */
    PH(tc_pkt(&c, SVR, F_S, 900, 0, NULL, 0), 0, 0, EV_SC);
    ST(&c, SYN_RCVD, SYN_RCVD);
    /* each answers with SYN-ACK (same ISN as its SYN): not a retransmission */
    PH(tc_pkt(&c, CLI, F_S | F_A, 100, 901, NULL, 0), 0, 0, EV_SC);
    ST(&c, SYN_RCVD, ESTABLISHED);
    PH(tc_pkt(&c, SVR, F_S | F_A, 900, 101, NULL, 0), 0, 0, EV_SC);
    ST(&c, ESTABLISHED, ESTABLISHED);
    CHECK_EQ_U(c.t.stats.rexmit, 0);
    CHECK_EQ_U(c.t.stats.invalid_state, 0);
    PH(tc_pkt(&c, CLI, F_A | F_P, 101, 901, "hi", 2), 0, 0, EV_DATA);
    tc_free(&c);
}

static void test_syn_rexmits(void)
{
    struct tconn c;
    tc_init(&c, NULL);
    PH(tc_pkt(&c, CLI, F_S, 100, 0, NULL, 0), EV_START | EV_SC, 0, EV_SC);
    /* SYN again: a retransmission, no state change */
    PH(tc_pkt(&c, CLI, F_S, 100, 0, NULL, 0), 0, 1, 0);
    PH(tc_pkt(&c, SVR, F_S | F_A, 900, 101, NULL, 0), 0, 0, EV_SC);
    /* SYN-ACK again (the client's ACK got lost after us) */
    PH(tc_pkt(&c, SVR, F_S | F_A, 900, 101, NULL, 0), 0, 1, 0);
    PH(tc_pkt(&c, CLI, F_A, 101, 901, NULL, 0), 0, 0, EV_SC);
    PH(tc_pkt(&c, SVR, F_S | F_A, 900, 101, NULL, 0), 0, 1, 0);
    ST(&c, ESTABLISHED, ESTABLISHED);
    CHECK_EQ_U(c.t.stats.rexmit, 3);
    CHECK_EQ_U(c.t.stats.invalid_state, 0);
    tc_free(&c);

    /* the SYN-ACK we saw never reached the client: it sends its SYN again */
    tc_init(&c, NULL);
    tc_pkt(&c, CLI, F_S, 100, 0, NULL, 0);
    tc_pkt(&c, SVR, F_S | F_A, 900, 101, NULL, 0);
    PH(tc_pkt(&c, CLI, F_S, 100, 0, NULL, 0), 0, 1, 0);
    PH(tc_pkt(&c, SVR, F_S | F_A, 900, 101, NULL, 0), 0, 1, 0);
    PH(tc_pkt(&c, CLI, F_A, 101, 901, NULL, 0), 0, 0, EV_SC);
    ST(&c, ESTABLISHED, ESTABLISHED);
    CHECK_EQ_U(c.t.stats.invalid_state, 0);
    tc_free(&c);
}

static void test_rst(void)
{
    struct tconn c;
    tc_init(&c, NULL);
    tc_handshake(&c, 100, 900);
    tc_pkt(&c, CLI, F_A | F_P, 101, 901, "abc", 3);
    /* blind RSTs far outside the window: ignored, counted */
    PH(tc_pkt(&c, SVR, F_R, 900 + 200000, 0, NULL, 0), 0, 0, 0);
    PH(tc_pkt(&c, SVR, F_R | F_A, 800, 104, NULL, 0), 0, 0, 0);
    CHECK_EQ_U(c.t.stats.rst_out_of_window, 2);
    ST(&c, ESTABLISHED, ESTABLISHED);
    /* in window (not exact): accepted */
    PH(tc_pkt(&c, SVR, F_R, 901 + 100, 0, NULL, 0), EV_SC, 0, EV_SC | EV_END);
    ST(&c, CLOSED, CLOSED);
    /* nothing follows a reset */
    PH(tc_pkt(&c, CLI, F_A, 104, 901, NULL, 0), EV_ORPHAN, 0, 0);
    PH(tc_pkt(&c, SVR, F_R, 901, 0, NULL, 0), EV_ORPHAN, 0, 0);
    tc_free(&c);

    /* connection refused: RST+ACK acknowledging the SYN */
    tc_init(&c, NULL);
    tc_pkt(&c, CLI, F_S, 100, 0, NULL, 0);
    PH(tc_pkt(&c, SVR, F_R | F_A, 0, 102, NULL, 0), 0, 0, 0); /* wrong ack: ignored */
    PH(tc_pkt(&c, SVR, F_R | F_A, 0, 101, NULL, 0), EV_SC, 0, EV_SC | EV_END);
    ST(&c, CLOSED, CLOSED);
    tc_free(&c);

    /* client RST at its exact sequence */
    tc_init(&c, NULL);
    tc_handshake(&c, 4294967000u, 5);
    PH(tc_pkt(&c, CLI, F_R | F_A, 4294967001u, 6, NULL, 0), EV_SC, 0, EV_SC | EV_END);
    tc_free(&c);
}

/* Suricata's suspected RST injection: after an acceptable RST, a packet (no RST) from the
 * RST's sender carries the stream event, once; the other endpoint's packets do not. */
static void test_rst_inject(void)
{
    struct tconn c;
    tc_init(&c, NULL);
    tc_handshake(&c, 100, 900);
    PH(tc_pkt(&c, CLI, F_R | F_A, 101, 901, NULL, 0), EV_SC, 0, EV_SC | EV_END);
    CHECK_EQ_U(c.t.pkt_events, 0);
    /* the server answers nothing: its packet is an orphan as before */
    PH(tc_pkt(&c, SVR, F_A, 901, 101, NULL, 0), EV_ORPHAN, 0, 0);
    CHECK_EQ_U(c.t.pkt_events, 0);
    /* the client goes on as if never reset: the RST was forged (the packet stays an ORPHAN
     * carrying the event: stack/core runs PKT_IN's receiver side for it too) */
    struct ph r = tc_pkt(&c, CLI, F_A | F_P, 101, 901, "GET /", 5);
    CHECK_EQ_U(r.snd, EV_ORPHAN);
    CHECK_EQ_U(c.t.pkt_events, 1u << MON_TE_RST_INJECT);
    CHECK(!strcmp(mon_tcp_event_name(MON_TE_RST_INJECT), "suspected_rst_inject"));
    ST(&c, CLOSED, CLOSED);
    /* once per RST */
    PH(tc_pkt(&c, CLI, F_A | F_P, 106, 901, "x", 1), EV_ORPHAN, 0, 0);
    CHECK_EQ_U(c.t.pkt_events, 0);
    tc_free(&c);

    /* a RST again from the same endpoint is no injection sign (more RSTs are usual) */
    tc_init(&c, NULL);
    tc_handshake(&c, 100, 900);
    tc_pkt(&c, SVR, F_R | F_A, 901, 101, NULL, 0);
    PH(tc_pkt(&c, SVR, F_R | F_A, 901, 101, NULL, 0), EV_ORPHAN, 0, 0);
    CHECK_EQ_U(c.t.pkt_events, 0);
    tc_free(&c);
}

static void test_midstream(void)
{
    struct tconn c;
    /* off: the first packet is no SYN: orphan, and so is the rest */
    tc_init(&c, NULL);
    PH(tc_pkt(&c, CLI, F_A | F_P, 5000, 7000, "mid", 3), EV_ORPHAN, 0, 0);
    CHECK(!(c.f.tcp.side[CLI].flags & MON_TCPF_MIDSTREAM));
    CHECK_EQ_U(c.t.stats.orphans, 1);
    CHECK_EQ_U(c.t.stats.sessions, 0);
    tc_free(&c);

    /* on: both picked up ESTABLISHED, each reporting it in its own phase */
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    cfg.midstream = true;
    tc_init(&c, &cfg);
    PH(tc_pkt(&c, CLI, F_A | F_P, 5000, 7000, "mid", 3), EV_START | EV_SC, 0, EV_SC | EV_DATA);
    ST(&c, ESTABLISHED, ESTABLISHED);
    CHECK_EQ_U(c.f.tcp.side[CLI].isn, 4999);
    CHECK_EQ_U(c.f.tcp.side[SVR].isn, 6999);
    PH(tc_pkt(&c, SVR, F_A | F_P, 7000, 5003, "ok", 2), 0, 0, EV_DATA);
    PH(tc_pkt(&c, CLI, F_A | F_P, 5003, 7002, "dle", 3), 0, 0, EV_DATA);
    char buf[16];
    CHECK_EQ_U(tc_read(&c, SVR, buf, sizeof buf), 6);
    CHECK(strcmp(buf, "middle") == 0);
    CHECK_EQ_U(tc_read(&c, CLI, buf, sizeof buf), 2);
    CHECK_EQ_U(c.t.stats.midstream, 1);
    /* the pick-up stays known once both are ESTABLISHED (PICKUP itself is gone) */
    for (int s = 0; s < 2; s++)
        CHECK((c.f.tcp.side[s].flags & (MON_TCPF_MIDSTREAM | MON_TCPF_PICKUP)) ==
              MON_TCPF_MIDSTREAM);
    /* a FIN picked up first goes straight on to FIN_WAIT_1 (one change) */
    tc_free(&c);
    tc_init(&c, &cfg);
    PH(tc_pkt(&c, SVR, F_F | F_A, 7000, 5000, NULL, 0), EV_START | EV_SC, 0, EV_SC);
    ST(&c, CLOSE_WAIT, FIN_WAIT_1);
    tc_free(&c);
    /* a RST starts nothing */
    tc_init(&c, &cfg);
    PH(tc_pkt(&c, CLI, F_R, 1, 0, NULL, 0), EV_ORPHAN, 0, 0);
    tc_free(&c);
}

static void test_data_before_handshake(void)
{
    struct tconn c;
    tc_init(&c, NULL);
    tc_pkt(&c, CLI, F_S, 100, 0, NULL, 0);
    /* data acknowledging a SYN-ACK nobody saw: invalid, not reassembled */
    PH(tc_pkt(&c, CLI, F_A | F_P, 101, 901, "early", 5), 0, 0, 0);
    ST(&c, SYN_SENT, SYN_RCVD);
    CHECK_EQ_U(c.t.stats.invalid_state, 1);
    CHECK(c.f.tcp.side[SVR].rbuf == NULL);
    /* data without ACK: dropped by every stack */
    PH(tc_pkt(&c, CLI, F_P, 101, 0, "noack", 5), 0, 0, 0);
    CHECK_EQ_U(c.t.stats.invalid_state, 2);
    tc_free(&c);

    /* one-sided capture (async_oneside): the client's ACK is believed */
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    cfg.async_oneside = true;
    tc_init(&c, &cfg);
    tc_pkt(&c, CLI, F_S, 100, 0, NULL, 0);
    PH(tc_pkt(&c, CLI, F_A | F_P, 101, 901, "early", 5), EV_SC, 0, EV_SC | EV_DATA);
    ST(&c, ESTABLISHED, ESTABLISHED);
    CHECK_EQ_U(c.f.tcp.side[SVR].isn, 900);
    char buf[16];
    CHECK_EQ_U(tc_read(&c, SVR, buf, sizeof buf), 5);
    CHECK_EQ_U(c.t.stats.invalid_state, 0);
    tc_free(&c);

    /* the server sends before the handshake's last ACK: legal, the client gets it */
    tc_init(&c, NULL);
    tc_pkt(&c, CLI, F_S, 100, 0, NULL, 0);
    tc_pkt(&c, SVR, F_S | F_A, 900, 101, NULL, 0);
    PH(tc_pkt(&c, SVR, F_A | F_P, 901, 101, "220 hi", 6), 0, 0, EV_DATA);
    ST(&c, ESTABLISHED, SYN_RCVD);
    /* the client's third ACK carries data */
    PH(tc_pkt(&c, CLI, F_A | F_P, 101, 907, "EHLO", 4), 0, 0, EV_SC | EV_DATA);
    ST(&c, ESTABLISHED, ESTABLISHED);
    tc_free(&c);
}

static void test_wraparound(void)
{
    struct tconn c;
    tc_init(&c, NULL);
    uint32_t ci = 4294967290u; /* the stream crosses 2^32 after 5 bytes */
    tc_handshake(&c, ci, 4294967295u);
    PH(tc_pkt(&c, CLI, F_A, ci + 1, 0, "01234", 5), 0, 0, EV_DATA);
    PH(tc_pkt(&c, CLI, F_A, ci + 11, 0, "abcde", 5), 0, 0, 0); /* out of order, past the wrap */
    PH(tc_pkt(&c, CLI, F_A, ci + 6, 0, "56789", 5), 0, 0, EV_DATA);
    PH(tc_pkt(&c, SVR, F_A, 0, ci + 16, "srv", 3), 0, 0, EV_DATA); /* server ISN+1 == 0 */
    char buf[32];
    CHECK_EQ_U(tc_read(&c, SVR, buf, sizeof buf), 15);
    CHECK(strcmp(buf, "0123456789abcde") == 0);
    CHECK_EQ_U(tc_read(&c, CLI, buf, sizeof buf), 3);
    struct mon_buf_info bi;
    size_t len = sizeof bi;
    CHECK(tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_BUF_INFO, &bi, &len) == MON_OK);
    CHECK_EQ_U(bi.init_seq, ci);
    CHECK_EQ_U(bi.tail_off, 15);
    /* an old retransmission from before the wrap is recognised as one */
    PH(tc_pkt(&c, CLI, F_A, ci + 3, 0, "23", 2), 0, 1, 0);
    CHECK_EQ_U(c.t.stats.rexmit, 1);
    CHECK_EQ_U(c.t.stats.rexmit_diff, 0);
    tc_free(&c);
}

static void test_window(void)
{
    struct tconn c;
    tc_init(&c, NULL);
    c.win[SVR] = 10; /* the server offers 10 bytes */
    tc_handshake(&c, 100, 900);
    /* the ACK of the handshake advertises the client's window; the server's is 10 */
    PH(tc_pkt(&c, CLI, F_A, 101, 901, "0123456789", 10), 0, 0, EV_DATA);
    /* the server has not acknowledged anything yet: the window ends at offset 10 */
    PH(tc_pkt(&c, CLI, F_A, 111, 901, "X", 1), 0, 0, 0);
    CHECK_EQ_U(c.t.stats.out_of_window, 1);
    PH(tc_pkt(&c, SVR, F_A, 901, 111, NULL, 0), 0, 0, 0); /* acknowledges 10: the window moves */
    PH(tc_pkt(&c, CLI, F_A, 111, 901, "abcdefghijKL", 12), 0, 0, EV_DATA); /* 2 bytes too many */
    CHECK_EQ_U(c.t.stats.out_of_window, 2);
    char buf[32];
    CHECK_EQ_U(tc_read(&c, SVR, buf, sizeof buf), 20);
    CHECK(strcmp(buf, "0123456789abcdefghij") == 0);
    tc_free(&c);

    /* window scaling: both SYNs offer it; the SYN's own window is not scaled */
    tc_init(&c, NULL);
    c.wscale[CLI] = 2;
    c.wscale[SVR] = 3;
    c.win[SVR] = 4;
    tc_handshake(&c, 100, 900);
    CHECK_EQ_U(c.f.tcp.side[SVR].rcv_wnd, 4);
    CHECK_EQ_U(c.f.tcp.side[SVR].wscale, 3);
    CHECK_EQ_U(c.f.tcp.side[CLI].wscale, 2);
    PH(tc_pkt(&c, SVR, F_A, 901, 101, NULL, 0), 0, 0, 0);
    CHECK_EQ_U(c.f.tcp.side[SVR].rcv_wnd, 32);
    char big[40];
    memset(big, 'z', sizeof big);
    PH(tc_pkt(&c, CLI, F_A, 101, 901, big, 32), 0, 0, EV_DATA);
    CHECK_EQ_U(c.t.stats.out_of_window, 0);
    tc_free(&c);

    /* one SYN without the option: nobody scales */
    tc_init(&c, NULL);
    c.wscale[CLI] = 7;
    c.win[SVR] = 4;
    tc_handshake(&c, 100, 900);
    PH(tc_pkt(&c, SVR, F_A, 901, 101, NULL, 0), 0, 0, 0);
    CHECK_EQ_U(c.f.tcp.side[SVR].rcv_wnd, 4);
    CHECK_EQ_U(c.f.tcp.side[CLI].wscale, 0);
    tc_free(&c);
}

static void test_stop_monitor(void)
{
    struct tconn c;
    tc_init(&c, NULL);
    tc_handshake(&c, 100, 900);
    CHECK(tcp_setsockopt(&c.t, &c.f, SVR, MON_SO_STOP_MONITOR, NULL, 0) == MON_OK);
    /* the server side gets no updates: no data, no state change */
    PH(tc_pkt(&c, CLI, F_A, 101, 901, "abc", 3), 0, 0, 0);
    CHECK(c.f.tcp.side[SVR].rbuf == NULL);
    /* the client side still moves; the end is decided without the stopped side */
    PH(tc_pkt(&c, SVR, F_R, 901, 0, NULL, 0), 0, 0, EV_SC | EV_END);
    CHECK_EQ_U(tc_state(&c, CLI), MON_TCP_CLOSED);
    CHECK_EQ_U(tc_state(&c, SVR), MON_TCP_ESTABLISHED);
    tc_free(&c);

    /* the receiver stopped: a RST ends the connection in phase 1 */
    tc_init(&c, NULL);
    tc_handshake(&c, 100, 900);
    tcp_setsockopt(&c.t, &c.f, CLI, MON_SO_STOP_MONITOR, NULL, 0);
    PH(tc_pkt(&c, SVR, F_R, 901, 0, NULL, 0), EV_SC | EV_END, 0, 0);
    tc_free(&c);
}

static void test_invalid(void)
{
    struct tconn c;
    tc_init(&c, NULL);
    tc_handshake(&c, 100, 900);
    /* a SYN with a new ISN inside the connection, SYN+FIN, FIN without ACK: ignored */
    PH(tc_pkt(&c, CLI, F_S, 5555, 0, NULL, 0), 0, 0, 0);
    PH(tc_pkt(&c, CLI, F_S | F_F, 101, 0, NULL, 0), 0, 0, 0);
    PH(tc_pkt(&c, CLI, F_F, 101, 0, NULL, 0), 0, 0, 0);
    CHECK_EQ_U(c.t.stats.invalid_state, 3);
    ST(&c, ESTABLISHED, ESTABLISHED);
    tc_free(&c);

    /* a SYN-ACK that does not acknowledge the SYN moves nobody */
    tc_init(&c, NULL);
    tc_pkt(&c, CLI, F_S, 100, 0, NULL, 0);
    PH(tc_pkt(&c, SVR, F_S | F_A, 900, 555, NULL, 0), 0, 0, 0);
    ST(&c, SYN_SENT, SYN_RCVD);
    CHECK_EQ_U(c.t.stats.invalid_state, 1);
    tc_free(&c);
}

static void test_syn_with_data(void)
{
    /* data on the SYN (TCP Fast Open): in the stream at offset 0; the SYN-ACK may or may
     * not acknowledge it */
    struct tconn c;
    tc_init(&c, NULL);
    PH(tc_pkt(&c, CLI, F_S, 100, 0, "tfo", 3), EV_START | EV_SC, 0, EV_SC | EV_DATA);
    PH(tc_pkt(&c, SVR, F_S | F_A, 900, 104, NULL, 0), 0, 0, EV_SC);
    PH(tc_pkt(&c, CLI, F_A, 104, 901, "!", 1), 0, 0, EV_SC | EV_DATA);
    char buf[8];
    CHECK_EQ_U(tc_read(&c, SVR, buf, sizeof buf), 4);
    CHECK(strcmp(buf, "tfo!") == 0);
    tc_free(&c);
    tc_init(&c, NULL);
    tc_pkt(&c, CLI, F_S, 100, 0, "tfo", 3);
    PH(tc_pkt(&c, SVR, F_S | F_A, 900, 101, NULL, 0), 0, 0, EV_SC); /* SYN only */
    PH(tc_pkt(&c, SVR, F_S | F_A, 900, 105, NULL, 0), 0, 1, 0);     /* too much: no move */
    CHECK_EQ_U(c.t.stats.invalid_state, 0);
    tc_free(&c);
}

static void test_crossing_fins(void)
{
    /* each side sent its FIN before getting the other's; we saw the client's first, so we
     * take the server for LAST_ACK → CLOSED, while it really goes CLOSING → TIME_WAIT and
     * acknowledges the client's FIN from there */
    struct tconn c;
    tc_init(&c, NULL);
    tc_handshake(&c, 100, 900);
    tc_pkt(&c, CLI, F_F | F_A, 101, 901, NULL, 0);
    tc_pkt(&c, SVR, F_F | F_A, 901, 101, NULL, 0);
    ST(&c, CLOSING, LAST_ACK);
    PH(tc_pkt(&c, CLI, F_F | F_A, 101, 902, NULL, 0), 0, 1, EV_SC);  /* FIN again, acking */
    ST(&c, CLOSING, CLOSED);
    PH(tc_pkt(&c, SVR, F_A, 902, 102, NULL, 0), 0, 0, EV_SC | EV_END);
    ST(&c, TIME_WAIT, CLOSED);
    PH(tc_pkt(&c, CLI, F_A, 102, 902, NULL, 0), 0, 0, 0);  /* after the end: normal */
    PH(tc_pkt(&c, SVR, F_A, 902, 102, NULL, 0), 0, 0, 0);
    CHECK_EQ_U(c.t.stats.invalid_state, 0);
    CHECK_EQ_U(c.t.stats.orphans, 0);
    tc_free(&c);
}

static void test_names_defaults(void)
{
    CHECK(strcmp(mon_tcp_state_name(MON_TCP_ESTABLISHED), "ESTABLISHED") == 0);
    CHECK(strcmp(mon_tcp_state_name(MON_TCP_SYN_SENT), "SYN_SENT") == 0);
    CHECK(strcmp(mon_tcp_state_name(MON_TCP_LAST_ACK), "LAST_ACK") == 0);
    CHECK(strcmp(mon_tcp_state_name((enum mon_tcp_state)99), "UNKNOWN") == 0);
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    CHECK_EQ_U(cfg.buf_size, 65536);
    CHECK_EQ_U(cfg.depth, 1u << 20);
    CHECK_EQ_U(cfg.memcap, 256ull << 20);
    CHECK(!cfg.midstream && !cfg.async_oneside);
    CHECK_EQ_U(cfg.one_sided_pkts, 10);
    CHECK_EQ_U(cfg.max_frags, 1024);
    CHECK_EQ_U(cfg.policy.dflt, MON_POLICY_BSD);
    CHECK(sizeof(struct mon_tcp_side) <= 48);
    /* four cache lines and the idle clock's stamp (flow_clock.c) */
    CHECK(sizeof(struct mon_flow) <= 264);
}

int main(void)
{
    test_handshake();
    test_fin_ack_together();
    test_half_close_server_first();
    test_half_close_client_first_with_data();
    test_simultaneous_close();
    test_simultaneous_open();
    test_syn_rexmits();
    test_rst();
    test_rst_inject();
    test_midstream();
    test_data_before_handshake();
    test_wraparound();
    test_window();
    test_stop_monitor();
    test_invalid();
    test_syn_with_data();
    test_crossing_fins();
    test_names_defaults();
    return unit_report("test_tcp_state");
}
