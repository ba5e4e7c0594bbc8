/* test_parsers_core.c — the parsers' core alone: bounded buffers, the wire readers and the
 * text helpers the protocols share. */
#include <stdlib.h>
#include <string.h>

#include "parsers_int.h"
#include "unit.h"

static void test_pbuf(void)
{
    struct pbuf b = {0};
    CHECK_EQ_U(pbuf_add(&b, "hello world", 11, 5), 5);
    CHECK_EQ_U(pbuf_add(&b, "x", 1, 5), 0); /* at the limit: nothing more */
    CHECK(b.len == 5 && !memcmp(b.p, "hello", 5));
    pbuf_consume(&b, 2);
    CHECK(b.len == 3 && !memcmp(b.p, "llo", 3));
    CHECK_EQ_U(pbuf_add(&b, "abc", 3, 0), 3);
    pbuf_free(&b);
    /* a reservation: one allocation of the next doubling, the bytes kept; adds within it
     * leave the allocation where it is */
    CHECK(pbuf_reserve(&b, 0) && b.cap == 0 && !b.p);
    CHECK_EQ_U(pbuf_add(&b, "head", 4, 0), 4);
    CHECK(pbuf_reserve(&b, 1000) && b.cap == 1024 && b.len == 4 && !memcmp(b.p, "head", 4));
    const uint8_t *at = b.p;
    for (int i = 0; i < 255; i++)
        CHECK_EQ_U(pbuf_add(&b, "wxyz", 4, 0), 4);
    CHECK(b.p == at && b.cap == 1024 && b.len == 1024);
    CHECK(pbuf_reserve(&b, 10) && b.cap == 1024); /* smaller than what it has: nothing */
    CHECK_EQ_U(pbuf_add(&b, "!", 1, 0), 1); /* past it: doubled as before */
    CHECK(b.cap == 2048 && !memcmp(b.p + 1020, "wxyz!", 5));
    pbuf_free(&b);
    CHECK(b.p == NULL && b.len == 0);
}

static void test_wire(void)
{
    const uint8_t b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK_EQ_U(rd_be16(b), 0x0102);
    CHECK_EQ_U(rd_be24(b), 0x010203);
    CHECK_EQ_U(rd_be32(b), 0x01020304);
    CHECK_EQ_U(rd_le16(b), 0x0201);
    CHECK_EQ_U(rd_le32(b), 0x04030201);
    CHECK(rd_le64(b) == 0x0807060504030201ull);
    CHECK_EQ_U(rd_u16(b, true), 0x0201);
    CHECK_EQ_U(rd_u32(b, false), 0x01020304);
}

static void test_text(void)
{
    const uint8_t *t = (const uint8_t *)"ab\r\ncd\nef\r";
    size_t end, next;
    CHECK(pline_next(t, 10, 0, &end, &next) && end == 2 && next == 4);
    CHECK(pline_next(t, 10, 4, &end, &next) && end == 6 && next == 7);
    /* no LF: false, the rest as the line (its CR dropped) */
    CHECK(!pline_next(t, 10, 7, &end, &next) && end == 9 && next == 10);
    CHECK(!pline_next(t, 10, 10, &end, &next) && end == 10 && next == 10);
    CHECK(pline_next((const uint8_t *)"\r\n", 2, 0, &end, &next) && end == 0 && next == 2);

    uint32_t v;
    CHECK_EQ_U(pdec_u32((const uint8_t *)"8021,", 5, &v), 4);
    CHECK_EQ_U(v, 8021);
    CHECK_EQ_U(pdec_u32((const uint8_t *)"x1", 2, &v), 0);
    CHECK_EQ_U(v, 0);
    CHECK_EQ_U(pdec_u32((const uint8_t *)"99999999999999999999", 20, &v), 20);
    CHECK_EQ_U(v, UINT32_MAX); /* saturated, never wrapped */
    CHECK_EQ_U(pdec_u32((const uint8_t *)"4294967295", 10, &v), 10);
    CHECK_EQ_U(v, UINT32_MAX);

    char hex[9];
    phex(hex, (const uint8_t *)"\x00\x9f\xa0\xff", 4);
    CHECK(!strcmp(hex, "009fa0ff"));
    const uint8_t u[16] = {0x4b, 0x32, 0x4f, 0xc8, 0x16, 0x70, 0x01, 0xd3, 0x12, 0x78,
                           0x5a, 0x47, 0xbf, 0x6e, 0xe1, 0x88};
    char us[37];
    puuid_text(us, u);
    CHECK(!strcmp(us, "4b324fc8-1670-01d3-1278-5a47bf6ee188"));
}

/* detection-ports values (core/ports.c) */
static void test_ports(void)
{
    struct osprey_detect_ports r[OSPREY_DETECT_PORT_RANGES];
    CHECK(osprey_port_ranges_parse("1053", r) == 0 && r[0].lo == 1053 && r[0].hi == 1053 &&
          r[1].hi == 0);
    CHECK(osprey_port_ranges_parse(" [53, 1000:1010 ] ", r) == 0 && r[0].lo == 53 &&
          r[1].lo == 1000 && r[1].hi == 1010 && r[2].hi == 0);
    CHECK(osprey_port_ranges_parse("53,", r) == -1);
    CHECK(osprey_port_ranges_parse("[53", r) == -1);
    CHECK(osprey_port_ranges_parse("70000", r) == -1);
    CHECK(osprey_port_ranges_parse("20:10", r) == -1);
    CHECK(osprey_port_ranges_parse("0", r) == -1);
    CHECK(osprey_port_ranges_parse("1,2,3,4,5,6,7,8,9", r) == -1); /* more than it keeps */
    CHECK(osprey_port_ranges_parse("x", r) == -1);
}

int main(void)
{
    test_ports();
    test_pbuf();
    test_wire();
    test_text();
    return unit_report("test_parsers_core");
}
