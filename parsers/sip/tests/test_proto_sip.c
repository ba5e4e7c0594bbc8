/* test_proto_sip.c — SIP's descriptor, bytes in, buffers out: a UDP request with compact
 * headers and an SDP body, a response, a request in the wrong direction, TCP framing by
 * Content-Length across any split (with keep-alives), a body past the limit, the probe, the
 * header and SDP limits, the frames. */
#include "proto_harness.h"
#include "sip_int.h"
#include "unit.h"

static const char INVITE[] =
    "INVITE sip:bob@example.com SIP/2.0\r\n"
    "v: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK1\r\n"
    "f: \"Alice\" <sip:alice@example.com>;tag=1\r\n"
    "t: <sip:bob@example.com>\r\n"
    "To: <sip:carol@example.com>\r\n"
    "Call-ID: 1@10.0.0.1\r\n"
    "CSeq: 1 INVITE\r\n"
    "User-Agent:   Phone 1.0  \r\n"
    "c: application/sdp\r\n"
    "l: 150\r\n"
    "\r\n"
    "v=0\r\n"
    "o=alice 1 1 IN IP4 10.0.0.1\r\n"
    "s=call\r\n"
    "c=IN IP4 10.0.0.1\r\n"
    "t=0 0\r\n"
    "r=7d 1h 0 25h\r\n"
    "a=sendrecv\r\n"
    "m=audio 4000 RTP/AVP 0\r\n"
    "i=voice\r\n"
    "a=rtpmap:0 PCMU/8000\r\n";

static void feed_str(struct ph *h, int dir, const char *s)
{
    ph_feed(h, dir, s, strlen(s));
}

static void test_udp_request_response(void)
{
    struct ph h;
    ph_init(&h, "sip", 17, 5060, 5060);
    feed_str(&h, 0, INVITE);
    CHECK_EQ_U(h.txs, 1);
    CHECK(ph_buf_is(&h, "sip.method", 0, 0, "INVITE"));
    CHECK(ph_buf_is(&h, "sip.uri", 0, 0, "sip:bob@example.com"));
    CHECK(ph_buf_is(&h, "sip.protocol", 0, 0, "SIP/2.0"));
    CHECK(ph_buf_is(&h, "sip.request_line", 0, 0, "INVITE sip:bob@example.com SIP/2.0"));
    CHECK(!ph_buf(&h, "sip.stat_code", 1, 0, &(uint32_t){0})); /* a request has none */
    /* compact forms, a header repeated in its other form: both values */
    CHECK(ph_buf_is(&h, "sip.from", 0, 0, "\"Alice\" <sip:alice@example.com>;tag=1"));
    CHECK_EQ_U(ph_nbuf(&h, "sip.to", 0), 2);
    CHECK(ph_buf_is(&h, "sip.to", 0, 1, "<sip:carol@example.com>"));
    CHECK(ph_buf_is(&h, "sip.via", 0, 0, "SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK1"));
    CHECK(ph_buf_is(&h, "sip.user_agent", 0, 0, "Phone 1.0")); /* whitespace around dropped */
    CHECK(ph_buf_is(&h, "sip.content_type", 0, 0, "application/sdp"));
    CHECK(ph_buf_is(&h, "sip.content_length", 0, 0, "150"));
    /* SDP: session lines, time and repeat, media lines */
    CHECK(ph_buf_is(&h, "sdp.origin", 0, 0, "alice 1 1 IN IP4 10.0.0.1"));
    CHECK(ph_buf_is(&h, "sdp.session_name", 0, 0, "call"));
    CHECK(ph_buf_is(&h, "sdp.connection_data", 0, 0, "IN IP4 10.0.0.1"));
    CHECK(ph_buf_is(&h, "sdp.time", 0, 0, "0 0"));
    CHECK(ph_buf_is(&h, "sdp.repeat_time", 0, 0, "7d 1h 0 25h"));
    CHECK_EQ_U(ph_nbuf(&h, "sdp.attribute", 0), 1); /* the media's a= is the media's */
    CHECK(ph_buf_is(&h, "sdp.media.media", 0, 0, "audio 4000 RTP/AVP 0"));
    CHECK(ph_buf_is(&h, "sdp.media.media_info", 0, 0, "voice"));
    CHECK(!ph_buf(&h, "sdp.media.connection_data", 0, 0, &(uint32_t){0}));
    CHECK(!ph_buf(&h, "sdp.session_info", 0, 0, &(uint32_t){0}));
    /* frames: the line with its CRLF, the header lines without the empty line, the body */
    CHECK(ph_buf_is(&h, "frame:sip.request.line", 0, 0,
                    "INVITE sip:bob@example.com SIP/2.0\r\n"));
    uint32_t n;
    const uint8_t *hd = ph_buf(&h, "frame:sip.request.headers", 0, 0, &n);
    CHECK(hd && n > 4 && !memcmp(hd, "v: ", 3) && !memcmp(hd + n - 8, "l: 150\r\n", 8));
    const uint8_t *b = ph_buf(&h, "frame:sip.request.body", 0, 0, &n);
    CHECK(b && n == 150 && !memcmp(b, "v=0\r\n", 5));
    CHECK(ph_buf(&h, "frame:sip.pdu", 0, 0, &n) && n == strlen(INVITE));

    feed_str(&h, 1, "SIP/2.0 180 Ringing\r\nVia: SIP/2.0/UDP 10.0.0.1\r\nContent-Length: 0\r\n\r\n");
    CHECK_EQ_U(h.txs, 2);
    CHECK(ph_buf_is(&h, "sip.stat_code", 1, 0, "180"));
    CHECK(ph_buf_is(&h, "sip.stat_msg", 1, 0, "Ringing"));
    CHECK(ph_buf_is(&h, "sip.response_line", 1, 0, "SIP/2.0 180 Ringing"));
    CHECK(ph_buf_is(&h, "sip.protocol", 1, 0, "SIP/2.0"));
    CHECK(!ph_buf(&h, "sip.method", 0, 0, &(uint32_t){0}));
    CHECK(!ph_buf(&h, "frame:sip.response.body", 1, 0, &(uint32_t){0})); /* no body */
    CHECK(!ph_buf(&h, "sdp.origin", 1, 0, &(uint32_t){0}));

    /* a request sent to the client, junk: not messages (invalid_data), no transaction */
    feed_str(&h, 1, "REGISTER sip:x SIP/2.0\r\n\r\n");
    feed_str(&h, 0, "INVITE sip:x SIP/2.0\r\nno colon here\r\n\r\n");
    feed_str(&h, 0, "INVITE sip:x SIP/2.0\r\nVia: cut");
    ph_feed(&h, 0, "", 0); /* an empty datagram: nothing (a fuzz find: no copy to read) */
    CHECK_EQ_U(h.txs, 2);
    CHECK_EQ_U(ph_count(&h, "sip_malformed"), 3);
    CHECK(!ph_buf(&h, "sip.method", 0, 0, &(uint32_t){0}));
    CHECK_EQ_U(ph_count(&h, "sip_messages"), 2);
    ph_free(&h);
}

/* A method is a token (RFC 3261 25.1): a NUL byte is none of its characters, any more than a
 * space or a separator is. */
static void test_method_bytes(void)
{
    static const char nul[] = "INV\0ITE sip:x SIP/2.0\r\n\r\n";
    struct ph h;
    ph_init(&h, "sip", 17, 5060, 5060);
    ph_feed(&h, 0, nul, sizeof nul - 1);
    feed_str(&h, 0, "INV\"ITE sip:x SIP/2.0\r\n\r\n");
    feed_str(&h, 0, "INV;ITE sip:x SIP/2.0\r\n\r\n");
    CHECK_EQ_U(h.txs, 0);
    CHECK_EQ_U(ph_count(&h, "sip_malformed"), 3);
    feed_str(&h, 0, "X-Method.1!%*_+`'~ sip:x SIP/2.0\r\n\r\n"); /* every token mark */
    CHECK_EQ_U(h.txs, 1);
    CHECK(ph_buf_is(&h, "sip.method", 0, 0, "X-Method.1!%*_+`'~"));
    ph_free(&h);
}

static void test_tcp_framing(void)
{
    struct ph h;
    ph_init(&h, "sip", 6, 40000, 5060);
    /* two messages, keep-alives before and between, fed a byte at a time */
    char two[2 * sizeof INVITE + 16];
    snprintf(two, sizeof two, "\r\n\r\n%s\r\n%s", INVITE, INVITE);
    for (size_t i = 0; two[i]; i++)
        ph_feed(&h, 0, two + i, 1);
    CHECK_EQ_U(h.txs, 2);
    CHECK(ph_buf_is(&h, "sdp.media.media", 0, 0, "audio 4000 RTP/AVP 0"));
    uint32_t n;
    CHECK(ph_buf(&h, "frame:sip.request.body", 0, 0, &n) && n == 150);
    /* no Content-Length: no body */
    feed_str(&h, 1, "SIP/2.0 200 OK\r\nVia: x\r\n\r\nSIP/2.0 100 Trying\r\n\r\n");
    CHECK_EQ_U(h.txs, 4);
    CHECK(ph_buf_is(&h, "sip.stat_msg", 1, 0, "Trying"));
    ph_free(&h);

    /* a body past the limit: cut at SIP_MSG_MAX, the rest skipped, the next message read */
    ph_init(&h, "sip", 6, 40000, 5060);
    char head[128];
    size_t body = SIP_MSG_MAX + 1000;
    int hl = snprintf(head, sizeof head, "MESSAGE sip:a SIP/2.0\r\nContent-Length: %zu\r\n\r\n",
                      body);
    feed_str(&h, 0, head);
    char *big = malloc(body);
    memset(big, 'X', body);
    ph_feed(&h, 0, big, body);
    free(big);
    CHECK_EQ_U(h.txs, 1);
    CHECK_EQ_U(ph_count(&h, "sip_too_large"), 1);
    CHECK(ph_buf(&h, "frame:sip.request.body", 0, 0, &n) && n == SIP_MSG_MAX - (uint32_t)hl);
    feed_str(&h, 0, "BYE sip:a SIP/2.0\r\n\r\n");
    CHECK_EQ_U(h.txs, 2);
    CHECK(ph_buf_is(&h, "sip.method", 0, 0, "BYE"));
    ph_free(&h);

    /* a head that never ends: the direction is given up at the limit */
    ph_init(&h, "sip", 6, 40000, 5060);
    feed_str(&h, 0, "OPTIONS sip:a SIP/2.0\r\n");
    char *junk = malloc(SIP_MSG_MAX);
    memset(junk, 'a', SIP_MSG_MAX);
    ph_feed(&h, 0, junk, SIP_MSG_MAX);
    free(junk);
    CHECK(h.pf.dead[0]);
    CHECK_EQ_U(h.txs, 0);
    ph_free(&h);
}

static void test_limits(void)
{
    struct ph h;
    ph_init(&h, "sip", 17, 5060, 5060);
    char msg[8192];
    size_t at = (size_t)snprintf(msg, sizeof msg, "NOTIFY sip:a SIP/2.0\r\n");
    for (int i = 0; i < SIP_HEADERS_MAX + 5; i++)
        at += (size_t)snprintf(msg + at, sizeof msg - at, "Via: v%d\r\n", i);
    at += (size_t)snprintf(msg + at, sizeof msg - at, "\r\nv=0\r\n");
    for (int i = 0; i < SIP_SDP_MAX + 3; i++)
        at += (size_t)snprintf(msg + at, sizeof msg - at, "a=x%d\r\n", i);
    ph_feed(&h, 0, msg, at);
    CHECK_EQ_U(h.txs, 1);
    CHECK_EQ_U(ph_nbuf(&h, "sip.via", 0), SIP_HEADERS_MAX);
    CHECK_EQ_U(ph_count(&h, "sip_headers_shed"), 5);
    /* no Content-Type: a body starting "v=" is SDP */
    CHECK_EQ_U(ph_nbuf(&h, "sdp.attribute", 0), SIP_SDP_MAX);
    CHECK_EQ_U(ph_count(&h, "sip_sdp_lines_shed"), 3);
    ph_free(&h);
}

static void test_probe(void)
{
#define P(s) sip_probe((const uint8_t *)(s), sizeof(s) - 1, NULL)
    CHECK(P("SIP/2.0 200 OK\r\n") == DET_YES);
    CHECK(P("SIP/2.0 2") == DET_NEED_MORE);
    CHECK(P("SIP/2.0 abc") == DET_NO);
    CHECK(P("REGISTER sip:a SIP/2.0\r\n") == DET_YES);
    CHECK(P("REGISTER sip:a SIP/2.0\n") == DET_YES);
    CHECK(P("REGISTER sip:a SIP/2") == DET_NEED_MORE);
    CHECK(P("REGIS") == DET_NEED_MORE);
    CHECK(P("REGISTER / HTTP/1.1\r\n") == DET_NO);
    CHECK(P("GET / HTTP/1.1\r\n") == DET_NO);
    CHECK(P("INVITEX sip:a SIP/2.0\r\n") == DET_NO);
    CHECK(P("invite sip:a SIP/2.0\r\n") == DET_NO);
    /* a method outside the list: only with port 5060 / 5061 as a hint */
    struct mon_flow f5060 = {.cport = 40000, .sport = 5060};
    static const char EXT[] = "FOOBAR sip:a SIP/2.0\r\n";
    CHECK(sip_probe((const uint8_t *)EXT, sizeof EXT - 1, &f5060) == DET_YES);
    CHECK(sip_probe((const uint8_t *)EXT, 6, &f5060) == DET_NEED_MORE);
    CHECK(P("FOOBAR sip:a SIP/2.0\r\n") == DET_NO);
    CHECK(P("FOO") == DET_NO);
    CHECK(sip_probe((const uint8_t *)"FOOBAR / HTTP/1.0\r\n", 19, &f5060) == DET_NO);
#undef P
    CHECK(osprey_buffer_two_sided("sip.from"));
    CHECK(osprey_app_proto_has_eve((uint16_t)osprey_app_proto_find("sip")));
    CHECK_EQ_U(osprey_app_proto_l4((uint16_t)osprey_app_proto_find("sip")), 0);
}

/* The look for a head's end goes on where it stopped: more bytes of a head are looked at
 * once (a head trickled a byte at a time was scanned again from its start each time). */
static void test_head_scan(void)
{
    const char *m = "INVITE sip:a SIP/2.0\r\nVia: x\r\n\r\nbody";
    const uint8_t *d = (const uint8_t *)m;
    size_t head = strlen("INVITE sip:a SIP/2.0\r\nVia: x\r\n\r\n"), from = 0, last = 0;
    for (size_t k = 1; k < head; k++) {
        CHECK_EQ_U(sip_head_end(d, k, &from), 0);
        CHECK(from >= last && from <= k); /* never back: each byte looked at once */
        last = from;
    }
    CHECK_EQ_U(from, strlen("INVITE sip:a SIP/2.0\r\nVia: x\r\n")); /* the empty line */
    CHECK_EQ_U(sip_head_end(d, head, &from), head);
    CHECK_EQ_U(sip_head_end(d, head + 4, &from), head); /* found again at once */
    from = 0;
    CHECK_EQ_U(sip_head_end(d, strlen(m), &from), head);
}

/* A message's parse resets only what a count bounds: nothing of the message before shows in
 * the next (its headers, SDP times with repeats, media with info and attributes). */
static void test_next_message_keeps_nothing_of_the_last(void)
{
    struct ph h;
    ph_init(&h, "sip", 17, 5060, 5060);
    feed_str(&h, 0, INVITE);
    CHECK(ph_buf_is(&h, "sdp.repeat_time", 0, 0, "7d 1h 0 25h"));
    CHECK(ph_buf_is(&h, "sdp.media.media_info", 0, 0, "voice"));
    feed_str(&h, 0, "OPTIONS sip:bob@example.com SIP/2.0\r\n"
                    "Content-Type: application/sdp\r\n"
                    "Content-Length: 37\r\n"
                    "\r\n"
                    "v=0\r\n"
                    "t=1 2\r\n"
                    "m=video 5000 RTP/AVP 31\r\n");
    CHECK_EQ_U(h.txs, 2);
    CHECK(ph_buf_is(&h, "sip.method", 0, 0, "OPTIONS"));
    CHECK_EQ_U(ph_nbuf(&h, "sip.to", 0), 0);
    CHECK(!ph_buf(&h, "sip.user_agent", 0, 0, &(uint32_t){0}));
    CHECK(ph_buf_is(&h, "sdp.time", 0, 0, "1 2"));
    CHECK(!ph_buf(&h, "sdp.repeat_time", 0, 0, &(uint32_t){0}));
    CHECK(!ph_buf(&h, "sdp.origin", 0, 0, &(uint32_t){0}));
    CHECK(ph_buf_is(&h, "sdp.media.media", 0, 0, "video 5000 RTP/AVP 31"));
    CHECK(!ph_buf(&h, "sdp.media.media_info", 0, 0, &(uint32_t){0}));
    CHECK_EQ_U(ph_nbuf(&h, "sdp.attribute", 0), 0);
    /* a malformed one after it: no message in force */
    feed_str(&h, 0, "INVITE sip:x SIP/2.0\r\nno colon here\r\n\r\n");
    CHECK(!ph_buf(&h, "sip.method", 0, 0, &(uint32_t){0}));
    CHECK(!ph_buf(&h, "sdp.time", 0, 0, &(uint32_t){0}));
    ph_free(&h);
}

int main(void)
{
    test_udp_request_response();
    test_next_message_keeps_nothing_of_the_last();
    test_method_bytes();
    test_tcp_framing();
    test_limits();
    test_probe();
    test_head_scan();
    return unit_report("test_proto_sip");
}
