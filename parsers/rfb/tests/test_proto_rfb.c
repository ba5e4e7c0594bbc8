/* test_proto_rfb.c — RFB's descriptor, bytes in, buffers out: the 3.8 handshake with VNC
 * authentication split anywhere (the server's messages waiting on the client's choice),
 * 3.3's server-decided None without a result, 3.8's failure with its reason, a security type
 * not followed, a type that was not offered, a bad version, the probe, the EVE object. */
#include "osprey_json_writer.h"
#include "proto_harness.h"
#include "rfb_int.h"
#include "unit.h"

static int64_t field(struct ph *h, const char *name)
{
    int64_t v = -1;
    return ph_field(h, name, 0, &v) ? v : -1;
}

static char *eve(struct ph *h)
{
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    CHECK(rfb_eve(&h->pf, &w));
    return osprey_jw_finish(&w);
}

static const uint8_t INIT[] = {0x05, 0x00, 0x03, 0x20, /* 1280 x 800 */
                               32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0, 0, 0, 0,
                               0, 0, 0, 4, 'd', 'e', 's', 'k'};

static void test_38_vnc(void)
{
    struct ph h;
    ph_init(&h, "rfb", 6, 40000, 5900);
    uint8_t ch[16], re[16];
    memset(ch, 0xab, 16);
    memset(re, 0xcd, 16);
    ph_feed(&h, 1, "RFB 003.008\n", 12);
    ph_feed(&h, 0, "RFB 003.008\n", 12);
    ph_feed(&h, 1, "\x02\x01\x02", 3); /* None, VNC offered */
    ph_feed(&h, 1, ch, 16);            /* the challenge before the choice: it waits */
    CHECK(field(&h, "rfb.sectype") == -1);
    ph_feed(&h, 0, "\x02", 1);
    CHECK(field(&h, "rfb.sectype") == 2);
    ph_feed(&h, 0, re, 16);
    CHECK(!ph_buf(&h, "rfb.auth", 1, 0, &(uint32_t){0})); /* no result yet */
    ph_feed(&h, 1, "\x00\x00", 2);
    ph_feed(&h, 1, "\x00\x00", 2);
    CHECK(field(&h, "rfb.secresult") == 0);
    CHECK(ph_buf(&h, "rfb.auth", 1, 0, &(uint32_t){0}));
    ph_feed(&h, 0, "\x01", 1);
    for (size_t i = 0; i < sizeof INIT; i++)
        ph_feed(&h, 1, INIT + i, 1);
    CHECK(ph_buf_is(&h, "rfb.name", 1, 0, "desk"));
    CHECK_EQ_U(h.txs, 1);
    CHECK(h.pf.dead[0] && h.pf.dead[1]);
    char *j = eve(&h);
    CHECK(j && strstr(j, "\"server_protocol_version\":{\"major\":\"003\",\"minor\":\"008\"}") &&
          strstr(j, "\"authentication\":{\"security_type\":2,\"vnc\":{\"challenge\":\"abab") &&
          strstr(j, "\"security_result\":\"OK\"},\"screen_shared\":true,\"framebuffer\":"
                    "{\"width\":1280,\"height\":800,\"name\":\"desk\",\"pixel_format\":"
                    "{\"bits_per_pixel\":32,\"depth\":24,\"big_endian\":false,"
                    "\"true_color\":true,\"red_max\":255,"));
    free(j);
    ph_end(&h);
    CHECK_EQ_U(h.txs, 1);
    CHECK_EQ_U(ph_count(&h, "rfb_handshakes"), 1);
    ph_free(&h);
}

static void test_33_none_and_38_failure(void)
{
    struct ph h;
    ph_init(&h, "rfb", 6, 40000, 5900);
    ph_feed(&h, 1, "RFB 003.003\n", 12);
    ph_feed(&h, 0, "RFB 003.003\n", 12);
    ph_feed(&h, 1, "\x00\x00\x00\x01", 4); /* the server decides None: no result follows */
    ph_feed(&h, 0, "\x00", 1);
    ph_feed(&h, 1, INIT, sizeof INIT);
    CHECK(field(&h, "rfb.sectype") == 1 && field(&h, "rfb.secresult") == -1);
    CHECK(ph_buf(&h, "rfb.auth", 1, 0, &(uint32_t){0}));
    CHECK(ph_buf_is(&h, "rfb.name", 1, 0, "desk"));
    CHECK_EQ_U(h.txs, 1);
    ph_free(&h);

    ph_init(&h, "rfb", 6, 40000, 5900);
    ph_feed(&h, 1, "RFB 003.008\n", 12);
    ph_feed(&h, 0, "RFB 003.008\n", 12);
    ph_feed(&h, 1, "\x01\x01", 2);
    ph_feed(&h, 0, "\x01", 1);
    ph_feed(&h, 1, "\x00\x00\x00\x01\x00\x00\x00\x03" "bad", 11); /* failed, its reason */
    CHECK(field(&h, "rfb.secresult") == 1);
    CHECK(!ph_buf(&h, "rfb.name", 1, 0, &(uint32_t){0}));
    char *j = eve(&h);
    CHECK(j && strstr(j, "\"security_result\":\"FAIL\"},\"server_security_failure_reason\":\"bad\""));
    free(j);
    CHECK_EQ_U(h.txs, 1);
    ph_free(&h);
}

static void test_odd(void)
{
    struct ph h;
    ph_init(&h, "rfb", 6, 40000, 5900);
    ph_feed(&h, 1, "RFB 003.008\n", 12);
    ph_feed(&h, 0, "RFB 003.008\n", 12);
    ph_feed(&h, 1, "\x01\x02", 2);
    ph_feed(&h, 0, "\x1e", 1); /* Apple's 30, not offered, not followed */
    CHECK(field(&h, "rfb.sectype") == 30);
    CHECK(h.pf.dead[0] && h.pf.dead[1]);
    CHECK_EQ_U(h.txs, 1);
    ph_free(&h);

    ph_init(&h, "rfb", 6, 40000, 5900);
    ph_feed(&h, 1, "RFB 003.00x\n", 12); /* not a version */
    CHECK(h.pf.dead[1]);
    CHECK_EQ_U(ph_count(&h, "rfb_malformed"), 1);
    ph_free(&h);

    CHECK(rfb_probe((const uint8_t *)"RFB 003", 7, NULL) == DET_NEED_MORE);
    CHECK(rfb_probe((const uint8_t *)"RFB 003.889\n", 12, NULL) == DET_YES);
    CHECK(rfb_probe((const uint8_t *)"RFB 0x3.889\n", 12, NULL) == DET_NO);
    CHECK(rfb_probe((const uint8_t *)"HTTP/1.1", 8, NULL) == DET_NO);
}

int main(void)
{
    test_38_vnc();
    test_33_none_and_38_failure();
    test_odd();
    return unit_report("test_proto_rfb");
}
