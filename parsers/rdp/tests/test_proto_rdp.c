/* test_proto_rdp.c — RDP's descriptor, bytes in, records out: the X.224 Connection Request
 * with its cookie and the Confirm split anywhere, TLS picked (the tls_handshake transaction,
 * then nothing read), standard security's MCS Connect Initial (client core data and
 * channels) and Connect Response, a TPKT that is not one, the probes, the EVE objects. */
#include "osprey_json_writer.h"
#include "proto_harness.h"
#include "rdp_int.h"
#include "unit.h"

static size_t tpkt(uint8_t *o, const uint8_t *body, size_t n)
{
    o[0] = 3, o[1] = 0, o[2] = (uint8_t)((n + 4) >> 8), o[3] = (uint8_t)(n + 4);
    memcpy(o + 4, body, n);
    return n + 4;
}

/* an X.224 CR (code 0xe0) or CC (0xd0) with variable part v[0..vn) */
static size_t x224(uint8_t *o, uint8_t code, const void *v, size_t vn)
{
    uint8_t b[256] = {(uint8_t)(6 + vn), code, 0, 0, 0x12, 0x34, 0};
    memcpy(b + 7, v, vn);
    return tpkt(o, b, 7 + vn);
}

static char *eve(struct ph *h)
{
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    CHECK(rdp_eve(&h->pf, &w));
    return osprey_jw_finish(&w);
}

static const char CR_VAR[] = "Cookie: mstshash=alice\r\n\x01\x00\x08\x00\x03\x00\x00\x00";

static void test_tls(void)
{
    struct ph h;
    ph_init(&h, "rdp", 6, 40000, 3389);
    uint8_t b[512];
    size_t n = x224(b, 0xe0, CR_VAR, sizeof CR_VAR - 1);
    ph_feed(&h, 0, b, 5); /* split in the header */
    ph_feed(&h, 0, b + 5, n - 5);
    CHECK_EQ_U(h.txs, 1);
    CHECK(ph_rec_is(&h, "rdp.cookie", 0, "alice"));
    char *j = eve(&h);
    CHECK(j && strstr(j, "\"rdp\":{\"tx_id\":0,\"event_type\":\"initial_request\","
                         "\"cookie\":\"alice\"}"));
    free(j);
    static const uint8_t rsp[] = {0x02, 0x00, 0x08, 0x00, 0x01, 0x00, 0x00, 0x00}; /* TLS */
    n = x224(b, 0xd0, rsp, sizeof rsp);
    b[n] = 0x16, b[n + 1] = 0x03, b[n + 2] = 0x01; /* the server's TLS right after */
    ph_feed(&h, 1, b, n + 3);
    CHECK_EQ_U(h.txs, 3);
    j = eve(&h);
    CHECK(j && strstr(j, "\"tx_id\":2,\"event_type\":\"tls_handshake\""));
    free(j);
    CHECK(h.pf.dead[1]);
    ph_free(&h);
}

static void test_standard_security(void)
{
    struct ph h;
    ph_init(&h, "rdp", 6, 40000, 3389);
    uint8_t b[1024];
    size_t n = x224(b, 0xe0, CR_VAR, sizeof CR_VAR - 1);
    ph_feed(&h, 0, b, n);
    n = x224(b, 0xd0, "", 0); /* no negotiation: standard RDP security */
    ph_feed(&h, 1, b, n);
    CHECK_EQ_U(h.txs, 2);
    /* DT + MCS Connect Initial: BER around a GCC request; "Duca", a PER length, blocks */
    uint8_t m[600] = {0x02, 0xf0, 0x80, 0x7f, 0x65, 0x82, 0x01, 0x90, 0x04, 0x01, 0x01};
    size_t k = 11;
    memcpy(m + k, "\x00\x05\x00\x14\x7c\x00\x01\x81\x2a\x00\x08\x00\x10\x00\x01\xc0\x00", 17);
    k += 17;
    memcpy(m + k, "Duca", 4);
    k += 4;
    uint8_t core[216] = {0};
    core[0] = 0x01, core[1] = 0xc0, core[2] = sizeof core, core[3] = 0;
    core[4] = 0x04, core[5] = 0x00, core[6] = 0x08, core[7] = 0x00; /* v5 */
    core[8] = 0x00, core[9] = 0x05, core[10] = 0x00, core[11] = 0x04; /* 1280 x 1024 */
    core[12] = 0x01, core[13] = 0xca;
    core[16] = 0x09, core[17] = 0x04;                  /* en-US */
    core[20] = 0x28, core[21] = 0x0a;                  /* build 2600 */
    memcpy(core + 24, "W\0S\0""1\0", 6);               /* client name "WS1" */
    core[56] = 4;                                      /* enhanced */
    core[64] = 12;                                     /* function keys */
    core[134] = 1;                                     /* product id */
    core[140] = 24;                                    /* highColorDepth */
    core[144] = 0x01;                                  /* support_errinfo_pdu */
    uint8_t netb[32] = {0x03, 0xc0, 32, 0, 2, 0, 0, 0};
    memcpy(netb + 8, "rdpdr\0\0\0", 8);
    memcpy(netb + 20, "cliprdr\0", 8);
    size_t blocks = sizeof core + sizeof netb;
    m[k++] = (uint8_t)(0x80 | (blocks >> 8));
    m[k++] = (uint8_t)blocks;
    memcpy(m + k, core, sizeof core);
    k += sizeof core;
    memcpy(m + k, netb, sizeof netb);
    k += sizeof netb;
    n = tpkt(b, m, k);
    ph_feed(&h, 0, b, n);
    CHECK_EQ_U(h.txs, 3);
    char *j = eve(&h);
    CHECK(j && strstr(j, "\"event_type\":\"connect_request\",\"client\":{\"version\":\"v5\","
                         "\"desktop_width\":1280,\"desktop_height\":1024,\"color_depth\":24,"
                         "\"keyboard_layout\":\"en-US\",\"build\":\"2600\",\"client_name\":"
                         "\"WS1\",\"keyboard_type\":\"enhanced\",\"function_keys\":12,"
                         "\"product_id\":1,\"capabilities\":[\"support_errinfo_pdu\"]},"
                         "\"channels\":[\"rdpdr\",\"cliprdr\"]"));
    free(j);
    static const uint8_t resp[] = {0x02, 0xf0, 0x80, 0x7f, 0x66, 0x00};
    n = tpkt(b, resp, sizeof resp);
    ph_feed(&h, 1, b, n);
    CHECK_EQ_U(h.txs, 4);
    CHECK(h.pf.dead[0] && h.pf.dead[1]);
    CHECK_EQ_U(ph_count(&h, "rdp_transactions"), 4);
    CHECK_EQ_U(ph_count(&h, "rdp_shed"), 0);
    ph_free(&h);
}

static void test_odd_and_probes(void)
{
    struct ph h;
    ph_init(&h, "rdp", 6, 40000, 3389);
    ph_feed(&h, 0, "\x04\x00\x00\x10", 4); /* not TPKT version 3 */
    CHECK(h.pf.dead[0]);
    CHECK_EQ_U(ph_count(&h, "rdp_malformed"), 1);
    ph_free(&h);

    /* 33 channels announced: 31 kept, 2 shed and counted */
    ph_init(&h, "rdp", 6, 40000, 3389);
    static uint8_t m[600], b2[700];
    size_t k = 0;
    memcpy(m, "\x02\xf0\x80\x7f\x65" "Duca", 9);
    k = 9;
    size_t blocks = 68 + 8 + 33 * 12;
    m[k++] = (uint8_t)(0x80 | (blocks >> 8));
    m[k++] = (uint8_t)blocks;
    m[k] = 0x01, m[k + 1] = 0xc0, m[k + 2] = 68; /* a core block of its mandatory fields */
    k += 68;
    m[k] = 0x03, m[k + 1] = 0xc0, m[k + 2] = (uint8_t)(8 + 33 * 12), m[k + 3] = (8 + 33 * 12) >> 8;
    m[k + 4] = 33;
    for (int i = 0; i < 33; i++)
        memcpy(m + k + 8 + i * 12, "chan", 4);
    k += 8 + 33 * 12;
    size_t n2 = tpkt(b2, m, k);
    ph_feed(&h, 0, b2, n2);
    CHECK_EQ_U(h.txs, 1);
    CHECK_EQ_U(((struct rdp_state *)h.pf.state)->nchannels, RDP_CHANNELS_MAX);
    CHECK_EQ_U(ph_count(&h, "rdp_shed"), 2);
    ph_free(&h);

    uint8_t b[64];
    size_t n = x224(b, 0xe0, "", 0);
    CHECK(rdp_probe_client(b, n, NULL) == DET_YES);
    CHECK(rdp_probe_client(b, 3, NULL) == DET_NEED_MORE);
    CHECK(rdp_probe_server(b, n, NULL) == DET_NO);
    n = x224(b, 0xd0, "", 0);
    CHECK(rdp_probe_server(b, n, NULL) == DET_YES);
    CHECK(rdp_probe_client((const uint8_t *)"GET / HTTP/1.1", 14, NULL) == DET_NO);
    n = x224(b, 0xe0, CR_VAR, sizeof CR_VAR - 1);
    CHECK(rdp_probe_client(b, n, NULL) == DET_YES);
    CHECK(rdp_probe_client(b, 15, NULL) == DET_NEED_MORE); /* the variable part not in yet */
    n = x224(b, 0xe0, "\x01\x00\x08\x00\x03\x00\x00\x00", 8);
    CHECK(rdp_probe_client(b, n, NULL) == DET_YES);
    /* S7comm's COTP connection request: TSAP parameters, not RDP's */
    n = x224(b, 0xe0, "\xc1\x02\x01\x00\xc2\x02\x01\x02\xc0\x01\x0a", 11);
    CHECK(rdp_probe_client(b, n, NULL) == DET_NO);
}

int main(void)
{
    test_tls();
    test_standard_security();
    test_odd_and_probes();
    return unit_report("test_proto_rdp");
}
