/* test_proto_enip.c — EtherNet/IP's descriptor, bytes in, buffers out: ListIdentity and its
 * reply (the identity's fields, enip.product_name, the EVE object), a SendRRData carrying a
 * CIP request and its reply (service, path, status), a Multiple Service Packet, the
 * combined value cip_service reads, RegisterSession over UDP, something that is no ENIP
 * message, the probe, a gap (the side read again from a chunk that starts with a header). */
#include <stdlib.h>

#include "enip_int.h"
#include "osprey_json_writer.h"
#include "proto_harness.h"
#include "unit.h"

static int64_t fld(struct ph *h, const char *name, uint32_t i)
{
    int64_t v;
    return ph_field(h, name, i, &v) ? v : -1;
}

static size_t hex(uint8_t *out, const char *s)
{
    size_t n = 0;
    for (; s[0] && s[1]; s += 2)
        out[n++] = (uint8_t)strtoul((char[]){s[0], s[1], 0}, NULL, 16);
    return n;
}

/* an encapsulation message: command, the body b[0..n) */
static size_t msg(uint8_t *out, uint16_t cmd, const uint8_t *b, size_t n)
{
    memset(out, 0, ENIP_HDR_LEN);
    out[0] = (uint8_t)cmd, out[1] = (uint8_t)(cmd >> 8);
    out[2] = (uint8_t)n, out[3] = (uint8_t)(n >> 8);
    out[4] = 0x11; /* a session handle */
    if (n)
        memcpy(out + ENIP_HDR_LEN, b, n);
    return ENIP_HDR_LEN + n;
}

static void list_identity(void)
{
    struct ph h;
    ph_init(&h, "enip", 6, 31304, ENIP_PORT);
    uint8_t m[256];
    /* the capture of suricata-verify's enip-alert */
    size_t n = hex(m, "63000000000000000000000000000000c1debed100000000");
    ph_feed(&h, 0, m, 10);
    ph_feed(&h, 0, m + 10, n - 10);
    CHECK(h.txs == 0 && fld(&h, "enip.command", 0) == 0x63);
    CHECK(ph_buf(&h, "enip.pdu", 0, 0, &(uint32_t){0}));
    n = hex(m, "63003300000000000000000000000000c1debed10000000001000c002d0001000002af120a"
               "0101a4000000000000000001000c003a00040330008e4d52000b313735362d454e42542f4103");
    ph_feed(&h, 1, m, n);
    CHECK(h.txs == 1 && fld(&h, "enip.command", 0) == 0x63);
    CHECK(fld(&h, "enip.vendor_id", 0) == 1 && fld(&h, "enip.device_type", 0) == 12);
    CHECK(fld(&h, "enip.product_code", 0) == 58 && fld(&h, "enip.revision", 0) == 0x0403);
    CHECK(fld(&h, "enip.serial", 0) == 0x00524d8e && fld(&h, "enip.state", 0) == 3);
    CHECK(fld(&h, "enip.identity_status", 0) == 0x30 && fld(&h, "enip.protocol_version", 0) == 1);
    CHECK(ph_buf_is(&h, "enip.product_name", 1, 0, "1756-ENBT/A"));
    char *s = ph_eve(&h);
    CHECK(s && !strcmp(s, "{\"enip\":{\"request\":{\"command\":\"ListIdentity\","
                          "\"status\":\"SUCCESS\"},\"response\":{\"command\":\"ListIdentity\","
                          "\"status\":\"SUCCESS\",\"identity\":{\"protocol_version\":1,"
                          "\"vendor_id\":\"1\",\"device_type\":\"12\",\"product_code\":58,"
                          "\"revision\":\"4.3\",\"status\":48,\"serial\":5393806,"
                          "\"product_name\":\"1756-ENBT/A\",\"state\":3}}}}"));
    free(s);
    int id = osprey_field_find("enip.command");
    int64_t v;
    CHECK(id >= 0 && osprey_field_value((uint16_t)id, "list_identity", &v) && v == 0x63);
    ph_free(&h);
}

static void cip(void)
{
    struct ph h;
    ph_init(&h, "enip", 6, 40000, ENIP_PORT);
    uint8_t b[128], m[160];
    /* SendRRData: handle 0, timeout, 2 items: null address, unconnected data with
     * GetAttributeSingle class 1 instance 1 attribute 7 */
    size_t n = hex(b, "000000000a00020000000000b20008000e03200124013007");
    n = msg(m, ENIP_CMD_SEND_RR, b, n);
    ph_feed(&h, 0, m, n);
    CHECK(fld(&h, "enip.cip_service", 0) == 0x0e && fld(&h, "enip.cip_class", 0) == 1);
    CHECK(fld(&h, "enip.cip_instance", 0) == 1 && fld(&h, "enip.cip_attribute", 0) == 7);
    CHECK(fld(&h, "enip.cip_path", 0) == ((int64_t)0x0e << 48 | 1 << 24 | 7));
    char *s = ph_eve(&h);
    CHECK(s && strstr(s, "\"cip\":{\"service\":\"GetAttributeSingle\",\"path\":["
                         "{\"segment_type\":\"class\",\"value\":1},{\"segment_type\":"
                         "\"instance\",\"value\":1},{\"segment_type\":\"attribute\","
                         "\"value\":7}]}"));
    free(s);
    /* the reply: general status 0x0e (attribute not settable) with an extended status */
    n = hex(b, "000000000a00020000000000b20008008e000e01ff00aabb");
    n = msg(m, ENIP_CMD_SEND_RR, b, n);
    ph_feed(&h, 1, m, n);
    CHECK(h.txs == 1 && fld(&h, "enip.cip_status", 0) == 0x0e);
    CHECK(fld(&h, "enip.cip_extendedstatus", 0) == 0x00ff && fld(&h, "enip.cip_path", 0) == -1);
    s = ph_eve(&h);
    CHECK(s && strstr(s, "\"status\":\"AttributeNotSettable\",\"status_extended\":\"0x00ff\""));
    free(s);
    /* a Multiple Service Packet to the message router with two requests */
    n = hex(b, "000000000a00020000000000b20000000a0220022401" "020006000e00"
               "0e03200124013001" "0e0320f5240130ff");
    b[14] = (uint8_t)(n - 16);
    n = msg(m, ENIP_CMD_SEND_RR, b, n);
    ph_feed(&h, 0, m, n);
    CHECK(fld(&h, "enip.cip_service", 0) == 0x0a && fld(&h, "enip.cip_service", 2) == 0x0e);
    CHECK(fld(&h, "enip.cip_class", 1) == 1 && fld(&h, "enip.cip_class", 2) == 0xf5);
    CHECK(fld(&h, "enip.cip_attribute", 1) == 0xff);
    s = ph_eve(&h);
    CHECK(s && strstr(s, "\"multiple\":[{\"service\":\"GetAttributeSingle\""));
    free(s);
    /* a reply of another command: the request ends unanswered, the reply alone */
    n = msg(m, ENIP_CMD_LIST_IDENTITY, b, 0);
    ph_feed(&h, 1, m, n);
    CHECK(h.txs == 3 && fld(&h, "enip.command", 0) == 0x63);
    s = ph_eve(&h);
    CHECK(s && !strcmp(s, "{\"enip\":{\"response\":{\"command\":\"ListIdentity\","
                          "\"status\":\"SUCCESS\"}}}"));
    free(s);
    ph_end(&h); /* nothing waits */
    CHECK(h.txs == 3 && ph_count(&h, "enip_tx") == 3);
    /* an unknown command: invalid_pdu, the side no longer read */
    n = msg(m, 0x99, b, 0);
    ph_feed(&h, 0, m, n);
    CHECK(ph_count(&h, "enip_malformed") == 1 && h.pf.dead[0]);
    ph_free(&h);
}

static void udp(void)
{
    struct ph h;
    ph_init(&h, "enip", 17, 40000, ENIP_PORT);
    uint8_t m[64];
    size_t n = msg(m, ENIP_CMD_REGISTER, (const uint8_t *)"\x01\x00\x00\x00", 4);
    ph_feed(&h, 0, m, n);
    CHECK(fld(&h, "enip.protocol_version", 0) == 1);
    ph_feed(&h, 1, m, n);
    CHECK(h.txs == 1);
    char *s = ph_eve(&h);
    CHECK(s && strstr(s, "\"register_session\":{\"protocol_version\":1,\"options\":0}"));
    free(s);
    ph_feed(&h, 0, m, n - 1); /* shorter than its header says */
    CHECK(ph_count(&h, "enip_malformed") == 1);
    ph_free(&h);
}

/* Bytes lost on TCP: the message the hole cut is dropped, a chunk that does not start with a
 * plausible header is passed over, the next one that does is read. */
static void gap(void)
{
    struct ph h;
    ph_init(&h, "enip", 6, 40000, ENIP_PORT);
    uint8_t b[64], m[128];
    size_t n = hex(b, "000000000a00020000000000b20008000e03200124013007");
    n = msg(m, ENIP_CMD_SEND_RR, b, n);
    ph_feed(&h, 0, m, 30); /* a request cut by the hole */
    h.def->gap(&h.pf, &h.f, 0);
    ph_feed(&h, 0, m + 40, n - 40); /* its tail: no header */
    CHECK(!h.pf.dead[0] && h.txs == 0 && ph_count(&h, "enip_malformed") == 0);
    size_t k = msg(m, ENIP_CMD_REGISTER, (const uint8_t *)"\x01\x00\x00\x00", 3);
    ph_feed(&h, 0, m, k); /* RegisterSession's length must be 4: still passed over */
    CHECK(fld(&h, "enip.command", 0) == -1);
    k = msg(m, ENIP_CMD_LIST_IDENTITY, NULL, 0);
    memcpy(m + k, m, k); /* two messages in one chunk: both read */
    ph_feed(&h, 0, m, 2 * k);
    CHECK(fld(&h, "enip.command", 0) == ENIP_CMD_LIST_IDENTITY && h.txs == 1);
    /* the server's side: a gap, then a whole reply */
    ph_feed(&h, 1, m, 10);
    h.def->gap(&h.pf, &h.f, 1);
    ph_feed(&h, 1, m, k);
    CHECK(h.txs == 2 && ph_count(&h, "enip_tx") == 2 && !h.pf.dead[1]);
    ph_free(&h);
}

static void probe(void)
{
    struct mon_flow f = {.proto = 6, .cport = 40000, .sport = ENIP_PORT};
    uint8_t m[ENIP_HDR_LEN];
    msg(m, ENIP_CMD_LIST_IDENTITY, NULL, 0);
    CHECK(enip_probe(m, sizeof m, &f) == DET_YES);
    CHECK(enip_probe(m, 4, &f) == DET_NEED_MORE);
    m[0] = 0x99;
    CHECK(enip_probe(m, sizeof m, &f) == DET_NO);
    m[0] = 0x63;
    f.sport = 80;
    CHECK(enip_probe(m, sizeof m, &f) == DET_NO);
}

int main(void)
{
    list_identity();
    cip();
    udp();
    gap();
    probe();
    return unit_report("test_proto_enip");
}
