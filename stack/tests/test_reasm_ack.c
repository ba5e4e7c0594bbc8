/* test_reasm_ack.c — ack delivery (mon_tcp_cfg.ack_delivery, Suricata's IDS mode): a side's
 * bytes reach its readers once it acknowledged them, at the next packet its peer sends; the
 * connection's end (close, RST) and a flow's end deliver what was never acknowledged; a side
 * that never sends (async one-sided) gets its bytes on arrival. */
#include <stdio.h>

#include "tcp_internal.h"
#include "test_tcp_util.h"

#define CI 1000u /* client ISN: its byte at offset o has sequence CI + 1 + o */
#define SI 5000u

static void est_ack(struct tconn *c)
{
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    cfg.ack_delivery = true;
    tc_init(c, &cfg);
    tc_handshake(c, CI, SI);
}

/* the client sends s at stream offset off (acknowledging the server's bytes up to sack) */
static struct ph cdata(struct tconn *c, uint64_t off, const char *s, uint32_t sack)
{
    return tc_pkt(c, CLI, F_A | F_P, CI + 1u + (uint32_t)off, SI + 1 + sack, s,
                  (uint32_t)strlen(s));
}

/* the server acknowledges the client's bytes up to offset off, sending s at its offset soff */
static struct ph sdata(struct tconn *c, uint64_t soff, const char *s, uint64_t off)
{
    return tc_pkt(c, SVR, F_A | F_P, SI + 1u + (uint32_t)soff, CI + 1u + (uint32_t)off, s,
                  (uint32_t)strlen(s));
}

static uint64_t tail_off(struct tconn *c, int side)
{
    struct mon_buf_info bi;
    size_t len = sizeof bi;
    CHECK(tcp_getsockopt(&c->t, &c->f, side, MON_SO_BUF_INFO, &bi, &len) == MON_OK);
    return bi.tail_off;
}

/* data, then its ACK, then the next packet of the data's direction delivers it */
static void test_delivered_after_ack(void)
{
    struct tconn c;
    char b[64];
    est_ack(&c);
    CHECK_EQ_U(cdata(&c, 0, "GET /", 0).rcv, 0); /* held: not acknowledged */
    CHECK_EQ_U(tail_off(&c, SVR), 0);
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, sizeof b), 0);
    CHECK_EQ_U(tcp_ppeek(&c.t, &c.f, SVR, b, sizeof b, 0), MON_ERANGE);
    struct mon_frag fr[4];
    size_t fl = sizeof fr;
    CHECK(tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_FRAGS, fr, &fl) == MON_OK && fl == 0);
    /* the server's ACK (with its own data): nothing of the client's yet — the ACK's packet is
     * the other direction's; its data in turn waits for the client */
    struct ph r = sdata(&c, 0, "200", 5);
    CHECK_EQ_U(r.rcv, 0);
    CHECK_EQ_U(r.snd & EV_DATA, 0);
    /* ... though the bytes it acknowledged are readable from then on (tcp_ack_ready) */
    CHECK_EQ_U(tail_off(&c, SVR), 5);
    CHECK_EQ_U(tcp_ppeek(&c.t, &c.f, SVR, b, sizeof b, 0), 5);
    /* the client's next packet (more data, acknowledging the server's) announces them */
    r = cdata(&c, 5, "x", 3);
    CHECK_EQ_U(r.rcv, EV_DATA);
    CHECK_EQ_U(tail_off(&c, SVR), 5);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 5);
    CHECK(strcmp(b, "GET /") == 0);
    CHECK_EQ_U(tcp_ppeek(&c.t, &c.f, SVR, b, sizeof b, 5), MON_ERANGE); /* "x": not acked */
    /* the server's data, acknowledged by that client packet, comes with the server's next */
    CHECK_EQ_U(tail_off(&c, CLI), 3);
    r = sdata(&c, 3, "", 6);
    CHECK_EQ_U(r.rcv, EV_DATA);
    CHECK_EQ_U(tc_read(&c, CLI, b, sizeof b), 3);
    CHECK(strcmp(b, "200") == 0);
    /* a partial ACK delivers up to it only */
    cdata(&c, 6, "abcdef", 3);
    sdata(&c, 3, "", 9);
    CHECK_EQ_U(cdata(&c, 12, "", 3).rcv, EV_DATA);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 4);
    CHECK(strcmp(b, "xabc") == 0);
    CHECK_EQ_U(cdata(&c, 12, "", 3).rcv, 0); /* nothing more acknowledged: no event */
    tc_free(&c);
}

/* data never acknowledged: a RST delivers both sides' unacknowledged bytes (the sender's
 * through tcp_conn_release, as stack/core does at CONN_END) */
static void test_rst_delivers_unacked(void)
{
    struct tconn c;
    char b[64];
    est_ack(&c);
    sdata(&c, 0, "Please ", 0);
    sdata(&c, 11, "Me In!", 0); /* bytes 7..10 never seen */
    CHECK_EQ_U(tail_off(&c, CLI), 0);
    cdata(&c, 0, "no", 0);
    struct ph r = tc_pkt(&c, CLI, F_R | F_A, CI + 3, SI + 1, NULL, 0);
    CHECK_EQ_U(r.rcv & (EV_END | EV_DATA), EV_END | EV_DATA); /* the server's stream: "no" */
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 2);
    uint64_t gaps = c.t.stats.gaps;
    CHECK_EQ_U(tcp_conn_release(&c.t, &c.f, CLI), EV_DATA); /* the RST's sender's stream */
    CHECK_EQ_U(c.t.stats.gaps, gaps); /* the hole before never-acknowledged bytes: no gap */
    CHECK_EQ_U(tc_read(&c, CLI, b, sizeof b), 13);
    CHECK(strcmp(b, "Please Me In!") == 0);
    CHECK_EQ_U(tcp_conn_release(&c.t, &c.f, CLI), 0); /* once */
    tc_free(&c);
}

/* a flow that ends without a close (timeout, end of input): tcp_conn_flush delivers */
static void test_flush_delivers_unacked(void)
{
    struct tconn c;
    char b[64];
    est_ack(&c);
    cdata(&c, 0, "hello", 0);
    CHECK_EQ_U(tcp_conn_flush(&c.t, &c.f, SVR), EV_DATA);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 5);
    CHECK_EQ_U(tcp_conn_flush(&c.t, &c.f, SVR), 0);
    tc_free(&c);
}

/* a normal close: the final ACKs deliver, and what is left goes at CONN_END */
static void test_close_delivers(void)
{
    struct tconn c;
    char b[64];
    est_ack(&c);
    cdata(&c, 0, "bye", 0);
    tc_pkt(&c, CLI, F_F | F_A, CI + 4, SI + 1, NULL, 0);
    tc_pkt(&c, SVR, F_F | F_A, SI + 1, CI + 5, NULL, 0);
    struct ph r = tc_pkt(&c, CLI, F_A, CI + 5, SI + 2, NULL, 0);
    CHECK(r.rcv & EV_END);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 3);
    CHECK(strcmp(b, "bye") == 0);
    tc_free(&c);
}

/* arrival delivery (the default) is unchanged: new in-order bytes are readable at once */
static void test_arrival_default(void)
{
    struct tconn c;
    char b[64];
    tc_init(&c, NULL);
    tc_handshake(&c, CI, SI);
    CHECK_EQ_U(cdata(&c, 0, "now", 0).rcv, EV_DATA);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 3);
    CHECK_EQ_U(tcp_conn_release(&c.t, &c.f, SVR), 0);
    tc_free(&c);
}

/* async one-sided (the receiver never sends): on arrival */
static void test_async_oneside(void)
{
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    cfg.ack_delivery = true;
    cfg.async_oneside = true;
    cfg.midstream = true;
    struct tconn c;
    char b[64];
    tc_init(&c, &cfg);
    /* only the server's packets are seen, picked up midstream */
    tc_pkt(&c, SVR, F_A, SI, CI, NULL, 0);
    struct ph r = tc_pkt(&c, SVR, F_A | F_P, SI, CI, "HTTP/1.1", 8);
    CHECK(r.rcv & EV_DATA);
    CHECK_EQ_U(tc_read(&c, CLI, b, sizeof b), 8);
    tc_free(&c);
}

/* more bytes in flight than the buffer holds: the ring grows for the unacknowledged ones
 * (up to REASM_ACK_GROWTH buffer sizes) instead of losing them before anyone read them */
static void test_window_beyond_buffer(void)
{
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    cfg.ack_delivery = true;
    cfg.buf_size = 8192;
    struct tconn c;
    tc_init(&c, &cfg);
    tc_handshake(&c, CI, SI);
    static char seg[1001];
    for (int i = 0; i < 20; i++) { /* 20000 bytes, none acknowledged */
        memset(seg, 'a' + i, 1000);
        cdata(&c, (uint64_t)i * 1000, seg, 0);
    }
    sdata(&c, 0, "", 20000);
    CHECK_EQ_U(cdata(&c, 20000, "", 0).rcv, EV_DATA);
    static char all[20001];
    CHECK_EQ_U(tc_read(&c, SVR, all, sizeof all), 20000);
    CHECK(all[0] == 'a' && all[19999] == 't');
    CHECK_EQ_U(tc_err(&c, SVR), 0); /* no outrun */
    /* once read, the next bytes in flight fit the buffer again: no growth for them */
    tc_free(&c);
}

/* cfg.ack_chunk (Suricata's raw stream chunks): acknowledged bytes are announced once a
 * chunk's worth waits, or at a trigger (MON_SO_RAW_TRIGGER), or at the connection's end */
static void test_chunks(void)
{
    struct tconn c;
    struct mon_tcp_cfg cfg;
    char b[64];
    mon_tcp_cfg_defaults(&cfg);
    cfg.ack_delivery = true;
    cfg.ack_chunk[0] = 8; /* to the server */
    cfg.ack_chunk[1] = 100;
    tc_init(&c, &cfg);
    tc_handshake(&c, CI, SI);
    cdata(&c, 0, "abcde", 0);
    sdata(&c, 0, "", 5);
    /* 5 acknowledged bytes, fewer than the chunk: readable (the parsers' view) but not
     * announced at the client's next packet */
    CHECK_EQ_U(tail_off(&c, SVR), 5);
    CHECK_EQ_U(cdata(&c, 5, "fgh", 0).rcv, 0);
    /* the ACK of 3 more makes 8: announced with the client's next packet, all of them */
    sdata(&c, 0, "", 8);
    CHECK_EQ_U(cdata(&c, 8, "", 0).rcv, EV_DATA);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 8);
    CHECK(strcmp(b, "abcdefgh") == 0);
    /* a trigger announces fewer (once: the next short chunk waits again) */
    cdata(&c, 8, "ij", 0);
    sdata(&c, 0, "", 10);
    CHECK(tcp_setsockopt(&c.t, &c.f, SVR, MON_SO_RAW_TRIGGER, NULL, 0) == MON_OK);
    CHECK_EQ_U(cdata(&c, 10, "k", 0).rcv, EV_DATA);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 2);
    sdata(&c, 0, "", 11);
    CHECK_EQ_U(cdata(&c, 11, "", 0).rcv, 0);
    /* the server's bytes wait for their own (larger) chunk */
    sdata(&c, 0, "0123456789", 11);
    cdata(&c, 11, "", 10);
    CHECK_EQ_U(sdata(&c, 10, "", 11).rcv, 0);
    /* the connection's end announces what waits, both sides */
    struct ph r = tc_pkt(&c, CLI, F_R | F_A, CI + 12u, SI + 11u, NULL, 0);
    CHECK(r.rcv & EV_DATA);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 1);
    CHECK(tcp_conn_release(&c.t, &c.f, CLI) & TCP_EV(MON_ON_CONN_NEW_DATA));
    CHECK_EQ_U(tc_read(&c, CLI, b, sizeof b), 10);
    tc_free(&c);
}

/* an endpoint's close done (Suricata's session past TIME_WAIT): what its peer acknowledged is
 * announced whatever the chunk size (suricata-verify smtp-eve: the QUIT with the client's ACK
 * of the server's FIN, while the client's own FIN still waits for its ACK) */
static void test_close_done_announces(void)
{
    struct tconn c;
    struct mon_tcp_cfg cfg;
    char b[64];
    mon_tcp_cfg_defaults(&cfg);
    cfg.ack_delivery = true;
    cfg.ack_chunk[0] = cfg.ack_chunk[1] = 100;
    tc_init(&c, &cfg);
    tc_handshake(&c, CI, SI);
    cdata(&c, 0, "QUIT", 0);
    tc_pkt(&c, CLI, F_F | F_A, CI + 5u, SI + 1u, NULL, 0);           /* the client's FIN */
    CHECK_EQ_U(sdata(&c, 0, "", 4).rcv, 0);                           /* QUIT acked only */
    struct ph r = tc_pkt(&c, SVR, F_F | F_A, SI + 1u, CI + 5u, NULL, 0); /* the server's FIN */
    CHECK_EQ_U(r.rcv & EV_DATA, 0);
    /* the client acknowledges the server's FIN: the server's close is done (its FIN acked),
     * the client's not yet (CLOSING) — the QUIT goes to inspection now */
    r = tc_pkt(&c, CLI, F_A, CI + 6u, SI + 2u, NULL, 0);
    CHECK_EQ_U(r.rcv & (EV_DATA | EV_END), EV_DATA);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 4);
    tc_free(&c);
}

int main(void)
{
    test_chunks();
    test_close_done_announces();
    test_window_beyond_buffer();
    test_delivered_after_ack();
    test_rst_delivers_unacked();
    test_flush_delivers_unacked();
    test_close_delivers();
    test_arrival_default();
    test_async_oneside();
    return unit_report("test_reasm_ack");
}
