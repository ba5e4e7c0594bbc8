/* test_proto_dnp3.c — DNP3's descriptor, bytes in, buffers out: the CRC, a read request and
 * its response (function codes, IIN, object headers, dnp3.data without CRCs and transport
 * header), a fragment reassembled from two frames, frames split anywhere and after garbage,
 * bad link and data CRCs (dropped, counted), an object of unknown size, the EVE object, the
 * probe. */
#include <stdlib.h>

#include "dnp3_int.h"
#include "osprey_json_writer.h"
#include "proto_harness.h"
#include "unit.h"

static int64_t fld(struct ph *h, const char *name, uint32_t i)
{
    int64_t v;
    return ph_field(h, name, i, &v) ? v : -1;
}

/* a link frame (control ctl, 1 → 1024 or back) carrying user data u[0..n) */
static size_t frame(uint8_t *out, uint8_t ctl, const uint8_t *u, size_t n)
{
    out[0] = 0x05, out[1] = 0x64, out[2] = (uint8_t)(n + 5), out[3] = ctl;
    out[4] = 1, out[5] = 0, out[6] = 0, out[7] = 4;
    uint16_t c = dnp3_crc(out, 8);
    out[8] = (uint8_t)c, out[9] = (uint8_t)(c >> 8);
    size_t at = 10;
    for (size_t i = 0; i < n; i += 16) {
        size_t b = n - i < 16 ? n - i : 16;
        memcpy(out + at, u + i, b);
        c = dnp3_crc(u + i, b);
        out[at + b] = (uint8_t)c, out[at + b + 1] = (uint8_t)(c >> 8);
        at += b + 2;
    }
    return at;
}

static void crc(void)
{
    /* a known frame: 05 64 05 C0 01 00 00 04 → E9 21 (reset link states) */
    CHECK(dnp3_crc((const uint8_t *)"\x05\x64\x05\xc0\x01\x00\x00\x04", 8) == 0x21e9);
}

static void read_and_response(void)
{
    struct ph h;
    ph_init(&h, "dnp3", 6, 40000, 20000);
    uint8_t f[300];
    /* transport FIR|FIN seq 0; app: FIR|FIN seq 1, READ, class 0 (g60v1, all) */
    static const uint8_t req[] = {0xc0, 0xc1, 0x01, 0x3c, 0x01, 0x06};
    size_t n = frame(f, 0xc4, req, sizeof req);
    for (size_t i = 0; i < n; i++)
        ph_feed(&h, 0, f + i, 1);
    CHECK(h.txs == 1 && fld(&h, "dnp3.func", 0) == 1 && fld(&h, "dnp3.ind", 0) == -1);
    CHECK(fld(&h, "dnp3.obj", 0) == (60 << 8 | 1) && fld(&h, "dnp3.obj", 1) == -1);
    uint32_t len;
    const uint8_t *d = ph_buf(&h, "dnp3.data", 0, 0, &len);
    CHECK(d && len == 5 && !memcmp(d, req + 1, 5));
    char *s = ph_eve(&h);
    CHECK(s && !strcmp(s, "{\"dnp3\":{\"type\":\"request\",\"control\":{\"dir\":true,"
                          "\"pri\":true,\"fcb\":false,\"fcv\":false,\"function_code\":4},"
                          "\"src\":1024,\"dst\":1,\"application\":{\"control\":{\"fir\":true,"
                          "\"fin\":true,\"con\":false,\"uns\":false,\"sequence\":1},"
                          "\"function_code\":1,\"objects\":[{\"group\":60,\"variation\":1,"
                          "\"qualifier\":6,\"prefix_code\":0,\"range_code\":6,\"start\":0,"
                          "\"stop\":0,\"count\":0}],\"complete\":true}}}"));
    free(s);
    /* the response: IIN device_restart; g30v2 (analog, 16-bit with flag) points 0-1, then
     * g1v2 point 5, across two frames (the second after garbage) */
    uint8_t app[64];
    size_t an = 0;
    static const uint8_t head[] = {0xc1, 0x81, 0x80, 0x00, 30, 2, 0x00, 0, 1,
                                   1, 0x10, 0x00, 1, 0x20, 0x00};
    memcpy(app, head, sizeof head), an = sizeof head;
    static const uint8_t tail[] = {1, 2, 0x00, 5, 5, 0x81};
    uint8_t seg1[32], seg2[32];
    seg1[0] = 0x40; /* FIR seq 0 */
    memcpy(seg1 + 1, app, an);
    seg2[0] = 0x81; /* FIN seq 1 */
    memcpy(seg2 + 1, tail, sizeof tail);
    n = frame(f, 0x44, seg1, an + 1);
    ph_feed(&h, 1, f, n);
    CHECK(h.txs == 1);
    ph_feed(&h, 1, "junk", 4);
    n = frame(f, 0x44, seg2, sizeof tail + 1);
    ph_feed(&h, 1, f, n);
    CHECK(h.txs == 2 && ph_count(&h, "dnp3_skipped") == 4);
    CHECK(fld(&h, "dnp3.func", 0) == 0x81 && fld(&h, "dnp3.ind", 0) == 0x8000);
    CHECK(fld(&h, "dnp3.obj", 0) == (30 << 8 | 2) && fld(&h, "dnp3.obj", 1) == (1 << 8 | 2));
    d = ph_buf(&h, "dnp3.data", 1, 0, &len);
    CHECK(d && len == an + sizeof tail && !memcmp(d, app, an));
    s = ph_eve(&h);
    CHECK(s && strstr(s, "\"type\":\"response\"") &&
          strstr(s, "\"iin\":{\"indicators\":[\"device_restart\"]}") &&
          strstr(s, "\"complete\":true"));
    free(s);
    /* the function and indicator names the keywords read */
    int id = osprey_field_find("dnp3.func");
    int64_t v;
    CHECK(id >= 0 && osprey_field_value((uint16_t)id, "direct_operate", &v) && v == 5);
    id = osprey_field_find("dnp3.ind");
    CHECK(id >= 0 && osprey_field_value((uint16_t)id, "need_time", &v) && v == 0x1000);
    ph_free(&h);
}

static void bad_frames(void)
{
    struct ph h;
    ph_init(&h, "dnp3", 6, 40000, 20000);
    uint8_t f[300];
    static const uint8_t req[] = {0xc0, 0xc2, 0x01, 0x3c, 0x02, 0x06};
    size_t n = frame(f, 0xc4, req, sizeof req);
    f[9] ^= 1; /* the header's CRC */
    ph_feed(&h, 0, f, n);
    CHECK(h.txs == 0 && ph_count(&h, "dnp3_bad_crc") == 1);
    n = frame(f, 0xc4, req, sizeof req);
    f[n - 1] ^= 1; /* the data block's */
    ph_feed(&h, 0, f, n);
    CHECK(h.txs == 0 && ph_count(&h, "dnp3_bad_crc") == 2);
    n = frame(f, 0xc4, req, sizeof req);
    ph_feed(&h, 0, f, n);
    CHECK(h.txs == 1 && fld(&h, "dnp3.obj", 0) == (60 << 8 | 2));
    /* a write of an object whose size is not known: the walk stops there */
    static const uint8_t wr[] = {0xc0, 0xc3, 0x02, 200, 1, 0x00, 0, 0, 0xaa};
    n = frame(f, 0xc4, wr, sizeof wr);
    ph_feed(&h, 0, f, n);
    CHECK(h.txs == 2 && fld(&h, "dnp3.obj", 0) == (200 << 8 | 1));
    char *s = ph_eve(&h);
    CHECK(s && strstr(s, "\"complete\":false"));
    free(s);
    /* a fragment longer than DNP3_FRAG_MAX is dropped until the next FIR */
    uint8_t seg[250];
    memset(seg, 0, sizeof seg);
    seg[0] = 0x40;
    n = frame(f, 0xc4, seg, sizeof seg);
    ph_feed(&h, 0, f, n);
    seg[0] = 0x01;
    for (int i = 0; i < DNP3_FRAG_MAX / 249 + 1; i++) {
        n = frame(f, 0xc4, seg, sizeof seg);
        ph_feed(&h, 0, f, n);
    }
    CHECK(ph_count(&h, "dnp3_frag_shed") == 1 && h.txs == 2);
    ph_free(&h);
}

static void probe(void)
{
    struct mon_flow fl = {.proto = 6, .cport = 40000, .sport = 20000};
    static const uint8_t hdr[] = {0x05, 0x64, 0x05, 0xc0, 0x01, 0x00, 0x00, 0x04, 0xe9, 0x21};
    CHECK(dnp3_probe(hdr, sizeof hdr, &fl) == DET_YES);
    CHECK(dnp3_probe(hdr, 4, &fl) == DET_NEED_MORE);
    CHECK(dnp3_probe((const uint8_t *)"\x05\x65", 2, &fl) == DET_NO);
    uint8_t bad[10];
    memcpy(bad, hdr, 10);
    bad[9] = 0;
    CHECK(dnp3_probe(bad, sizeof bad, &fl) == DET_NO);
    fl.sport = 20001;
    CHECK(dnp3_probe(hdr, sizeof hdr, &fl) == DET_NO);
}

int main(void)
{
    crc();
    read_and_response();
    bad_frames();
    probe();
    return unit_report("test_proto_dnp3");
}
