/* test_unified2.c — unified2 record layouts, byte for byte (Snort's serial headers and
 * big-endian fields), and the builders refusing what does not fit. With an argument, also
 * writes those records to that file for tests/outputs/test_outputs_unified2.py to read with idstools. */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "osprey_unified2.h"

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int main(int argc, char **argv)
{
    uint8_t buf[1024];
    size_t len = 0;
    struct osprey_u2_event e4 = {
        .sensor_id = 3, .event_id = 9, .sec = 1600000000, .usec = 123456, .sid = 2000001,
        .gid = 1, .rev = 4, .class_id = 5, .priority = 1, .ipver = 4,
        .src = {192, 0, 2, 1}, .dst = {198, 51, 100, 7}, .sport = 40000, .dport = 80,
        .proto = 6, .blocked = 1, .mpls_label = 77, .vlan_id = 42,
    };
    CHECK(osprey_u2_put_event(buf, sizeof buf, &len, &e4) == 0);
    CHECK_EQ_U(len, 8 + 60);
    CHECK_EQ_U(be32(buf), 104);
    CHECK_EQ_U(be32(buf + 4), 60);
    CHECK_EQ_U(be32(buf + 8 + 16), 2000001);   /* signature id after 4 fields */
    CHECK(memcmp(buf + 8 + 36, e4.src, 4) == 0);
    CHECK_EQ_U(buf[8 + 44], 40000 >> 8);
    CHECK_EQ_U(buf[8 + 48], 6);                  /* protocol */
    CHECK_EQ_U(buf[8 + 51], 1);                  /* blocked */
    CHECK_EQ_U(be32(buf + 8 + 52), 77);          /* MPLS label */
    struct osprey_u2_event e6 = e4;
    e6.ipver = 6;
    e6.event_id = 10;
    memcpy(e6.src, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
    memcpy(e6.dst, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x02", 16);
    size_t at = len;
    CHECK(osprey_u2_put_event(buf, sizeof buf, &len, &e6) == 0);
    CHECK_EQ_U(be32(buf + at), 105);
    CHECK_EQ_U(be32(buf + at + 4), 84);
    const uint8_t frame[] = {1, 2, 3, 4, 5};
    at = len;
    CHECK(osprey_u2_put_packet(buf, sizeof buf, &len, &e6, 1600000000, 123456, 1, frame, 5) == 0);
    CHECK_EQ_U(be32(buf + at), 2);
    CHECK_EQ_U(be32(buf + at + 4), 28 + 5);
    CHECK(memcmp(buf + at + 8 + 28, frame, 5) == 0);
    at = len;
    CHECK(osprey_u2_put_extra(buf, sizeof buf, &len, &e6, OSPREY_U2_XDATA_HTTP_URI,
                              "/index.html", 11) == 0);
    CHECK_EQ_U(be32(buf + at), 110);
    CHECK_EQ_U(be32(buf + at + 4), 32 + 11);
    CHECK_EQ_U(be32(buf + at + 8), 4);           /* Snort's EVENT_TYPE_EXTRA_DATA */
    CHECK_EQ_U(be32(buf + at + 8 + 20), 9);      /* HTTP URI */
    CHECK_EQ_U(be32(buf + at + 8 + 28), 11 + 8); /* blob length counts its own 8 bytes */
    /* a record that does not fit is refused whole */
    size_t small = 0;
    CHECK(osprey_u2_put_event(buf, 40, &small, &e4) == -1 && small == 0);
    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        CHECK(f && fwrite(buf, 1, len, f) == len);
        if (f)
            fclose(f);
    }
    return unit_report("test_unified2");
}
