/* test_proto_telnet.c — Telnet's descriptor, bytes in, buffers out: option negotiation and
 * subnegotiation as control frames, lines of data as data frames (split anywhere, IAC IAC as
 * data, data cut by a command), a line past TN_FRAME_MAX, the last line at the flow's end,
 * the probe, a gap (the cut line dropped, the next bytes read as data). */
#include "proto_harness.h"
#include "telnet_int.h"
#include "unit.h"

/* a string literal's bytes, without its NUL */
#define FEED(h, dir, lit) ph_feed(h, dir, lit, sizeof(lit) - 1)

static void test_frames(void)
{
    struct ph h;
    ph_init(&h, "telnet", 6, 40000, 23);
    FEED(&h, 0, "\xff\xfd\x03\xff\xfb");
    CHECK(ph_buf_is(&h, "frame:telnet.ctl", 0, 0, "\xff\xfd\x03"));
    CHECK(ph_buf_is(&h, "frame:telnet.pdu", 0, 0, "\xff\xfd\x03"));
    CHECK(!ph_buf(&h, "frame:telnet.data", 0, 0, &(uint32_t){0}));
    FEED(&h, 0, "\x18\xff\xfa\x18\x01xterm\xff\xff\xff");
    CHECK(ph_buf_is(&h, "frame:telnet.ctl", 0, 0, "\xff\xfb\x18"));
    FEED(&h, 0, "\xf0/sbin/ping "); /* the SB ends; data starts */
    CHECK(ph_buf_is(&h, "frame:telnet.ctl", 0, 0, "\xff\xfa\x18\x01xterm\xff\xff\xff\xf0"));
    FEED(&h, 0, "www\r\nls");
    CHECK(ph_buf_is(&h, "frame:telnet.data", 0, 0, "/sbin/ping www\r\n"));
    FEED(&h, 0, "\xff\xff!\xff\xf4"); /* IAC IAC is data; IAC IP ends the data */
    CHECK(ph_buf_is(&h, "frame:telnet.ctl", 0, 0, "\xff\xf4"));
    FEED(&h, 1, "login: ");
    CHECK(!ph_buf(&h, "frame:telnet.data", 1, 0, &(uint32_t){0})); /* no LF yet */
    ph_end(&h);
    CHECK(ph_buf_is(&h, "frame:telnet.data", 1, 0, "login: "));
    CHECK_EQ_U(ph_count(&h, "telnet_ctl_frames"), 4);
    CHECK_EQ_U(ph_count(&h, "telnet_data_frames"), 3); /* "ls\xff!" was framed at the IP */
    CHECK_EQ_U(h.txs, 0);
    ph_free(&h);
}

static void test_limits_and_probe(void)
{
    struct ph h;
    ph_init(&h, "telnet", 6, 40000, 23);
    static char big[TN_FRAME_MAX + 10];
    memset(big, 'a', sizeof big);
    ph_feed(&h, 1, big, sizeof big);
    uint32_t n;
    CHECK(ph_buf(&h, "frame:telnet.data", 1, 0, &n) && n == TN_FRAME_MAX);
    static uint8_t sb[TN_FRAME_MAX + 10];
    memset(sb, 'b', sizeof sb);
    sb[0] = 0xff, sb[1] = 0xfa;
    ph_feed(&h, 0, sb, sizeof sb);
    FEED(&h, 0, "\xff\xf0");
    CHECK(ph_buf(&h, "frame:telnet.ctl", 0, 0, &n) && n == TN_FRAME_MAX);
    CHECK_EQ_U(ph_count(&h, "telnet_shed"), 12);
    ph_free(&h);

    CHECK(telnet_probe((const uint8_t *)"\xff", 1, NULL) == DET_NEED_MORE);
    CHECK(telnet_probe((const uint8_t *)"\xff\xfd", 2, NULL) == DET_NEED_MORE);
    CHECK(telnet_probe((const uint8_t *)"\xff\xfd\x03", 3, NULL) == DET_YES);
    CHECK(telnet_probe((const uint8_t *)"\xff\xfa\x18", 3, NULL) == DET_YES);
    CHECK(telnet_probe((const uint8_t *)"\xff\xf4\x01", 3, NULL) == DET_NO);
    CHECK(telnet_probe((const uint8_t *)"login:", 6, NULL) == DET_NO);
}

/* Bytes lost mid-line and mid-command: what the hole cut is dropped, the next bytes are data */
static void test_gap(void)
{
    struct ph h;
    ph_init(&h, "telnet", 6, 40000, 23);
    FEED(&h, 0, "\xff\xfd\x03" "cat /etc/pas");
    h.def->gap(&h.pf, &h.f, 0);
    FEED(&h, 0, "ls -la\r\n");
    CHECK(ph_buf_is(&h, "frame:telnet.data", 0, 0, "ls -la\r\n"));
    FEED(&h, 1, "\xff\xfa\x18\x01xte");
    h.def->gap(&h.pf, &h.f, 1);
    FEED(&h, 1, "total 0\r\n");
    CHECK(ph_buf_is(&h, "frame:telnet.data", 1, 0, "total 0\r\n"));
    CHECK_EQ_U(ph_count(&h, "telnet_data_frames"), 2);
    CHECK_EQ_U(ph_count(&h, "telnet_ctl_frames"), 1);
    CHECK(!h.pf.dead[0] && !h.pf.dead[1]);
    ph_free(&h);
}

int main(void)
{
    test_frames();
    test_limits_and_probe();
    test_gap();
    return unit_report("test_proto_telnet");
}
