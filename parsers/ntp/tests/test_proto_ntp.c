/* test_proto_ntp.c — NTP's descriptor, bytes in, buffers out: a v4 request and its reply
 * (ntp.version, ntp.stratum, ntp.mode and its names, ntp.reference_id per side), a control
 * message (no stratum or reference id), what does not decode (the event), the EVE object,
 * the probe. */
#include <stdlib.h>

#include "ntp_int.h"
#include "osprey_json_writer.h"
#include "proto_harness.h"
#include "unit.h"

static void packet(uint8_t *p, uint8_t version, uint8_t mode, uint8_t stratum,
                   const char *refid)
{
    memset(p, 0, NTP_HDR_LEN);
    p[0] = (uint8_t)(version << 3 | mode);
    p[1] = stratum;
    memcpy(p + 12, refid, 4);
}

static char *eve(struct ph *h)
{
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    CHECK(ntp_eve(&h->pf, &w));
    char *s = osprey_jw_finish(&w);
    if (s && *s)
        s[strlen(s) - 1] = 0;
    return s;
}

static void exchange(void)
{
    struct ph h;
    ph_init(&h, "ntp", 17, 40000, 123);
    uint8_t p[NTP_HDR_LEN];
    int64_t v;
    packet(p, 4, 3, 0, "\0\0\0\0");
    ph_feed(&h, 0, p, sizeof p);
    CHECK(h.txs == 1);
    CHECK(ph_field(&h, "ntp.version", 0, &v) && v == 4);
    CHECK(ph_field(&h, "ntp.mode", 0, &v) && v == 3);
    CHECK(ph_field(&h, "ntp.stratum", 0, &v) && v == 0);
    uint32_t n;
    const uint8_t *r = ph_buf(&h, "ntp.reference_id", 0, 0, &n);
    CHECK(r && n == 4 && !memcmp(r, "\0\0\0\0", 4));
    char *s = eve(&h);
    CHECK(s && !strcmp(s, "{\"ntp\":{\"version\":4,\"mode\":3,\"stratum\":0,"
                          "\"reference_id\":\"00:00:00:00\"}}"));
    free(s);
    packet(p, 3, 4, 2, "LOCL");
    ph_feed(&h, 1, p, sizeof p);
    CHECK(h.txs == 2 && ph_buf_is(&h, "ntp.reference_id", 1, 0, "LOCL"));
    CHECK(ph_field(&h, "ntp.mode", 0, &v) && v == 4);
    s = eve(&h);
    CHECK(s && !strcmp(s, "{\"ntp\":{\"version\":3,\"mode\":4,\"stratum\":2,"
                          "\"reference_id\":\"4c:4f:43:4c\"}}"));
    free(s);
    /* Suricata's mode names are the field's values (the keyword reads them) */
    int fld = osprey_field_find("ntp.mode");
    CHECK(fld >= 0 && osprey_field_value((uint16_t)fld, "server", &v) && v == 4);
    CHECK(osprey_field_value((uint16_t)fld, "client", &v) && v == 3);
    /* a control message (mode 6): version and mode only */
    uint8_t ctl[NTP_CTL_LEN] = {(uint8_t)(2 << 3 | 6), 0x01};
    ph_feed(&h, 0, ctl, sizeof ctl);
    CHECK(h.txs == 3 && !ph_field(&h, "ntp.stratum", 0, &v));
    CHECK(!ph_buf(&h, "ntp.reference_id", 0, 0, &n));
    s = eve(&h);
    CHECK(s && !strcmp(s, "{\"ntp\":{\"version\":2,\"mode\":6}}"));
    free(s);
    /* short, version 0, mode 0: malformed, counted; the last message stays */
    ph_feed(&h, 0, p, 20);
    p[0] = 3; /* version 0 */
    ph_feed(&h, 0, p, sizeof p);
    p[0] = 4 << 3; /* mode 0 */
    ph_feed(&h, 0, p, sizeof p);
    CHECK(ph_count(&h, "ntp_malformed") == 3 && h.txs == 3);
    ph_free(&h);
}

static void probe(void)
{
    struct mon_flow f = {.proto = 17, .cport = 40000, .sport = 123};
    uint8_t p[NTP_HDR_LEN];
    packet(p, 4, 3, 0, "\0\0\0\0");
    CHECK(ntp_probe(p, sizeof p, &f) == DET_YES);
    f.sport = 124;
    CHECK(ntp_probe(p, sizeof p, &f) == DET_NO); /* not its port */
    f.sport = 123;
    CHECK(ntp_probe(p, 47, &f) == DET_NO);
    p[0] = 7 << 3 | 3; /* version 7 */
    CHECK(ntp_probe(p, sizeof p, &f) == DET_NO);
}

int main(void)
{
    exchange();
    probe();
    return unit_report("test_proto_ntp");
}
