/* test_decode_basic.c — link types, IPv4/IPv6, transport, checksums, fragments without
 * defrag, names and defaults of stack/decode. */
#include <stdlib.h>

#include "test_decode_util.h"

static struct fb f;
static struct mon_decoder d;
static struct mon_packet p;

static const uint8_t tcp_opts[] = {
    2, 4, 0x05, 0xb4,               /* MSS 1460 */
    1, 3, 3, 7,                     /* NOP, window scale 7 */
    4, 2,                           /* SACK permitted */
    8, 10, 0, 0, 0, 1, 0, 0, 0, 2,  /* timestamps 1, 2 */
};

/* Ethernet / IPv4 / TCP SYN with options and 5 bytes of data. */
static void build_tcp4(struct fb *b)
{
    b->n = 0;
    eth(b, 0x0800);
    uint32_t ip = ipv4_begin(b, 6, 1, 2);
    uint32_t t = tcp_begin(b, 1234, 80, MON_TH_SYN, tcp_opts, sizeof(tcp_opts));
    putn(b, "hello", 5);
    tcp_end(b, t, ip);
    ipv4_end(b, ip);
}

static void build_udp6(struct fb *b, uint16_t dport)
{
    b->n = 0;
    eth(b, 0x86dd);
    uint32_t ip = ipv6_begin(b, 17, 1, 2);
    uint32_t u = udp_begin(b, 5353, dport);
    putn(b, "abcdefgh", 8);
    udp_end(b, u, ip);
    ipv6_end(b, ip);
}

static void test_names_and_defaults(void)
{
    for (int k = 0; k < MON_L__COUNT; k++)
        CHECK(strcmp(mon_layer_name(k), "unknown") != 0);
    for (int k = 0; k < MON_T__COUNT; k++)
        CHECK(strcmp(mon_tunnel_name(k), "unknown") != 0);
    for (int e = 0; e < MON_DE__COUNT; e++) {
        CHECK(strchr(mon_decode_event_name(e), '.') != NULL);
        for (int e2 = 0; e2 < e; e2++)
            CHECK(strcmp(mon_decode_event_name(e), mon_decode_event_name(e2)) != 0);
    }
    CHECK(strcmp(mon_layer_name(MON_L_ETH), "ethernet") == 0);
    CHECK(strcmp(mon_layer_name(MON_L_IPV6_EXT), "ipv6_ext") == 0);
    CHECK(strcmp(mon_layer_name(MON_L_OTHER), "other") == 0);
    CHECK(strcmp(mon_tunnel_name(MON_T_IPIP), "ipip") == 0);
    CHECK(strcmp(mon_tunnel_name(MON_T_TEREDO), "teredo") == 0);
    CHECK(strcmp(mon_decode_event_name(MON_DE_IPV4_TOTLEN_OVER_CAPLEN), "ipv4.trunc_pkt") == 0);
    CHECK(strcmp(mon_decode_event_name(MON_DE_LAYERS_TOO_MANY), "decoder.too_many_layers") == 0);
    CHECK(strcmp(mon_decode_outcome_name(MON_DEC_FRAG_HELD), "frag_held") == 0);
    CHECK(strcmp(mon_decode_outcome_name(MON_DEC_NON_IP), "non_ip") == 0);

    struct mon_decode_cfg cfg;
    mon_decode_cfg_defaults(&cfg);
    CHECK_EQ(cfg.checksum_mode, MON_CSUM_AUTO);
    CHECK(cfg.vxlan_enabled && cfg.vxlan_ports[0] == 4789 && cfg.vxlan_ports[1] == 0);
    CHECK(cfg.geneve_enabled && cfg.geneve_ports[0] == 6081);
    CHECK(cfg.teredo_enabled && cfg.teredo_ports[0] == 3544);
    CHECK(cfg.gtpu_enabled && cfg.gtpu_ports[0] == 2152);
    CHECK(cfg.gre_udp_enabled && cfg.gre_udp_ports[0] == 4754);
    CHECK(cfg.mpls_udp_enabled && cfg.mpls_udp_ports[0] == 6635);
    CHECK_EQ(cfg.max_tunnel_depth, 8);

    static const int ok[] = {0, 1, 9, 10, 12, 14, 50, 51, 101, 104, 108, 113, 228, 229, 239, 276};
    for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
        CHECK(mon_decode_linktype_supported(ok[i]));
    CHECK(!mon_decode_linktype_supported(105));  /* 802.11 */
    CHECK(!mon_decode_linktype_supported(-1));
}

static void test_tcp4(void)
{
    build_tcp4(&f);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_TCP);
    CHECK_EQ(p.anomaly, 0);
    CHECK_EQ(p.ipver, 4);
    CHECK_EQ(p.proto, 6);
    CHECK_EQ(p.ttl, 64);
    CHECK(memcmp(p.src.b, "\x0a\x00\x00\x01", 4) == 0 && p.src.b[4] == 0);
    CHECK(memcmp(p.dst.b, "\x0a\x00\x00\x02", 4) == 0);
    CHECK_EQ(p.sport, 1234);
    CHECK_EQ(p.dport, 80);
    CHECK_EQ(p.tcp_seq, 1000);
    CHECK_EQ(p.tcp_ack, 2000);
    CHECK_EQ(p.tcp_win, 8192);
    CHECK_EQ(p.tcp_flags, MON_TH_SYN);
    CHECK_EQ(p.tcp_mss, 1460);
    CHECK_EQ(p.tcp_wscale, 7);
    CHECK_EQ(p.tcp_tsval, 1);
    CHECK_EQ(p.tcp_tsecr, 2);
    CHECK(p.flags & MON_PKT_TCP_HAS_TS);
    CHECK(p.flags & MON_PKT_TCP_SACKOK);
    CHECK(p.flags & MON_PKT_HAS_L4);
    CHECK(!(p.flags & (MON_PKT_BAD_IP_CSUM | MON_PKT_BAD_L4_CSUM)));
    CHECK(p.l3 == f.b + 14);
    CHECK_EQ(p.l3_len, 20 + 20 + sizeof(tcp_opts) + 5);
    CHECK(p.l4 == f.b + 34);
    CHECK_EQ(p.l4_len, 20 + sizeof(tcp_opts) + 5);
    CHECK_EQ(p.payload_len, 5);
    CHECK(p.payload && memcmp(p.payload, "hello", 5) == 0);
    CHECK_EQ(p.layer[2].len, 20 + sizeof(tcp_opts));
    CHECK_EQ(d.stats.pkts, 1);
    CHECK_EQ(d.stats.bytes, f.n);
    CHECK_EQ(d.stats.outcome[MON_DEC_IP], 1);
    CHECK_EQ(d.stats.layer[MON_L_TCP], 1);
    CHECK_EQ(d.stats.layer[MON_L_IPV4], 1);
    CHECK_EQ(total_events(&d), 0);

    /* Same frame, ACK only: SACK-permitted only counts on a SYN. */
    f.b[14 + 20 + 13] = MON_TH_ACK;
    decode_fb(&d, &p, &f, 1);
    CHECK(!(p.flags & MON_PKT_TCP_SACKOK));
    CHECK(p.flags & MON_PKT_BAD_L4_CSUM);  /* flags changed, checksum did not */
}

static void test_padding_and_udp6(void)
{
    /* Ethernet pads short frames: bytes past the IP total length are not the datagram's. */
    f.n = 0;
    eth(&f, 0x0800);
    uint32_t ip = ipv4_begin(&f, 17, 1, 2);
    uint32_t u = udp_begin(&f, 53, 53);
    putn(&f, "ab", 2);
    udp_end(&f, u, ip);
    ipv4_end(&f, ip);
    zeros(&f, 60 - f.n);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.l3_len, 30);
    CHECK_EQ(p.payload_len, 2);
    CHECK_EQ(total_events(&d), 0);

    build_udp6(&f, 53);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV6, MON_L_UDP);
    CHECK_EQ(p.ipver, 6);
    CHECK_EQ(p.proto, 17);
    CHECK_EQ(p.sport, 5353);
    CHECK_EQ(p.dport, 53);
    CHECK_EQ(p.payload_len, 8);
    CHECK_EQ(p.src.b[0], 0x20);
    CHECK_EQ(p.src.b[15], 1);
    CHECK_EQ(p.dst.b[15], 2);
    CHECK_EQ(total_events(&d), 0);
}

static void test_vlan(void)
{
    f.n = 0;
    eth(&f, 0x88a8);
    vlan(&f, 0x2000 | 10, 0x8100);
    vlan(&f, 20, 0x8100);
    vlan(&f, 30, 0x0800);
    uint32_t ip = ipv4_begin(&f, 17, 1, 2);
    uint32_t u = udp_begin(&f, 1, 2);
    udp_end(&f, u, ip);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_VLAN, MON_L_VLAN, MON_L_VLAN, MON_L_IPV4, MON_L_UDP);
    CHECK_EQ(p.nvlan, 3);
    CHECK_EQ(p.vlan[0], 10);  /* priority bits are not part of the ID */
    CHECK_EQ(p.vlan[1], 20);
    CHECK_EQ(p.vlan[2], 30);
    CHECK_EQ(p.ntunnels, 1);
    CHECK_EQ(p.tunnel[0], MON_T_VLAN);

    f.n = 0;
    eth(&f, 0x8100);
    for (int i = 0; i < 4; i++)
        vlan(&f, (uint16_t)(i + 1), i < 3 ? 0x8100 : 0x0800);
    zeros(&f, 20);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_VLAN_TOO_MANY);

    f.n = 0;
    eth(&f, 0x8100);
    put16(&f, 5);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_VLAN_TRUNCATED);

    /* ARP is valid non-IP; unknown ethertypes too. */
    f.n = 0;
    eth(&f, 0x0806);
    zeros(&f, 28);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_NON_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_ARP);
    f.n = 0;
    eth(&f, 0x88cc);  /* LLDP */
    zeros(&f, 30);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_NON_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_OTHER);
    CHECK_EQ(total_events(&d), 0);
}

/* Put an IPv4/UDP datagram after whatever link header f already has. */
static void add_udp4(struct fb *b)
{
    uint32_t ip = ipv4_begin(b, 17, 1, 2);
    uint32_t u = udp_begin(b, 1000, 2000);
    putn(b, "xyz", 3);
    udp_end(b, u, ip);
    ipv4_end(b, ip);
}
static void add_udp6(struct fb *b)
{
    uint32_t ip = ipv6_begin(b, 17, 1, 2);
    uint32_t u = udp_begin(b, 1000, 2000);
    putn(b, "xyz", 3);
    udp_end(b, u, ip);
    ipv6_end(b, ip);
}

static void expect_udp(int linktype, enum mon_layer_kind link, int ipver, int line)
{
    enum mon_decode_outcome o = decode_fb(&d, &p, &f, linktype);
    if (o != MON_DEC_IP || p.ipver != ipver || p.dport != 2000 || p.payload_len != 3 ||
        p.nlayers < 3 || p.layer[0].kind != link || total_events(&d) != 0) {
        fprintf(stderr, "%s:%d: linktype %d decoded as %s\n", __FILE__, line, linktype,
                mon_decode_outcome_name(o));
        dump_layers(&p);
        failures++;
    }
}

static void test_link_types(void)
{
    /* Raw IP, every spelling. */
    static const int raw[] = {12, 14, 101};
    for (unsigned i = 0; i < 3; i++) {
        f.n = 0;
        add_udp4(&f);
        CHECK_EQ(decode_fb(&d, &p, &f, raw[i]), MON_DEC_IP);
        CHECK_LAYERS(&p, MON_L_IPV4, MON_L_UDP);
        f.n = 0;
        add_udp6(&f);
        CHECK_EQ(decode_fb(&d, &p, &f, raw[i]), MON_DEC_IP);
        CHECK_LAYERS(&p, MON_L_IPV6, MON_L_UDP);
    }
    f.n = 0;
    add_udp4(&f);
    zeros(&f, 20);  /* trailing padding, so the IPv6 decoder gets to the version */
    CHECK_EQ(decode_fb(&d, &p, &f, 228), MON_DEC_IP);
    CHECK_EQ(decode_fb(&d, &p, &f, 229), MON_DEC_INVALID);  /* DLT_IPV6 holding IPv4 */
    CHECK_ANOMALY(&d, &p, MON_DE_IPV6_BAD_VERSION);
    f.b[0] = 0x75;
    CHECK_EQ(decode_fb(&d, &p, &f, 12), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_IPRAW_BAD_VERSION);
    f.n = 0;
    CHECK_EQ(decode_fb(&d, &p, &f, 12), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_LINK_TRUNCATED);
    f.n = 0;
    add_udp6(&f);
    CHECK_EQ(decode_fb(&d, &p, &f, 229), MON_DEC_IP);

    /* NULL and LOOP: AF in either byte order, every OS's AF_INET6. */
    static const uint32_t afs6[] = {10, 23, 24, 28, 30};
    for (int lt = 0; lt <= 108; lt += 108) {
        for (int le = 0; le < 2; le++) {
            f.n = 0;
            if (le) { put8(&f, 2); zeros(&f, 3); } else put32(&f, 2);
            add_udp4(&f);
            expect_udp(lt, MON_L_NULL, 4, __LINE__);
            for (unsigned i = 0; i < 5; i++) {
                f.n = 0;
                if (le) { put8(&f, (uint8_t)afs6[i]); zeros(&f, 3); } else put32(&f, afs6[i]);
                add_udp6(&f);
                expect_udp(lt, MON_L_NULL, 6, __LINE__);
            }
        }
    }
    f.n = 0;
    put32(&f, 7);  /* AF_UNIX-ish: not IP */
    zeros(&f, 10);
    CHECK_EQ(decode_fb(&d, &p, &f, 0), MON_DEC_NON_IP);
    f.n = 0;
    put16(&f, 0);
    CHECK_EQ(decode_fb(&d, &p, &f, 0), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_LINK_TRUNCATED);

    /* Linux cooked v1 and v2. */
    f.n = 0;
    put16(&f, 0); put16(&f, 1); put16(&f, 6); zeros(&f, 8); put16(&f, 0x0800);
    add_udp4(&f);
    expect_udp(113, MON_L_SLL, 4, __LINE__);
    f.n = 0;
    put16(&f, 0x86dd); put16(&f, 0); put32(&f, 3); put16(&f, 1); put8(&f, 0); put8(&f, 6);
    zeros(&f, 8);
    add_udp6(&f);
    expect_udp(276, MON_L_SLL2, 6, __LINE__);
    f.n = 10;
    CHECK_EQ(decode_fb(&d, &p, &f, 276), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_LINK_TRUNCATED);

    /* PPP: with address/control, without (ACFC), with a 1-byte protocol (PFC). */
    f.n = 0;
    put8(&f, 0xff); put8(&f, 0x03); put16(&f, 0x0021);
    add_udp4(&f);
    expect_udp(9, MON_L_PPP, 4, __LINE__);
    expect_udp(50, MON_L_PPP, 4, __LINE__);
    f.n = 0;
    put16(&f, 0x0057);
    add_udp6(&f);
    expect_udp(9, MON_L_PPP, 6, __LINE__);
    f.n = 0;
    put8(&f, 0x21);
    add_udp4(&f);
    expect_udp(9, MON_L_PPP, 4, __LINE__);
    f.n = 0;
    put8(&f, 0xff); put8(&f, 0x03); put16(&f, 0xc021);  /* LCP */
    zeros(&f, 8);
    CHECK_EQ(decode_fb(&d, &p, &f, 9), MON_DEC_NON_IP);
    CHECK_EQ(total_events(&d), 0);
    f.n = 0;
    put8(&f, 0xff); put8(&f, 0x03); put16(&f, 0x002d);  /* VJ compressed TCP/IP */
    zeros(&f, 8);
    CHECK_EQ(decode_fb(&d, &p, &f, 9), MON_DEC_NON_IP);
    CHECK_ANOMALY(&d, &p, MON_DE_PPP_UNSUPPORTED);
    f.n = 0;
    put8(&f, 0xff); put8(&f, 0x03); put8(&f, 0x00);
    CHECK_EQ(decode_fb(&d, &p, &f, 9), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_PPP_TRUNCATED);

    /* Cisco HDLC, alone and on a PPP_SERIAL link. */
    f.n = 0;
    put8(&f, 0x0f); put8(&f, 0); put16(&f, 0x0800);
    add_udp4(&f);
    expect_udp(104, MON_L_CHDLC, 4, __LINE__);
    expect_udp(50, MON_L_CHDLC, 4, __LINE__);

    /* PPPoE without Ethernet. */
    f.n = 0;
    put8(&f, 0x11); put8(&f, 0); put16(&f, 1); put16(&f, 0);
    put16(&f, 0x0021);
    add_udp4(&f);
    set16(&f, 4, (uint16_t)(f.n - 6));
    expect_udp(51, MON_L_PPPOE, 4, __LINE__);

    /* FDDI with LLC/SNAP. */
    f.n = 0;
    put8(&f, 0x50); zeros(&f, 12);
    put8(&f, 0xaa); put8(&f, 0xaa); put8(&f, 3); zeros(&f, 3); put16(&f, 0x0800);
    add_udp4(&f);
    expect_udp(10, MON_L_FDDI, 4, __LINE__);

    /* NFLOG, TLVs in little- and big-endian order. */
    for (int be = 0; be < 2; be++) {
        f.n = 0;
        put8(&f, 2); put8(&f, 0); put16(&f, 0);
        /* NFULA_PACKET_HDR (1), 8 bytes */
        if (be) { put16(&f, 8); put16(&f, 1); } else { put8(&f, 8); put8(&f, 0); put8(&f, 1); put8(&f, 0); }
        put16(&f, 0x0800); put8(&f, 3); put8(&f, 0);
        uint32_t tl = f.n;
        if (be) { put16(&f, 0); put16(&f, 9); } else { put8(&f, 0); put8(&f, 0); put8(&f, 9); put8(&f, 0); }
        add_udp4(&f);
        uint16_t len = (uint16_t)(f.n - tl);
        if (be) set16(&f, tl, len); else { f.b[tl] = (uint8_t)len; f.b[tl + 1] = (uint8_t)(len >> 8); }
        while (f.n % 4) put8(&f, 0);
        expect_udp(239, MON_L_NFLOG, 4, __LINE__);
    }
    f.n = 0;
    put8(&f, 2); put8(&f, 0); put16(&f, 0);
    put8(&f, 200); put8(&f, 0); put8(&f, 9); put8(&f, 0);  /* TLV longer than the frame */
    zeros(&f, 20);
    CHECK_EQ(decode_fb(&d, &p, &f, 239), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_NFLOG_MALFORMED);

    /* 802.3 + SNAP carries IP; plain LLC (STP) does not. */
    f.n = 0;
    eth(&f, 0);
    put8(&f, 0xaa); put8(&f, 0xaa); put8(&f, 3); zeros(&f, 3); put16(&f, 0x0800);
    add_udp4(&f);
    set16(&f, 12, (uint16_t)(f.n - 14));
    expect_udp(1, MON_L_ETH, 4, __LINE__);
    f.n = 0;
    eth(&f, 38);
    put8(&f, 0x42); put8(&f, 0x42); put8(&f, 3); zeros(&f, 35);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_NON_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_OTHER);

    /* Unsupported link type: one anomaly, nothing decoded. */
    f.n = 0;
    add_udp4(&f);
    CHECK_EQ(decode_fb(&d, &p, &f, 105), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_LINK_UNSUPPORTED);
    CHECK_EQ(p.nlayers, 0);
    f.n = 13;
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_ETH_TRUNCATED);
}

static void test_icmp(void)
{
    f.n = 0;
    eth(&f, 0x0800);
    uint32_t ip = ipv4_begin(&f, 1, 1, 2);
    uint32_t ic = icmp_begin(&f, 8, 0, 0x1234);
    putn(&f, "pingdata", 8);
    icmp_end(&f, ic, ip, false);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_ICMP);
    CHECK_EQ(p.icmp_type, 8);
    CHECK_EQ(p.icmp_code, 0);
    CHECK_EQ(p.icmp_id, 0x1234);
    CHECK_EQ(p.payload_len, 8);
    CHECK(p.flags & MON_PKT_HAS_L4);
    CHECK_EQ(total_events(&d), 0);
    f.b[ic + 2] ^= 1;
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_ANOMALY(&d, &p, MON_DE_ICMPV4_BAD_CSUM);
    CHECK(p.flags & MON_PKT_BAD_L4_CSUM);

    /* Destination unreachable has no id. */
    f.n = 0;
    eth(&f, 0x0800);
    ip = ipv4_begin(&f, 1, 1, 2);
    ic = icmp_begin(&f, 3, 3, 0x5555);
    icmp_end(&f, ic, ip, false);
    ipv4_end(&f, ip);
    decode_fb(&d, &p, &f, 1);
    CHECK_EQ(p.icmp_type, 3);
    CHECK_EQ(p.icmp_code, 3);
    CHECK_EQ(p.icmp_id, 0);

    f.n = 0;
    eth(&f, 0x86dd);
    ip = ipv6_begin(&f, 58, 1, 2);
    ic = icmp_begin(&f, 128, 0, 0x4321);
    icmp_end(&f, ic, ip, true);
    ipv6_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV6, MON_L_ICMPV6);
    CHECK_EQ(p.icmp_type, 128);
    CHECK_EQ(p.icmp_id, 0x4321);
    CHECK_EQ(total_events(&d), 0);
    f.b[ic + 3] ^= 1;
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_ANOMALY(&d, &p, MON_DE_ICMPV6_BAD_CSUM);

    f.n -= 2;  /* 6 bytes of ICMPv6 */
    ipv6_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_ICMPV6_TRUNCATED);
}

static void test_checksums(void)
{
    struct mon_decode_cfg cfg;
    mon_decode_cfg_defaults(&cfg);

    /* Bad IPv4 header checksum: counted, flagged, decoding goes on. */
    build_tcp4(&f);
    f.b[14 + 10] ^= 0xff;
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_ANOMALY(&d, &p, MON_DE_IPV4_BAD_CSUM);
    CHECK(p.flags & MON_PKT_BAD_IP_CSUM);
    CHECK(!(p.flags & MON_PKT_BAD_L4_CSUM));
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4, MON_L_TCP);

    build_tcp4(&f);
    f.b[f.n - 1] ^= 1;
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_ANOMALY(&d, &p, MON_DE_TCP_BAD_CSUM);
    CHECK(p.flags & MON_PKT_BAD_L4_CSUM);

    /* NONE validates nothing. */
    cfg.checksum_mode = MON_CSUM_NONE;
    mon_decoder_init(&d, &cfg, NULL);
    packet_init(&p, &f, 1);
    CHECK_EQ(mon_decode(&d, &p), MON_DEC_IP);
    CHECK_EQ(total_events(&d), 0);
    CHECK_EQ(p.flags & (MON_PKT_BAD_L4_CSUM | MON_PKT_BAD_IP_CSUM), 0);

    /* UDP checksum 0: "none" over IPv4, invalid over IPv6. */
    f.n = 0;
    eth(&f, 0x0800);
    add_udp4(&f);
    set16(&f, 14 + 20 + 6, 0);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(total_events(&d), 0);
    f.b[f.n - 1] ^= 1;
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(total_events(&d), 0);
    build_udp6(&f, 53);
    set16(&f, 14 + 40 + 6, 0);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_ANOMALY(&d, &p, MON_DE_UDP_BAD_CSUM);
    build_udp6(&f, 53);
    f.b[f.n - 1] ^= 1;
    decode_fb(&d, &p, &f, 1);
    CHECK_ANOMALY(&d, &p, MON_DE_UDP_BAD_CSUM);

    /* AUTO: more than 10% bad in the first 1000 checksummed frames switches it off. */
    static struct fb good, bad;
    build_tcp4(&good);
    build_tcp4(&bad);
    bad.b[bad.n - 1] ^= 1;
    cfg.checksum_mode = MON_CSUM_AUTO;
    mon_decoder_init(&d, &cfg, NULL);
    for (int i = 0; i < 1000; i++) {
        packet_init(&p, i % 5 == 0 ? &bad : &good, 1);  /* 20% bad */
        mon_decode(&d, &p);
    }
    CHECK_EQ(d.stats.event[MON_DE_TCP_BAD_CSUM], 200);
    CHECK(!d.csum_validate);
    packet_init(&p, &bad, 1);
    CHECK_EQ(mon_decode(&d, &p), MON_DEC_IP);
    CHECK_EQ(d.stats.event[MON_DE_TCP_BAD_CSUM], 200);
    CHECK_EQ(p.anomaly, 0);

    mon_decoder_init(&d, &cfg, NULL);
    for (int i = 0; i < 2000; i++) {
        packet_init(&p, i % 20 == 0 ? &bad : &good, 1);  /* 5% bad */
        mon_decode(&d, &p);
    }
    CHECK(d.csum_validate);
    CHECK_EQ(d.stats.event[MON_DE_TCP_BAD_CSUM], 100);

    /* ALL never gives up. */
    cfg.checksum_mode = MON_CSUM_ALL;
    mon_decoder_init(&d, &cfg, NULL);
    for (int i = 0; i < 1500; i++) {
        packet_init(&p, &bad, 1);
        mon_decode(&d, &p);
    }
    CHECK_EQ(d.stats.event[MON_DE_TCP_BAD_CSUM], 1500);
}

static void test_ipv4_malformed(void)
{
    /* Each malformed variant: exactly its own anomaly, outcome invalid. */
    struct { uint32_t off; uint8_t val; int ev; } cases[] = {
        {14 + 0, 0x55, MON_DE_IPV4_BAD_VERSION},
        {14 + 0, 0x44, MON_DE_IPV4_BAD_HLEN},
        {14 + 3, 10, MON_DE_IPV4_BAD_TOTLEN},       /* total length 10 < 20 */
        {14 + 2, 0x7f, MON_DE_IPV4_TOTLEN_OVER_CAPLEN},
        {14 + 20 + 12, 0x40, MON_DE_TCP_BAD_HLEN},  /* data offset 4 */
        {14 + 20 + 12, 0xf0, MON_DE_TCP_TRUNCATED}, /* data offset 60 > segment */
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        build_tcp4(&f);
        if (cases[i].off == 14 + 3)
            f.b[14 + 2] = 0;
        f.b[cases[i].off] = cases[i].val;
        CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
        CHECK_ANOMALY(&d, &p, cases[i].ev);
    }
    /* a bad TCP option length is noted; the segment still decodes, its options not taken */
    build_tcp4(&f);
    f.b[14 + 20 + 21] = 5; /* MSS option length 5 (the checksum is then wrong too) */
    uint64_t opt_bad = d.stats.event[MON_DE_TCP_OPT_INVALID];
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(d.stats.event[MON_DE_TCP_OPT_INVALID], opt_bad + 1);
    CHECK(p.flags & MON_PKT_HAS_L4);
    CHECK_EQ(p.tcp_mss, 0);
    f.n = 0;
    eth(&f, 0x0800);
    zeros(&f, 19);
    f.b[14] = 0x45;
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_IPV4_TRUNCATED);

    /* Options: a valid record route, then broken ones. */
    static const uint8_t rr_ok[] = {7, 7, 4, 0, 0, 0, 0, 0};       /* RR, 1 slot, EOL */
    static const uint8_t rr_len[] = {7, 6, 4, 0, 0, 0, 0, 0};      /* not 3 + 4n */
    static const uint8_t over[] = {1, 1, 0x44, 12, 5, 0, 0, 0};    /* TS runs past */
    static const uint8_t rtralt[] = {148, 3, 0, 0};                /* router alert len 3 */
    const struct { const uint8_t *o; uint32_t n; int ev; } opts[] = {
        {rr_ok, 8, -1}, {rr_len, 8, MON_DE_IPV4_OPT_INVALID_LEN},
        {over, 8, MON_DE_IPV4_OPT_INVALID_LEN}, {rtralt, 4, MON_DE_IPV4_OPT_INVALID_LEN},
    };
    for (unsigned i = 0; i < 4; i++) {
        f.n = 0;
        eth(&f, 0x0800);
        uint32_t ip = ipv4_begin(&f, 17, 1, 2);
        putn(&f, opts[i].o, opts[i].n);
        f.b[ip] = (uint8_t)(0x40 | (20 + opts[i].n) / 4);
        uint32_t u = udp_begin(&f, 7, 7);
        udp_end(&f, u, ip);
        ipv4_end(&f, ip);
        enum mon_decode_outcome o = decode_fb(&d, &p, &f, 1);
        if (opts[i].ev < 0) {
            CHECK_EQ(o, MON_DEC_IP);
            CHECK_EQ(total_events(&d), 0);
            CHECK_EQ(p.layer[1].len, 28);
        } else {
            CHECK_EQ(o, MON_DEC_INVALID);
            CHECK_ANOMALY(&d, &p, opts[i].ev);
        }
    }

    /* UDP length fields. */
    f.n = 0;
    eth(&f, 0x0800);
    add_udp4(&f);
    set16(&f, 14 + 20 + 4, 7);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_UDP_BAD_LEN);
    set16(&f, 14 + 20 + 4, 12);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_UDP_BAD_LEN);
    f.n = 0;
    eth(&f, 0x0800);
    uint32_t ip = ipv4_begin(&f, 17, 1, 2);
    zeros(&f, 7);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_UDP_TRUNCATED);
}

static void test_fragments_without_defrag(void)
{
    f.n = 0;
    eth(&f, 0x0800);
    uint32_t ip = ipv4_begin(&f, 17, 1, 2);
    set16(&f, ip + 6, 0x2000);  /* MF, offset 0 */
    uint32_t u = udp_begin(&f, 1, 2);
    zeros(&f, 16);
    udp_end(&f, u, ip);  /* would claim 24 bytes: irrelevant for a fragment */
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK(p.flags & MON_PKT_FRAGMENT);
    CHECK(!(p.flags & MON_PKT_HAS_L4));
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV4);
    CHECK_EQ(p.proto, 17);
    CHECK_EQ(p.payload_len, 24);
    CHECK_EQ(total_events(&d), 0);
    /* Breaking the "UDP header" of a fragment is not noticed: it is not decoded. */
    set16(&f, u + 4, 3);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(total_events(&d), 0);

    /* IPv6 fragment header. */
    f.n = 0;
    eth(&f, 0x86dd);
    ip = ipv6_begin(&f, 44, 1, 2);
    put8(&f, 17); put8(&f, 0); put16(&f, 0x0001); put32(&f, 0xabcd);  /* offset 0, M */
    zeros(&f, 16);
    ipv6_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK(p.flags & MON_PKT_FRAGMENT);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV6, MON_L_IPV6_EXT);
    CHECK_EQ(p.proto, 17);
    CHECK_EQ(p.payload_len, 16);

    /* Atomic fragment (offset 0, no M): a whole datagram, transport decoded. */
    f.n = 0;
    eth(&f, 0x86dd);
    ip = ipv6_begin(&f, 44, 1, 2);
    put8(&f, 17); put8(&f, 0); put16(&f, 0); put32(&f, 0xabcd);
    u = udp_begin(&f, 9, 10);
    udp_end(&f, u, ip);
    ipv6_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK(!(p.flags & MON_PKT_FRAGMENT));
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV6, MON_L_IPV6_EXT, MON_L_UDP);
    CHECK_EQ(p.dport, 10);
    CHECK_EQ(total_events(&d), 0);
}

static void test_ipv6_ext(void)
{
    /* hop-by-hop (PadN), routing, destination options, UDP. */
    f.n = 0;
    eth(&f, 0x86dd);
    uint32_t ip = ipv6_begin(&f, 0, 1, 2);
    put8(&f, 43); put8(&f, 0); put8(&f, 1); put8(&f, 4); zeros(&f, 4);
    put8(&f, 60); put8(&f, 0); put8(&f, 0); put8(&f, 0); zeros(&f, 4);  /* type 0, 0 left */
    put8(&f, 17); put8(&f, 0); put8(&f, 0); put8(&f, 0); put8(&f, 0); put8(&f, 0); put8(&f, 0); put8(&f, 0);
    uint32_t u = udp_begin(&f, 1, 2);
    udp_end(&f, u, ip);
    ipv6_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV6, MON_L_IPV6_EXT, MON_L_IPV6_EXT, MON_L_IPV6_EXT,
                 MON_L_UDP);
    CHECK_EQ(p.proto, 17);
    CHECK_EQ(total_events(&d), 0);
    CHECK_EQ(d.stats.layer[MON_L_IPV6_EXT], 3);

    /* Option overrunning its header. */
    f.b[ip + 40 + 3] = 5;
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_IPV6_EXTHDR_BAD_OPTLEN);
    f.b[ip + 40 + 3] = 4;
    /* Extension header longer than the payload. */
    f.b[ip + 48 + 1] = 9;
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_IPV6_EXTHDR_TRUNCATED);

    /* Payload length past the capture; zero payload length: an empty datagram, whose UDP
     * header is then missing (as Suricata reports it). */
    build_udp6(&f, 53);
    set16(&f, 14 + 4, 400);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_IPV6_PLEN_OVER_CAPLEN);
    set16(&f, 14 + 4, 0);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_UDP_TRUNCATED);
    f.n = 10;
    CHECK_EQ(decode_fb(&d, &p, &f, 229), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_IPV6_TRUNCATED);

    /* Nine destination options headers: too many. */
    f.n = 0;
    eth(&f, 0x86dd);
    ip = ipv6_begin(&f, 60, 1, 2);
    for (int i = 0; i < 9; i++) {
        put8(&f, i < 8 ? 60 : 59); put8(&f, 0); put8(&f, 1); put8(&f, 4); zeros(&f, 4);
    }
    ipv6_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_IPV6_EXTHDR_TOO_MANY);

    /* ESP: no transport header to see. */
    f.n = 0;
    eth(&f, 0x86dd);
    ip = ipv6_begin(&f, 50, 1, 2);
    put32(&f, 0x1000); put32(&f, 1); zeros(&f, 24);
    ipv6_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV6);
    CHECK_EQ(p.proto, 50);
    CHECK(!(p.flags & MON_PKT_HAS_L4));
    CHECK_EQ(p.payload_len, 32);

    /* AH (length in 4-byte words - 2) then TCP. */
    f.n = 0;
    eth(&f, 0x86dd);
    ip = ipv6_begin(&f, 51, 1, 2);
    put8(&f, 6); put8(&f, 4); put16(&f, 0); put32(&f, 1); put32(&f, 2); zeros(&f, 12);
    uint32_t t = tcp_begin(&f, 22, 2222, MON_TH_ACK, NULL, 0);
    tcp_end(&f, t, ip);
    ipv6_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV6, MON_L_IPV6_EXT, MON_L_TCP);
    CHECK_EQ(p.layer[2].len, 24);
    CHECK_EQ(p.sport, 22);
}

static void test_jumbogram(void)
{
    uint32_t jlen = 70000 - 14 - 40 - 8;
    f.n = 0;
    eth(&f, 0x86dd);
    uint32_t ip = ipv6_begin(&f, 0, 1, 2);
    put8(&f, 17); put8(&f, 0); put8(&f, 0xc2); put8(&f, 4); put32(&f, jlen);
    uint32_t u = udp_begin(&f, 1, 2);
    zeros(&f, jlen - 16);
    set16(&f, u + 4, 0);  /* UDP length 0: use the IP payload length */
    CHECK_EQ(f.n, 14 + 40 + jlen);
    /* UDP checksum 0 over IPv6 is wrong, but only a checksum anomaly. */
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_ANOMALY(&d, &p, MON_DE_UDP_BAD_CSUM);
    struct mon_decode_cfg cfg;
    mon_decode_cfg_defaults(&cfg);
    cfg.checksum_mode = MON_CSUM_NONE;
    mon_decoder_init(&d, &cfg, NULL);
    packet_init(&p, &f, 1);
    CHECK_EQ(mon_decode(&d, &p), MON_DEC_IP);
    CHECK_LAYERS(&p, MON_L_ETH, MON_L_IPV6, MON_L_IPV6_EXT, MON_L_UDP);
    CHECK_EQ(p.l3_len, 40 + jlen);
    CHECK_EQ(p.payload_len, jlen - 16);
    CHECK_EQ(total_events(&d), 0);

    /* A jumbo option with a non-zero payload length, or one that fits 16 bits, is bad. */
    set16(&f, ip + 4, 8);
    f.n = 14 + 48;
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_IPV6_BAD_JUMBO);
    set16(&f, ip + 4, 0);
    f.b[ip + 44] = 0; f.b[ip + 45] = 0; f.b[ip + 46] = 0x10; f.b[ip + 47] = 0;
    f.n = 14 + 48 + 0x1000;
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_INVALID);
    CHECK_ANOMALY(&d, &p, MON_DE_IPV6_BAD_JUMBO);
}

/* ---- robustness: every prefix and random corruption of complex frames --------------- */

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* Decode a copy of exactly len bytes on the heap, so ASan sees any over-read. */
static enum mon_decode_outcome decode_exact(const uint8_t *frame, uint32_t len, int linktype,
                                            uint8_t csum_mode)
{
    uint8_t *copy = malloc(len ? len : 1);
    memcpy(copy, frame, len);
    struct mon_decode_cfg cfg;
    mon_decode_cfg_defaults(&cfg);
    cfg.checksum_mode = csum_mode;
    mon_decoder_init(&d, &cfg, NULL);
    memset(&p, 0, sizeof(p));
    p.frame = copy;
    p.caplen = p.wirelen = len;
    p.linktype = linktype;
    enum mon_decode_outcome o = mon_decode(&d, &p);
    for (unsigned i = 0; i < p.nlayers; i++)
        CHECK(p.layer[i].hdr >= copy && p.layer[i].hdr + p.layer[i].len <= copy + len);
    if (p.payload)
        CHECK(p.payload >= copy && p.payload + p.payload_len <= copy + len);
    free(copy);
    return o;
}

static void build_corpus_frame(struct fb *b, int which)
{
    b->n = 0;
    eth(b, 0x8100);
    vlan(b, 7, which == 0 ? 0x0800 : 0x86dd);
    uint32_t ip = which == 0 ? ipv4_begin(b, 17, 1, 2) : ipv6_begin(b, 0, 1, 2);
    if (which == 1) {
        put8(b, 17); put8(b, 0); put8(b, 1); put8(b, 4); zeros(b, 4);
    }
    uint32_t u = udp_begin(b, 1, 4789);
    put8(b, 0x08); zeros(b, 3); put32(b, 0x000100);  /* VXLAN */
    eth(b, 0x0800);
    uint32_t ip2 = ipv4_begin(b, 47, 3, 4);
    put16(b, 0x3000); put16(b, 0x0800); put32(b, 9); put32(b, 1);  /* GRE key+seq */
    uint32_t ip3 = ipv4_begin(b, 6, 5, 6);
    uint32_t t = tcp_begin(b, 1, 2, MON_TH_SYN, tcp_opts, sizeof(tcp_opts));
    putn(b, "data", 4);
    tcp_end(b, t, ip3);
    ipv4_end(b, ip3);
    ipv4_end(b, ip2);
    udp_end(b, u, ip);
    if (which == 0)
        ipv4_end(b, ip);
    else
        ipv6_end(b, ip);
}

static void test_robustness(void)
{
    static struct fb frame;
    for (int which = 0; which < 2; which++) {
        build_corpus_frame(&frame, which);
        CHECK_EQ(decode_exact(frame.b, frame.n, 1, MON_CSUM_ALL), MON_DEC_IP);
        CHECK_EQ(total_events(&d), 0);
        CHECK_EQ(p.ntunnels, 3);  /* vlan, vxlan, gre */
        CHECK_EQ(p.ipver, 4);
        CHECK_EQ(p.dst.b[3], 6);
        CHECK_EQ(p.payload_len, 4);
        /* Every shorter capture: invalid with exactly one anomaly. */
        for (uint32_t n = 0; n < frame.n; n++) {
            enum mon_decode_outcome o = decode_exact(frame.b, n, 1, MON_CSUM_NONE);
            if (o != MON_DEC_INVALID || total_events(&d) != 1 || p.anomaly == 0) {
                fprintf(stderr, "prefix %u of frame %d: %s, %llu events\n", n, which,
                        mon_decode_outcome_name(o), (unsigned long long)total_events(&d));
                failures++;
            }
        }
        /* Random corruption: never more than one anomaly without checksums, and an
         * invalid outcome always names one. */
        static uint8_t mut[4096];
        for (int iter = 0; iter < 20000; iter++) {
            memcpy(mut, frame.b, frame.n);
            int flips = 1 + (int)(rnd() % 4);
            for (int k = 0; k < flips; k++)
                mut[rnd() % frame.n] = (uint8_t)rnd();
            uint32_t n = frame.n - (rnd() % 8 == 0 ? rnd() % frame.n : 0);
            int lt = rnd() % 16 == 0 ? (int)(rnd() % 300) : 1;
            enum mon_decode_outcome o = decode_exact(mut, n, lt, MON_CSUM_NONE);
            uint64_t ev = total_events(&d);
            if (ev > 1 || (o == MON_DEC_INVALID && (ev != 1 || p.anomaly == 0))) {
                fprintf(stderr, "mutation %d: %s with %llu events\n", iter,
                        mon_decode_outcome_name(o), (unsigned long long)ev);
                failures++;
                break;
            }
            CHECK_EQ(d.stats.pkts, 1);
            decode_exact(mut, n, lt, MON_CSUM_ALL);  /* checksums over garbage, too */
        }
    }
}

int main(void)
{
    test_names_and_defaults();
    test_tcp4();
    test_padding_and_udp6();
    test_vlan();
    test_link_types();
    test_icmp();
    test_checksums();
    test_ipv4_malformed();
    test_fragments_without_defrag();
    test_ipv6_ext();
    test_jumbogram();
    test_robustness();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("test_decode_basic: all checks passed\n");
    return 0;
}
