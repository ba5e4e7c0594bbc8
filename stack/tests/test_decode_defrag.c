/* test_decode_defrag.c — the decoder with a real defragmenter: fragments are held, the
 * completed datagram is decoded like any other (transport, tunnels, checksums), and
 * reassembled datagrams nest inside tunnels. */
#include "mon_defrag.h"
#include "test_decode_util.h"

static struct mon_decoder d;
static struct mon_packet p;
static struct mon_defrag *df;

static void init(uint8_t csum_mode)
{
    struct mon_decode_cfg cfg;
    mon_decode_cfg_defaults(&cfg);
    cfg.checksum_mode = csum_mode;
    mon_decoder_init(&d, &cfg, df);
}

static enum mon_decode_outcome feed(const struct fb *f, uint64_t num)
{
    packet_init(&p, f, 1);
    p.num = num;
    p.ts_us = 1000000 * num;
    return mon_decode(&d, &p);
}

/* A UDP datagram 10.0.0.1:1000 -> 10.0.0.2:2000 with 40 bytes of data, cut in two IPv4
 * fragments (24 + 24 bytes of IP payload), each with the given link prefix. */
static void ipv4_frags(struct fb *a, struct fb *b, bool inside_ipip)
{
    static struct fb whole;
    whole.n = 0;
    uint32_t ip = ipv4_begin(&whole, 17, 1, 2);
    uint32_t u = udp_begin(&whole, 1000, 2000);
    for (int i = 0; i < 40; i++)
        put8(&whole, (uint8_t)('a' + i % 26));
    udp_end(&whole, u, ip);
    ipv4_end(&whole, ip);

    struct fb *parts[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        struct fb *o = parts[k];
        o->n = 0;
        eth(o, 0x0800);
        uint32_t outer = 0;
        if (inside_ipip)
            outer = ipv4_begin(o, 4, 50, 51);
        uint32_t h = o->n;
        putn(o, whole.b, 20);
        set16(o, h + 4, 77);                                 /* IP id */
        set16(o, h + 6, k == 0 ? 0x2000 : 3);                /* MF / offset 24 */
        putn(o, whole.b + 20 + 24 * k, 24);
        ipv4_end(o, h);
        if (inside_ipip)
            ipv4_end(o, outer);
    }
}

static void test_ipv4(void)
{
    static struct fb a, b;
    ipv4_frags(&a, &b, false);
    init(MON_CSUM_ALL);
    CHECK_EQ(feed(&a, 1), MON_DEC_FRAG_HELD);
    CHECK(p.flags & MON_PKT_FRAGMENT);
    CHECK_EQ(total_events(&d), 0);
    CHECK_EQ(feed(&b, 2), MON_DEC_IP);
    CHECK(p.flags & MON_PKT_FRAGMENT);
    CHECK(p.flags & MON_PKT_REASSEMBLED);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_UDP);
    CHECK_EQ(p.l3_len, 68);
    CHECK_EQ(p.sport, 1000);
    CHECK_EQ(p.dport, 2000);
    CHECK_EQ(p.payload_len, 40);
    CHECK(p.payload && p.payload[0] == 'a' && p.payload[39] == 'a' + 39 % 26);
    /* The datagram lives in defrag's buffer, not in the frame. */
    CHECK(p.l3 < b.b || p.l3 >= b.b + b.n);
    CHECK_EQ(total_events(&d), 0);  /* reassembled UDP checksum is right */
    CHECK_EQ(d.stats.outcome[MON_DEC_FRAG_HELD], 1);
    CHECK_EQ(d.stats.outcome[MON_DEC_IP], 1);
    CHECK_EQ(d.stats.layer[MON_L_IPV4], 2);
    CHECK_EQ(d.stats.layer[MON_L_UDP], 1);

    /* Order does not matter; a corrupted fragment shows in the reassembled checksum. */
    ipv4_frags(&a, &b, false);
    b.b[b.n - 1] ^= 0x20;
    CHECK_EQ(feed(&b, 3), MON_DEC_FRAG_HELD);
    CHECK_EQ(feed(&a, 4), MON_DEC_IP);
    CHECK(p.flags & MON_PKT_BAD_L4_CSUM);
    CHECK_EQ(d.stats.event[MON_DE_UDP_BAD_CSUM], 1);

    /* Fragments inside IP-in-IP: the inner datagram is reassembled. */
    ipv4_frags(&a, &b, true);
    CHECK_EQ(feed(&a, 5), MON_DEC_FRAG_HELD);
    CHECK_EQ(feed(&b, 6), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_IPV4, MON_L_UDP);
    CHECK_EQ(p.ntunnels, 1);
    CHECK_EQ(p.tunnel[0], MON_T_IPIP);
    CHECK_EQ(p.payload_len, 40);
}

static void test_ipv4_invalid(void)
{
    /* A middle fragment whose length is not a multiple of 8 is invalid: defrag counts it,
     * the decoder reports it, and no second anomaly is added. */
    static struct fb a, b;
    ipv4_frags(&a, &b, false);
    a.n -= 3;
    ipv4_end(&a, 14);
    init(MON_CSUM_NONE);
    CHECK_EQ(feed(&a, 1), MON_DEC_INVALID);
    CHECK_EQ(total_events(&d), 1);
    CHECK(p.anomaly != 0);
    CHECK_EQ(d.stats.event[p.anomaly - 1], 1);
}

static void test_ipv6(void)
{
    /* ICMPv6 echo with 32 bytes of data in two fragments (16 + 24 bytes). */
    static struct fb whole, a, b;
    whole.n = 0;
    uint32_t ip = ipv6_begin(&whole, 58, 1, 2);
    uint32_t ic = icmp_begin(&whole, 128, 0, 0x77);
    for (int i = 0; i < 32; i++)
        put8(&whole, (uint8_t)i);
    icmp_end(&whole, ic, ip, true);
    ipv6_end(&whole, ip);

    struct fb *parts[2] = {&a, &b};
    const uint32_t off[2] = {0, 16}, len[2] = {16, 24};
    for (int k = 0; k < 2; k++) {
        struct fb *o = parts[k];
        o->n = 0;
        eth(o, 0x86dd);
        uint32_t h = o->n;
        putn(o, whole.b, 40);
        o->b[h + 6] = 44;
        put8(o, 58); put8(o, 0); put16(o, (uint16_t)(off[k] | (k == 0))); put32(o, 0x5151);
        putn(o, whole.b + 40 + off[k], len[k]);
        ipv6_end(o, h);
    }
    init(MON_CSUM_ALL);
    CHECK_EQ(feed(&a, 1), MON_DEC_FRAG_HELD);
    CHECK_EQ(feed(&b, 2), MON_DEC_IP);
    CHECK(p.flags & MON_PKT_REASSEMBLED);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV6, MON_L_ICMPV6);
    CHECK_EQ(p.icmp_type, 128);
    CHECK_EQ(p.icmp_id, 0x77);
    CHECK_EQ(p.payload_len, 32);
    CHECK_EQ(p.l3_len, 80);
    CHECK_EQ(total_events(&d), 0);
}

int main(void)
{
    struct mon_defrag_cfg cfg;
    mon_defrag_cfg_defaults(&cfg);
    df = mon_defrag_create(&cfg);
    CHECK(df != NULL);
    if (!df)
        return 1;
    test_ipv4();
    test_ipv4_invalid();
    test_ipv6();
    mon_defrag_destroy(df);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("test_decode_defrag: all checks passed\n");
    return 0;
}
