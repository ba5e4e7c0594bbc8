/* test_proto_dhcp.c — DHCP's descriptor, bytes in, buffers out: a request and its ack, each
 * datagram a transaction (dhcp.leasetime / rebinding_time / renewal_time only when the
 * message carries the option), the EVE object as Suricata's extended record, truncated and
 * malformed options (the events), the option limit (shed), what is no DHCP, the probe. */
#include <stdlib.h>

#include "dhcp_int.h"
#include "osprey_json_writer.h"
#include "proto_harness.h"
#include "unit.h"

struct msg {
    uint8_t b[1024];
    size_t n;
};

/* A BOOTP header (op, xid, ciaddr, yiaddr, siaddr, giaddr, chaddr) with the cookie */
static struct msg bootp(uint8_t op, uint32_t xid, const char *ci, const char *yi)
{
    struct msg m;
    memset(&m, 0, sizeof m);
    m.b[0] = op, m.b[1] = 1, m.b[2] = 6;
    m.b[4] = xid >> 24, m.b[5] = xid >> 16 & 0xff, m.b[6] = xid >> 8 & 0xff, m.b[7] = xid & 0xff;
    memcpy(m.b + 12, ci, 4);
    memcpy(m.b + 16, yi, 4);
    memcpy(m.b + 20, "\x0a\x10\x01\x01", 4);   /* siaddr 10.16.1.1 */
    memcpy(m.b + 28, "\x00\x11\x32\x17\x49\xf0", 6);
    memcpy(m.b + 236, "\x63\x82\x53\x63", 4);
    m.n = 240;
    return m;
}

static void opt(struct msg *m, uint8_t code, const void *d, uint8_t len)
{
    m->b[m->n++] = code;
    m->b[m->n++] = len;
    memcpy(m->b + m->n, d, len);
    m->n += len;
}

static char *eve(struct ph *h)
{
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    CHECK(dhcp_eve(&h->pf, &w));
    char *s = osprey_jw_finish(&w); /* the line, without its '\n' */
    if (s && *s)
        s[strlen(s) - 1] = 0;
    return s;
}

static void exchange(void)
{
    struct ph h;
    ph_init(&h, "dhcp", 17, 68, 67);
    int64_t v;
    struct msg rq = bootp(1, 4016330564u, "\x0a\x10\x01\x04", "\0\0\0\0");
    opt(&rq, 53, "\x03", 1);
    opt(&rq, 61, "\x01\x00\x11\x32\x17\x49\xf0", 7);
    opt(&rq, 12, "nas1\0", 5);
    opt(&rq, 55, "\x01\x03\x0f\x06\x2c", 5); /* 44 (netbios ns) has no name: left out */
    rq.b[rq.n++] = 255;
    ph_feed(&h, 0, rq.b, rq.n);
    CHECK(h.txs == 1);
    CHECK(!ph_field(&h, "dhcp.leasetime", 0, &v)); /* no option 51 */
    CHECK(ph_field(&h, "dhcp.dhcp_type", 0, &v) && v == 3);
    char *s = eve(&h);
    CHECK(s && !strcmp(s, "{\"dhcp\":{\"type\":\"request\",\"id\":4016330564,"
                          "\"client_mac\":\"00:11:32:17:49:f0\",\"assigned_ip\":\"0.0.0.0\","
                          "\"client_ip\":\"10.16.1.4\",\"dhcp_type\":\"request\","
                          "\"client_id\":\"00:11:32:17:49:f0\",\"hostname\":\"nas1\\u0000\","
                          "\"params\":[\"subnet_mask\",\"router\",\"domain\",\"dns_server\"]}}"));
    free(s);

    struct msg ack = bootp(2, 4016330564u, "\x0a\x10\x01\x04", "\x0a\x10\x01\x04");
    opt(&ack, 53, "\x05", 1);
    opt(&ack, 51, "\x00\x00\x0e\x10", 4);  /* 3600 */
    opt(&ack, 58, "\x00\x00\x06\x91", 4);  /* 1681 */
    opt(&ack, 59, "\x00\x00\x0b\xd7", 4);  /* 3031 */
    opt(&ack, 1, "\xff\xff\x00\x00", 4);
    opt(&ack, 3, "\x0a\x10\x01\x01", 4);
    opt(&ack, 6, "\x0a\x10\x01\x01\x08\x08\x08\x08", 8);
    ack.b[ack.n++] = 255;
    ph_feed(&h, 1, ack.b, ack.n);
    CHECK(h.txs == 2 && ph_count(&h, "dhcp_tx") == 2);
    CHECK(ph_field(&h, "dhcp.leasetime", 0, &v) && v == 3600);
    CHECK(ph_field(&h, "dhcp.renewal_time", 0, &v) && v == 1681);
    CHECK(ph_field(&h, "dhcp.rebinding_time", 0, &v) && v == 3031);
    CHECK(ph_buf(&h, "dhcp.transaction", 1, 0, &(uint32_t){0}) != NULL);
    s = eve(&h);
    CHECK(s && !strcmp(s, "{\"dhcp\":{\"type\":\"reply\",\"id\":4016330564,"
                          "\"client_mac\":\"00:11:32:17:49:f0\",\"assigned_ip\":\"10.16.1.4\","
                          "\"client_ip\":\"10.16.1.4\",\"relay_ip\":\"0.0.0.0\","
                          "\"next_server_ip\":\"10.16.1.1\",\"dhcp_type\":\"ack\","
                          "\"lease_time\":3600,\"renewal_time\":1681,\"rebinding_time\":3031,"
                          "\"subnet_mask\":\"255.255.0.0\",\"routers\":[\"10.16.1.1\"],"
                          "\"dns_servers\":[\"10.16.1.1\",\"8.8.8.8\"]}}"));
    free(s);
    ph_free(&h);
}

static void odd_options(void)
{
    struct ph h;
    ph_init(&h, "dhcp", 17, 68, 67);
    /* no END: truncated; the options before it are read */
    struct msg m = bootp(1, 7, "\0\0\0\0", "\0\0\0\0");
    opt(&m, 53, "\x01", 1);
    m.b[m.n++] = 0; /* a pad */
    ph_feed(&h, 0, m.b, m.n);
    const struct dhcp_state *st = h.pf.state;
    CHECK(h.txs == 1 && st->cur.truncated && !st->cur.malformed && st->cur.nopts == 1);
    /* an option whose length runs past the datagram: malformed */
    m = bootp(1, 8, "\0\0\0\0", "\0\0\0\0");
    m.b[m.n++] = 12, m.b[m.n++] = 40, m.b[m.n++] = 'x';
    ph_feed(&h, 0, m.b, m.n);
    CHECK(h.txs == 2 && st->cur.malformed && st->cur.nopts == 0);
    /* more options than kept: the rest counted */
    m = bootp(1, 9, "\0\0\0\0", "\0\0\0\0");
    for (int i = 0; i < DHCP_OPTS_MAX + 5; i++)
        opt(&m, 200, "", 0);
    m.b[m.n++] = 255;
    ph_feed(&h, 0, m.b, m.n);
    CHECK(st->cur.nopts == DHCP_OPTS_MAX && ph_count(&h, "dhcp_shed") == 5);
    /* no cookie, too short: not DHCP, counted, the last message stays */
    m = bootp(1, 10, "\0\0\0\0", "\0\0\0\0");
    m.b[236] = 0;
    ph_feed(&h, 0, m.b, m.n);
    ph_feed(&h, 0, m.b, 100);
    CHECK(ph_count(&h, "dhcp_malformed") == 2 && h.txs == 3 && st->cur.xid == 9);
    ph_free(&h);
}

static void probe(void)
{
    struct mon_flow f = {.proto = 17, .cport = 68, .sport = 67};
    struct msg m = bootp(1, 1, "\0\0\0\0", "\0\0\0\0");
    m.b[m.n++] = 255;
    CHECK(dhcp_probe(m.b, m.n, &f) == DET_YES);
    f.sport = 53, f.cport = 40000;
    CHECK(dhcp_probe(m.b, m.n, &f) == DET_NO); /* not its ports */
    f.sport = 67;
    m.b[0] = 3;
    CHECK(dhcp_probe(m.b, m.n, &f) == DET_NO); /* no BOOTP op */
    m.b[0] = 1, m.b[238] = 0;
    CHECK(dhcp_probe(m.b, m.n, &f) == DET_NO); /* no cookie */
    CHECK(dhcp_probe(m.b, 200, &f) == DET_NO);
}

int main(void)
{
    exchange();
    odd_options();
    probe();
    return unit_report("test_proto_dhcp");
}
