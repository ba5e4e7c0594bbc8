/* test_proto_tls.c — TLS's descriptor, bytes in, buffers out: a ClientHello built here (SNI,
 * ALPN, random) gives its buffers, tls.random_time / random_bytes (slices of the random), the
 * fields (version, handshake state by name), and the hello split over records and segments. */
#include "proto_harness.h"
#include "tls_int.h"
#include "unit.h"

static size_t put16(uint8_t *p, size_t at, unsigned v)
{
    p[at] = (uint8_t)(v >> 8);
    p[at + 1] = (uint8_t)v;
    return at + 2;
}

/* A TLS 1.2 ClientHello record for sni with ALPN "h2", "http/1.1"; random bytes 0, 1, … 31. */
static size_t client_hello(uint8_t *out, const char *sni)
{
    uint8_t b[512];
    size_t n = 0, sl = strlen(sni);
    n = put16(b, n, 0x0303);
    for (int i = 0; i < 32; i++)
        b[n++] = (uint8_t)i;
    b[n++] = 0;                      /* session id */
    n = put16(b, n, 2);
    n = put16(b, n, 0x1301);         /* one cipher suite */
    b[n++] = 1;
    b[n++] = 0;                      /* null compression */
    size_t ext_len_at = n;
    n += 2;
    n = put16(b, n, 0);              /* server_name */
    n = put16(b, n, (unsigned)(sl + 5));
    n = put16(b, n, (unsigned)(sl + 3));
    b[n++] = 0;
    n = put16(b, n, (unsigned)sl);
    memcpy(b + n, sni, sl);
    n += sl;
    static const uint8_t alpn[] = {2, 'h', '2', 8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
    n = put16(b, n, 16);             /* application_layer_protocol_negotiation */
    n = put16(b, n, sizeof alpn + 2);
    n = put16(b, n, sizeof alpn);
    memcpy(b + n, alpn, sizeof alpn);
    n += sizeof alpn;
    put16(b, ext_len_at, (unsigned)(n - ext_len_at - 2));
    size_t k = 0;
    out[k++] = 0x16;
    k = put16(out, k, 0x0301);
    k = put16(out, k, (unsigned)(n + 4));
    out[k++] = 1;                    /* ClientHello */
    out[k++] = 0;
    k = put16(out, k, (unsigned)n);
    memcpy(out + k, b, n);
    return k + n;
}

static void test_client_hello(void)
{
    uint8_t rec[600];
    size_t n = client_hello(rec, "www.example.org");
    struct ph h;
    ph_init(&h, "tls", 6, 40000, 443);
    /* detection's probe says yes on the record's first 6 bytes */
    CHECK(h.def->probes[0].probe(rec, 6, &h.f) == DET_YES);
    for (size_t i = 0; i < n; i += 7) /* split anywhere */
        ph_feed(&h, 0, rec + i, n - i < 7 ? n - i : 7);
    CHECK(ph_buf_is(&h, "tls.sni", 0, 0, "www.example.org"));
    CHECK(ph_rec_is(&h, "tls.version", 0, "TLS 1.2"));
    CHECK_EQ_U(ph_nbuf(&h, "tls.alpn", 0), 2);
    CHECK(ph_buf_is(&h, "tls.alpn", 0, 1, "http/1.1"));
    uint32_t len;
    const uint8_t *r = ph_buf(&h, "tls.random", 0, 0, &len);
    CHECK(r && len == 32 && r[31] == 31);
    const uint8_t *t = ph_buf(&h, "tls.random_time", 0, 0, &len);
    CHECK(t && len == 4 && t[0] == 0 && t[3] == 3);
    const uint8_t *rb = ph_buf(&h, "tls.random_bytes", 0, 0, &len);
    CHECK(rb && len == 28 && rb[0] == 4);
    CHECK(ph_buf(&h, "ja3.hash", 0, 0, &len) && len == 32);
    CHECK(ph_buf(&h, "ja4.hash", 0, 0, &len) && len > 0);
    CHECK(!ph_buf(&h, "ja3s.hash", 1, 0, &len)); /* no server hello yet */
    int64_t v = 0, hello = 0;
    CHECK(ph_field(&h, "tls.client_version", 0, &v) && v == 0x0303);
    CHECK(osprey_field_value((uint16_t)osprey_field_find("tls.state"), "client_hello", &hello));
    CHECK(ph_field(&h, "tls.last_state", 0, &v) && v == hello);
    CHECK(!ph_field(&h, "tls.not_after", 0, &v)); /* no certificate: absent */
    CHECK_EQ_U(ph_count(&h, "tls_handshakes"), 1);
    ph_free(&h);
}

static void test_rows(void)
{
    /* its buffers imply a side: the client's hello, the server's certificate */
    uint16_t tls = (uint16_t)osprey_app_proto_find("ssl");
    CHECK(tls == osprey_app_proto_find("tls") && osprey_app_proto_buffers_imply_dir(tls));
    CHECK(!osprey_app_proto_buffers_imply_dir((uint16_t)osprey_app_proto_find("http")));
    CHECK(osprey_buffer_two_sided("tls.cert_subject"));
    CHECK(osprey_buffer_two_sided("tls.alpn"));
    CHECK(!osprey_buffer_two_sided("tls.sni"));
    int b = osprey_buffer_find("tls.alpn", 1);
    CHECK(b >= 0 && !strcmp(osprey_buffer_name((uint16_t)b), "tls.alpn.server"));
    b = osprey_buffer_find("tls.cert_subject", 0);
    CHECK(b >= 0 && !strcmp(osprey_event_name(osprey_buffer_event((uint16_t)b)),
                            "tls_client_certificate"));
    CHECK(osprey_buffer_find("tls.version", 0) < 0); /* records only: tls.version is a keyword */
    CHECK(osprey_app_event_find("tls.invalid_record_type") >= 0);
}

/* Suricata's record-level events: heartbeats followed across the sides, an SSLv2 ERROR
 * message, a short alert, a hello cut inside its random, too many records in one chunk */
static void test_record_events(void)
{
    struct ph h;
    uint8_t hello[512];
    size_t n = client_hello(hello, "a.example");
    ph_init(&h, "tls", 6, 40000, 443);
    ph_feed(&h, 0, hello, n);
    /* a request claiming 0x4000 bytes of payload in a 19-byte record, split anywhere */
    static const uint8_t bleed[] = {24, 3, 3, 0, 19, 1, 0x40, 0x00, 'p', 'p', 'p', 'p', 'p',
                                    'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'p'};
    ph_feed(&h, 0, bleed, 7);
    CHECK_EQ_U(ph_raised(&h, "tls.overflow_heartbeat_message"), 0);
    ph_feed(&h, 0, bleed + 7, sizeof bleed - 7);
    CHECK_EQ_U(ph_raised(&h, "tls.overflow_heartbeat_message"), 1);
    ph_feed(&h, 0, bleed, sizeof bleed); /* a second one before any answer */
    CHECK_EQ_U(ph_raised(&h, "tls.invalid_heartbeat_message"), 1);
    ph_feed(&h, 1, "\x80\x03\x00\x00\x01", 5); /* SSLv2 ERROR: no cipher */
    CHECK_EQ_U(ph_raised(&h, "tls.error_message_encountered"), 1);
    ph_feed(&h, 1, "\x15\x03\x03\x00\x01\x02", 6);
    CHECK_EQ_U(ph_raised(&h, "tls.invalid_alert_message"), 1);
    CHECK(!h.pf.dead[0] && !h.pf.dead[1]);
    ph_feed(&h, 1, "\x80\x01\x04\x80\x01\x04\x80\x01\x04", 9); /* 3 records, 9 bytes */
    CHECK_EQ_U(ph_raised(&h, "tls.too_many_records_in_packet"), 1);
    CHECK(h.pf.dead[1]);
    ph_free(&h);

    ph_init(&h, "tls", 6, 40000, 443);
    static const uint8_t cut[] = {22, 3, 1, 0, 10, 1, 0, 0, 6, 3, 3, 1, 2, 3, 4};
    ph_feed(&h, 0, cut, sizeof cut); /* a ClientHello of 6 bytes: cut inside its random */
    CHECK_EQ_U(ph_raised(&h, "tls.handshake_invalid_length"), 1);
    CHECK(!ph_buf(&h, "tls.sni", 0, 0, &(uint32_t){0}));
    ph_free(&h);
}

/* Application data ends what content rules read of the flow (encryption-handling default:
 * the records are still read; bypass: not either; full: nothing changes), but not 0-RTT data
 * a ClientHello with early_data announced, before the ServerHello */
static void test_encrypted_payload(void)
{
    static const uint8_t appdata[] = {23, 3, 3, 0, 4, 'a', 'b', 'c', 'd'};
    static const uint8_t alert[] = {21, 3, 3, 0, 2, 1, 0}; /* a clear close_notify */
    uint8_t hello[600];
    size_t n = client_hello(hello, "a.example");
    struct ph h;
    ph_init(&h, "tls", 6, 40000, 443);
    ph_feed(&h, 0, hello, n);
    CHECK_EQ_U(h.pf.payload, OSPREY_PAYLOAD_INSPECTED);
    ph_feed(&h, 1, appdata, 7); /* the record's end decides */
    CHECK_EQ_U(h.pf.payload, OSPREY_PAYLOAD_INSPECTED);
    ph_feed(&h, 1, appdata + 7, sizeof appdata - 7);
    CHECK_EQ_U(h.pf.payload, OSPREY_PAYLOAD_ENCRYPTED);
    ph_feed(&h, 0, alert, sizeof alert); /* the records are still read */
    CHECK(!h.pf.dead[0] && !h.pf.dead[1]);
    ph_free(&h);

    ph_init(&h, "tls", 6, 40000, 443);
    ((struct tls_cfg *)ph_cfg(&h))->encryption_handling = TLS_ENC_BYPASS;
    ph_feed(&h, 0, hello, n);
    ph_feed(&h, 0, appdata, sizeof appdata); /* the client's own data counts too */
    CHECK_EQ_U(h.pf.payload, OSPREY_PAYLOAD_UNREASSEMBLED);
    CHECK(h.pf.dead[0] && h.pf.dead[1]);
    ph_free(&h);

    ph_init(&h, "tls", 6, 40000, 443);
    ((struct tls_cfg *)ph_cfg(&h))->encryption_handling = TLS_ENC_FULL;
    ph_feed(&h, 0, hello, n);
    ph_feed(&h, 1, appdata, sizeof appdata);
    CHECK_EQ_U(h.pf.payload, OSPREY_PAYLOAD_INSPECTED);
    ph_free(&h);

    /* 0-RTT: the ClientHello's early_data extension (type 42, empty) appended */
    size_t body = n - 9, ext_at = 9 + 2 + 32 + 1 + 2 + 2 + 1 + 1; /* record + handshake headers */
    uint8_t early[620];
    memcpy(early, hello, n);
    memcpy(early + n, "\x00\x2a\x00\x00", 4);
    put16(early, 3, (unsigned)(n - 5 + 4));              /* record length */
    early[6] = 0;                                         /* handshake length (24 bits) */
    put16(early, 7, (unsigned)(body + 4));
    put16(early, ext_at, (unsigned)(n - ext_at - 2 + 4)); /* extensions length */
    ph_init(&h, "tls", 6, 40000, 443);
    ph_feed(&h, 0, early, n + 4);
    CHECK(ph_buf_is(&h, "tls.sni", 0, 0, "a.example")); /* read whole */
    ph_feed(&h, 0, appdata, sizeof appdata);
    CHECK_EQ_U(h.pf.payload, OSPREY_PAYLOAD_INSPECTED); /* early data: still inspected */
    static const uint8_t shello[] = {22, 3, 3, 0, 42, 2, 0, 0, 38, 3, 3,
                                     0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                     16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
                                     30, 31, 0, 0x13, 0x01, 0};
    ph_feed(&h, 1, shello, sizeof shello);
    ph_feed(&h, 0, appdata, sizeof appdata);
    CHECK_EQ_U(h.pf.payload, OSPREY_PAYLOAD_ENCRYPTED); /* after the ServerHello */
    ph_free(&h);
}

int main(void)
{
    test_encrypted_payload();
    test_record_events();
    test_client_hello();
    test_rows();
    return unit_report("test_proto_tls");
}
