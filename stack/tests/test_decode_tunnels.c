/* test_decode_tunnels.c — encapsulations: GRE (v0, PPTP v1, ERSPAN I/II/III), IP-in-IP,
 * VXLAN, Geneve, GTP-U, Teredo, GRE-in-UDP, MPLS (Ethernet, UDP), PPPoE; depth limits. */
#include "test_decode_util.h"

static struct fb f;
static struct mon_decoder d;
static struct mon_packet p;

/* Innermost datagram used everywhere: IPv4 10.0.0.8 -> 10.0.0.9, UDP 1111 -> 2222, "in". */
static void inner_udp4(struct fb *b)
{
    uint32_t ip = ipv4_begin(b, 17, 8, 9);
    uint32_t u = udp_begin(b, 1111, 2222);
    putn(b, "in", 2);
    udp_end(b, u, ip);
    ipv4_end(b, ip);
}
static void inner_udp6(struct fb *b)
{
    uint32_t ip = ipv6_begin(b, 17, 8, 9);
    uint32_t u = udp_begin(b, 1111, 2222);
    putn(b, "in", 2);
    udp_end(b, u, ip);
    ipv6_end(b, ip);
}

static void check_inner(int ipver, int line)
{
    if (p.ipver != ipver || p.dport != 2222 || p.sport != 1111 || p.payload_len != 2 ||
        (ipver == 4 ? p.dst.b[3] : p.dst.b[15]) != 9 || total_events(&d) != 0) {
        fprintf(stderr, "%s:%d: inner datagram not decoded (ipver %d dport %d events %llu)\n",
                __FILE__, line, p.ipver, p.dport, (unsigned long long)total_events(&d));
        dump_layers(&p);
        failures++;
    }
}

static void check_tunnels(const int *t, unsigned n, int line)
{
    bool ok = p.ntunnels == n;
    for (unsigned i = 0; ok && i < n; i++)
        ok = p.tunnel[i] == t[i];
    if (!ok) {
        fprintf(stderr, "%s:%d: tunnels:", __FILE__, line);
        for (unsigned i = 0; i < p.ntunnels; i++)
            fprintf(stderr, " %s", mon_tunnel_name(p.tunnel[i]));
        fprintf(stderr, "\n");
        failures++;
    }
}
#define CHECK_TUNNELS(...)                                                          \
    check_tunnels((const int[]){__VA_ARGS__},                                       \
                  sizeof((const int[]){__VA_ARGS__}) / sizeof(int), __LINE__)

/* Outer Ethernet/IPv4 carrying protocol proto; returns the IP header offset. */
static uint32_t outer4(uint8_t proto)
{
    f.n = 0;
    eth(&f, 0x0800);
    return ipv4_begin(&f, proto, 1, 2);
}

static void test_gre(void)
{
    /* v0 with checksum, key and sequence, carrying IPv4. */
    uint32_t ip = outer4(47);
    put16(&f, 0xb000); put16(&f, 0x0800); put32(&f, 0); put32(&f, 42); put32(&f, 7);
    inner_udp4(&f);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_GRE, MON_L_IPV4, MON_L_UDP);
    CHECK_EQ(p.layer[2].len, 16);
    CHECK_TUNNELS(MON_T_GRE);
    check_inner(4, __LINE__);

    /* Transparent Ethernet bridging, IPv6 inside. */
    ip = outer4(47);
    put16(&f, 0); put16(&f, 0x6558);
    eth(&f, 0x86dd);
    inner_udp6(&f);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_GRE, MON_L_ETH, MON_L_IPV6, MON_L_UDP);
    check_inner(6, __LINE__);

    /* RFC 1701 routing: source route entries up to the null entry. */
    ip = outer4(47);
    put16(&f, 0x4000); put16(&f, 0x0800); put16(&f, 0); put16(&f, 0);
    put16(&f, 0x0800); put8(&f, 0); put8(&f, 4); put32(&f, 0x01020304);
    put32(&f, 0);
    inner_udp4(&f);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.layer[2].len, 4 + 4 + 8 + 4);
    check_inner(4, __LINE__);

    /* Malformed: version 2, recursion bits, key flag past the end, unknown payload. */
    ip = outer4(47);
    put16(&f, 0x0002); put16(&f, 0x0800);
    inner_udp4(&f);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_GRE_BAD_VERSION);
    f.b[34] = 0x01;  /* recursion control 1 */
    f.b[35] = 0x00;
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_GRE_BAD_FLAGS);
    ip = outer4(47);
    put16(&f, 0x2000); put16(&f, 0x0800); put16(&f, 0);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_GRE_TRUNCATED);
    ip = outer4(47);
    put16(&f, 0);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_GRE_TRUNCATED);
    ip = outer4(47);
    put16(&f, 0); put16(&f, 0x88b5); zeros(&f, 30);  /* local experimental: not decoded */
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_ANOMALY(&d, &p, MON_DE_GRE_UNKNOWN_PAYLOAD);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_GRE);
    ip = outer4(47);
    put16(&f, 0); put16(&f, 0x8200); zeros(&f, 30);  /* Aruba 802.11 management: non-IP */
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.anomaly, 0);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_GRE, MON_L_WLAN, MON_L_OTHER);
    ip = outer4(47);
    put16(&f, 0); put16(&f, 0x8210); zeros(&f, 10);  /* shorter than an 802.11 header */
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_ANOMALY(&d, &p, MON_DE_GRE_UNKNOWN_PAYLOAD);

    /* PPTP (v1): key = payload length + call id, sequence, ack; payload PPP. */
    ip = outer4(47);
    put16(&f, 0x3081); put16(&f, 0x880b);
    uint32_t lenpos = f.n;
    put16(&f, 0); put16(&f, 5); put32(&f, 1); put32(&f, 0);
    uint32_t start = f.n;
    put8(&f, 0xff); put8(&f, 0x03); put16(&f, 0x0021);
    inner_udp4(&f);
    set16(&f, lenpos, (uint16_t)(f.n - start));
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_GRE, MON_L_PPP, MON_L_IPV4, MON_L_UDP);
    CHECK_EQ(p.layer[2].len, 16);
    CHECK_TUNNELS(MON_T_GRE);
    check_inner(4, __LINE__);
    set16(&f, lenpos, 500);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_GRE_TRUNCATED);
    set16(&f, 34, 0x1001);  /* v1 without key */
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_GRE_BAD_FLAGS);

    /* PPTP acknowledgement only: GRE with nothing inside. */
    ip = outer4(47);
    put16(&f, 0x2081); put16(&f, 0x880b); put16(&f, 0); put16(&f, 5); put32(&f, 9);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_GRE);
    CHECK_EQ(p.ntunnels, 0);
    CHECK_EQ(total_events(&d), 0);
}

static void test_erspan(void)
{
    /* Type I: GRE without sequence number, Ethernet right after GRE. */
    uint32_t ip = outer4(47);
    put16(&f, 0); put16(&f, 0x88be);
    eth(&f, 0x0800);
    inner_udp4(&f);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_GRE, MON_L_ERSPAN, MON_L_ETH, MON_L_IPV4,
                 MON_L_UDP);
    CHECK_TUNNELS(MON_T_GRE, MON_T_ERSPAN);
    check_inner(4, __LINE__);

    /* Type II: sequence number and an 8-byte header of version 1. */
    ip = outer4(47);
    put16(&f, 0x1000); put16(&f, 0x88be); put32(&f, 3);
    uint32_t er = f.n;
    put16(&f, 0x1000 | 100); put16(&f, 0x0001); put32(&f, 0);
    eth(&f, 0x0800);
    inner_udp4(&f);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_GRE, MON_L_ERSPAN, MON_L_ETH, MON_L_IPV4,
                 MON_L_UDP);
    CHECK_EQ(p.layer[3].len, 8);
    check_inner(4, __LINE__);
    f.b[er] = 0x20;
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_ERSPAN_BAD_VERSION);

    /* Type III with the optional platform subheader. */
    ip = outer4(47);
    put16(&f, 0x1000); put16(&f, 0x22eb); put32(&f, 3);
    put16(&f, 0x2000); put16(&f, 1); put32(&f, 12345); put16(&f, 0); put8(&f, 0); put8(&f, 1);
    zeros(&f, 8);
    eth(&f, 0x0800);
    inner_udp4(&f);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.layer[3].kind, MON_L_ERSPAN);
    CHECK_EQ(p.layer[3].len, 20);
    CHECK_TUNNELS(MON_T_GRE, MON_T_ERSPAN);
    check_inner(4, __LINE__);

    ip = outer4(47);
    put16(&f, 0x1000); put16(&f, 0x22eb); put32(&f, 3); put16(&f, 0x2000);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_ERSPAN_TRUNCATED);
}

static void test_ipip(void)
{
    uint32_t ip = outer4(4);
    inner_udp4(&f);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_IPV4, MON_L_UDP);
    CHECK_TUNNELS(MON_T_IPIP);
    CHECK(p.l3 == f.b + 34);
    check_inner(4, __LINE__);

    ip = outer4(41);
    inner_udp6(&f);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_IPV6, MON_L_UDP);
    check_inner(6, __LINE__);

    f.n = 0;
    eth(&f, 0x86dd);
    ip = ipv6_begin(&f, 4, 1, 2);
    inner_udp4(&f);
    ipv6_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV6, MON_L_IPV4, MON_L_UDP);
    check_inner(4, __LINE__);

    f.n = 0;
    eth(&f, 0x86dd);
    ip = ipv6_begin(&f, 41, 1, 2);
    uint32_t ip2 = ipv6_begin(&f, 41, 3, 4);
    inner_udp6(&f);
    ipv6_end(&f, ip2);
    ipv6_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_TUNNELS(MON_T_IPIP, MON_T_IPIP);
    check_inner(6, __LINE__);

    /* Inner datagram longer than the outer one carries. */
    ip = outer4(4);
    inner_udp4(&f);
    set16(&f, 34 + 2, 100);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_IPV4_TOTLEN_OVER_CAPLEN);

    /* An inner header resets the outer transport fields. */
    ip = outer4(4);
    uint32_t in = ipv4_begin(&f, 50, 8, 9);  /* ESP inside */
    zeros(&f, 16);
    ipv4_end(&f, in);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.proto, 50);
    CHECK_EQ(p.dst.b[3], 9);
    CHECK(!(p.flags & MON_PKT_HAS_L4));
}

/* Outer Ethernet/IPv4/UDP to dport; returns offsets through *ip, *u. */
static void outer_udp(uint16_t sport, uint16_t dport, uint32_t *ip, uint32_t *u)
{
    *ip = outer4(17);
    *u = udp_begin(&f, sport, dport);
}
static void close_udp(uint32_t ip, uint32_t u)
{
    udp_end(&f, u, ip);
    ipv4_end(&f, ip);
}

static void test_udp_tunnels(void)
{
    uint32_t ip, u;

    /* VXLAN */
    outer_udp(50000, 4789, &ip, &u);
    put8(&f, 0x08); zeros(&f, 3); put32(&f, 0x00123400);
    eth(&f, 0x0800);
    inner_udp4(&f);
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_UDP, MON_L_VXLAN, MON_L_ETH, MON_L_IPV4,
                 MON_L_UDP);
    CHECK_TUNNELS(MON_T_VXLAN);
    check_inner(4, __LINE__);
    f.b[42] = 0;
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_VXLAN_BAD_FLAGS);
    outer_udp(50000, 4789, &ip, &u);
    put8(&f, 0x08); zeros(&f, 3);
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_VXLAN_TRUNCATED);

    /* Disabled, or on another port: plain UDP. */
    outer_udp(50000, 4789, &ip, &u);
    put8(&f, 0x08); zeros(&f, 3); put32(&f, 0x00123400);
    eth(&f, 0x0800);
    inner_udp4(&f);
    close_udp(ip, u);
    struct mon_decode_cfg cfg;
    mon_decode_cfg_defaults(&cfg);
    cfg.vxlan_enabled = false;
    mon_decoder_init(&d, &cfg, NULL);
    packet_init(&p, &f, 1);
    CHECK_EQ(mon_decode(&d, &p), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_UDP);
    CHECK_EQ(p.dport, 4789);
    cfg.vxlan_enabled = true;
    cfg.vxlan_ports[0] = 8472;
    mon_decoder_init(&d, &cfg, NULL);
    packet_init(&p, &f, 1);
    mon_decode(&d, &p);
    CHECK_EQ(p.nlayers, 3);
    set16(&f, u + 2, 8472);
    close_udp(ip, u);
    packet_init(&p, &f, 1);
    mon_decode(&d, &p);
    CHECK_TUNNELS(MON_T_VXLAN);

    /* Geneve with 8 bytes of options, Ethernet and IPv6 payloads. */
    outer_udp(50000, 6081, &ip, &u);
    put8(&f, 2); put8(&f, 0); put16(&f, 0x6558); put32(&f, 0x00000100);
    put16(&f, 0x0102); put8(&f, 3); put8(&f, 1); put32(&f, 0xdeadbeef);
    eth(&f, 0x0800);
    inner_udp4(&f);
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_UDP, MON_L_GENEVE, MON_L_ETH, MON_L_IPV4,
                 MON_L_UDP);
    CHECK_EQ(p.layer[3].len, 16);
    CHECK_TUNNELS(MON_T_GENEVE);
    check_inner(4, __LINE__);
    f.b[42] = 0x40 | 2;  /* version 1 */
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_GENEVE_BAD_VERSION);
    f.b[42] = 60;  /* 240 bytes of options */
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_GENEVE_TRUNCATED);
    outer_udp(50000, 6081, &ip, &u);
    put8(&f, 0); put8(&f, 0); put16(&f, 0x86dd); put32(&f, 0x00000100);
    inner_udp6(&f);
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    check_inner(6, __LINE__);

    /* GTP-U G-PDU with sequence number and one extension header (PDU session container). */
    outer_udp(2152, 2152, &ip, &u);
    uint32_t g = f.n;
    put8(&f, 0x36); put8(&f, 255); put16(&f, 0); put32(&f, 0x11223344);
    put16(&f, 1); put8(&f, 0); put8(&f, 0x85);
    put8(&f, 1); put8(&f, 0x10); put8(&f, 9); put8(&f, 0);
    inner_udp4(&f);
    set16(&f, g + 2, (uint16_t)(f.n - g - 8));
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_UDP, MON_L_GTPU, MON_L_IPV4, MON_L_UDP);
    CHECK_EQ(p.layer[3].len, 16);
    CHECK_TUNNELS(MON_T_GTPU);
    check_inner(4, __LINE__);
    f.b[g + 12] = 0;  /* extension length 0 */
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_GTPU_MALFORMED);
    f.b[g + 12] = 1;
    set16(&f, g + 2, 900);
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_GTPU_TRUNCATED);
    f.b[g] = 0x46;  /* version 2 */
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_GTPU_BAD_VERSION);
    /* Echo request: signalling, no tunnel. */
    outer_udp(2152, 2152, &ip, &u);
    put8(&f, 0x32); put8(&f, 1); put16(&f, 4); put32(&f, 0); put16(&f, 7); put16(&f, 0);
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_UDP, MON_L_GTPU);
    CHECK_EQ(p.ntunnels, 0);
    CHECK_EQ(p.dport, 2152);
    CHECK_EQ(total_events(&d), 0);

    /* Teredo: origin indication, then IPv6; bare IPv6; auth + origin. */
    outer_udp(3544, 40000, &ip, &u);
    put16(&f, 0); put16(&f, 0x1234); put32(&f, 0x01020304);
    inner_udp6(&f);
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_UDP, MON_L_TEREDO, MON_L_IPV6, MON_L_UDP);
    CHECK_EQ(p.layer[3].len, 8);
    CHECK_TUNNELS(MON_T_TEREDO);
    check_inner(6, __LINE__);
    outer_udp(40000, 3544, &ip, &u);
    put16(&f, 1); put8(&f, 2); put8(&f, 3); putn(&f, "idabc", 5); zeros(&f, 9);
    put16(&f, 0); put16(&f, 0x1234); put32(&f, 0x01020304);
    inner_udp6(&f);
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.layer[3].len, 4 + 5 + 9 + 8);
    check_inner(6, __LINE__);
    outer_udp(40000, 3544, &ip, &u);
    inner_udp6(&f);
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.layer[3].len, 0);
    check_inner(6, __LINE__);
    /* Not IPv6, or an IPv6 length that does not match: plain UDP, no anomaly. */
    outer_udp(40000, 3544, &ip, &u);
    inner_udp4(&f);
    zeros(&f, 20);
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_UDP);
    CHECK_EQ(total_events(&d), 0);
    outer_udp(40000, 3544, &ip, &u);
    uint32_t in6 = f.n;
    inner_udp6(&f);
    set16(&f, in6 + 4, 11);
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.nlayers, 3);
    /* Origin indication cut short. */
    outer_udp(40000, 3544, &ip, &u);
    put16(&f, 0); put16(&f, 1);
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_TEREDO_TRUNCATED);

    /* GRE in UDP, MPLS in UDP. */
    outer_udp(50000, 4754, &ip, &u);
    put16(&f, 0); put16(&f, 0x0800);
    inner_udp4(&f);
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_UDP, MON_L_GRE, MON_L_IPV4, MON_L_UDP);
    CHECK_TUNNELS(MON_T_GRE);
    check_inner(4, __LINE__);
    outer_udp(50000, 6635, &ip, &u);
    put32(&f, (100u << 12) | 0x100 | 64);
    inner_udp6(&f);
    close_udp(ip, u);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_UDP, MON_L_MPLS, MON_L_IPV6, MON_L_UDP);
    CHECK_TUNNELS(MON_T_MPLS);
    check_inner(6, __LINE__);
}

static void test_mpls_pppoe(void)
{
    /* Two labels, IPv4 by nibble. */
    f.n = 0;
    eth(&f, 0x8847);
    put32(&f, (16u << 12) | 64);
    put32(&f, (17u << 12) | 0x100 | 64);
    inner_udp4(&f);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_MPLS, MON_L_IPV4, MON_L_UDP);
    CHECK_EQ(p.layer[1].len, 8);
    CHECK_TUNNELS(MON_T_MPLS);
    check_inner(4, __LINE__);
    /* Explicit null says IPv6. */
    f.n = 0;
    eth(&f, 0x8847);
    put32(&f, (2u << 12) | 0x100 | 64);
    inner_udp6(&f);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    check_inner(6, __LINE__);
    /* Ethernet pseudowire with control word. */
    f.n = 0;
    eth(&f, 0x8847);
    put32(&f, (99u << 12) | 0x100 | 64);
    put32(&f, 0);
    eth(&f, 0x0800);
    inner_udp4(&f);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_MPLS, MON_L_ETH, MON_L_IPV4, MON_L_UDP);
    /* Malformed: no bottom of stack, reserved bottom label, unknown payload. */
    f.n = 0;
    eth(&f, 0x8847);
    put32(&f, (16u << 12) | 64);
    put32(&f, (17u << 12) | 64);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_MPLS_TRUNCATED);
    f.n = 0;
    eth(&f, 0x8847);
    put32(&f, (5u << 12) | 0x100 | 64);
    inner_udp4(&f);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_MPLS_BAD_LABEL);
    f.n = 0;
    eth(&f, 0x8847);
    put32(&f, (3u << 12) | 64);
    put32(&f, (17u << 12) | 0x100 | 64);
    inner_udp4(&f);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_MPLS_BAD_LABEL);
    f.n = 0;
    eth(&f, 0x8847);
    put32(&f, (17u << 12) | 0x100 | 64);
    put32(&f, 0x90000000);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_NON_IP);
    CHECK_ANOMALY(&d, &p, MON_DE_MPLS_UNKNOWN_PAYLOAD);

    /* PPPoE session over Ethernet, and its malformed variants. */
    f.n = 0;
    eth(&f, 0x8864);
    put8(&f, 0x11); put8(&f, 0); put16(&f, 0x1234); put16(&f, 0);
    put16(&f, 0x0021);
    inner_udp4(&f);
    set16(&f, 18, (uint16_t)(f.n - 20));
    zeros(&f, 6);  /* Ethernet padding past the PPPoE length */
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_PPPOE, MON_L_PPP, MON_L_IPV4, MON_L_UDP);
    CHECK_TUNNELS(MON_T_PPPOE);
    check_inner(4, __LINE__);
    set16(&f, 18, 999);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_PPPOE_TRUNCATED);
    set16(&f, 18, 0);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_PPPOE_MALFORMED);
    f.b[14] = 0x21;
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_PPPOE_MALFORMED);
    f.n = 17;
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_PPPOE_TRUNCATED);
    /* Discovery (PADI) is valid non-IP. */
    f.n = 0;
    eth(&f, 0x8863);
    put8(&f, 0x11); put8(&f, 0x09); put16(&f, 0); put16(&f, 4);
    put16(&f, 0x0101); put16(&f, 0);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_NON_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_PPPOE);
    CHECK_EQ(total_events(&d), 0);
}

static void test_limits(void)
{
    /* Ten nested IP-in-IP headers against the default depth of 8. */
    struct mon_decode_cfg cfg;
    f.n = 0;
    eth(&f, 0x0800);
    uint32_t ips[10];
    for (int i = 0; i < 10; i++)
        ips[i] = ipv4_begin(&f, i < 9 ? 4 : 17, (uint8_t)i, (uint8_t)(i + 1));
    uint32_t u = udp_begin(&f, 1, 2);
    udp_end(&f, u, ips[9]);
    for (int i = 9; i >= 0; i--)
        ipv4_end(&f, ips[i]);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_TUNNEL_TOO_DEEP);
    CHECK_EQ(p.ntunnels, 8);

    mon_decode_cfg_defaults(&cfg);
    cfg.max_tunnel_depth = 2;
    mon_decoder_init(&d, &cfg, NULL);
    packet_init(&p, &f, 1);
    CHECK_EQ(mon_decode(&d, &p), MON_DEC_INVALID);
    CHECK_EQ(p.ntunnels, 2);
    CHECK_EQ(d.stats.event[MON_DE_TUNNEL_TOO_DEEP], 1);

    /* A depth above MON_MAX_TUNNELS is capped, never overflows tunnel[]. */
    cfg.max_tunnel_depth = 200;
    mon_decoder_init(&d, &cfg, NULL);
    packet_init(&p, &f, 1);
    CHECK_EQ(mon_decode(&d, &p), MON_DEC_INVALID);
    CHECK_EQ(p.ntunnels, MON_MAX_TUNNELS);

    /* Three IPv6 headers with eight extension headers each: more than MON_MAX_LAYERS. */
    f.n = 0;
    eth(&f, 0x86dd);
    uint32_t h[3];
    for (int i = 0; i < 3; i++) {
        h[i] = ipv6_begin(&f, 60, 1, 2);
        for (int k = 0; k < 8; k++) {
            put8(&f, k < 7 ? 60 : (i < 2 ? 41 : 59)); put8(&f, 0); put8(&f, 1); put8(&f, 4);
            zeros(&f, 4);
        }
    }
    for (int i = 2; i >= 0; i--)
        ipv6_end(&f, h[i]);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_LAYERS_TOO_MANY);
    CHECK_EQ(p.nlayers, MON_MAX_LAYERS);
}

int main(void)
{
    test_gre();
    test_erspan();
    test_ipip();
    test_udp_tunnels();
    test_mpls_pppoe();
    test_limits();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("test_decode_tunnels: all checks passed\n");
    return 0;
}
