/* test_pktunits.c — compile/pkt_units.c on hand-made packets: the header buffers' bounds
 * (truncated and malformed headers give none), the TCP option walk of tcp.mss / tcp.wscale,
 * vlan.id's layers, flow.age's whole seconds, and the header protocols. */
#include <string.h>

#include "buffers.h"
#include "opt_args.h"
#include "pkt_units.h"
#include "unit.h"

static const struct opt_pktprop *prop(uint8_t kind, uint8_t op, int64_t lo, int64_t hi)
{
    static struct opt_pktprop pp;
    memset(&pp, 0, sizeof pp);
    pp.kind = kind;
    pp.layer = PP_LAYER_ANY;
    pp.cmp.op = op;
    pp.cmp.lo = lo;
    pp.cmp.hi = hi;
    return &pp;
}

/* A packet over b[0..len): an IP header of l3 bytes (IHL set for IPv4), then the transport
 * header of proto. */
static void ip_packet(struct mon_packet *p, uint8_t ipver, uint8_t proto, uint8_t *b,
                      uint32_t len, uint32_t l3)
{
    memset(p, 0, sizeof *p);
    p->ipver = ipver;
    p->proto = proto;
    p->flags = MON_PKT_HAS_L4;
    p->l3 = b;
    p->l3_len = len;
    p->l4 = b + l3;
    p->l4_len = len - l3;
    if (ipver == 4)
        b[0] = (uint8_t)(0x40 | l3 / 4);
}

static void test_ipv4_and_tcp_hdr(void)
{
    uint8_t b[64] = {0};
    struct mon_packet p;
    uint32_t n;
    ip_packet(&p, 4, 6, b, 48, 24); /* 24-byte IP header, 24-byte TCP header */
    b[24 + 12] = 6 << 4;
    CHECK(det_hdr_buffer(&p, DOB_IPV4_HDR, &n) == b && n == 24);
    CHECK(det_hdr_buffer(&p, DOB_TCP_HDR, &n) == b + 24 && n == 24);
    CHECK(!det_hdr_buffer(&p, DOB_UDP_HDR, &n) && n == 0);
    CHECK(!det_hdr_buffer(&p, DOB_IPV6_HDR, &n));
    b[24 + 12] = 7 << 4; /* data offset past the captured bytes */
    CHECK(!det_hdr_buffer(&p, DOB_TCP_HDR, &n) && n == 0);
    b[24 + 12] = 4 << 4; /* shorter than the fixed header */
    CHECK(!det_hdr_buffer(&p, DOB_TCP_HDR, &n));
    b[0] = 0x4f;         /* IHL 15: 60 bytes, more than the 48 captured */
    CHECK(!det_hdr_buffer(&p, DOB_IPV4_HDR, &n) && n == 0);
    b[0] = 0x44;         /* IHL 4: shorter than 20 */
    CHECK(!det_hdr_buffer(&p, DOB_IPV4_HDR, &n));
    CHECK(!det_hdr_buffer(NULL, DOB_IPV4_HDR, &n));
}

static void test_ipv6_hdr_counts_the_extension_layers(void)
{
    uint8_t eth[14] = {0}, b[80] = {0};
    struct mon_packet p;
    ip_packet(&p, 6, 17, b, 64, 48);
    p.layer[0] = (struct mon_layer){eth, 14, MON_L_ETH};
    p.layer[1] = (struct mon_layer){b, 40, MON_L_IPV6};
    p.layer[2] = (struct mon_layer){b + 40, 8, MON_L_IPV6_EXT};
    p.layer[3] = (struct mon_layer){b + 48, 8, MON_L_UDP};
    p.nlayers = 4;
    uint32_t n;
    CHECK(det_hdr_buffer(&p, DOB_IPV6_HDR, &n) == b && n == 48);
    p.nlayers = 2;
    CHECK(det_hdr_buffer(&p, DOB_IPV6_HDR, &n) == b && n == 40);
    p.nlayers = 0; /* a datagram defrag rebuilt: the fixed header */
    CHECK(det_hdr_buffer(&p, DOB_IPV6_HDR, &n) == b && n == 40);
}

static void test_icmpv4_hdr_lengths(void)
{
    uint8_t b[60] = {0};
    struct mon_packet p;
    ip_packet(&p, 4, 1, b, 60, 20);
    uint32_t n;
    b[20] = 8; /* echo */
    CHECK(det_hdr_buffer(&p, DOB_ICMPV4_HDR, &n) == b + 20 && n == 8);
    b[20] = 13; /* timestamp: three 32-bit times more */
    CHECK(det_hdr_buffer(&p, DOB_ICMPV4_HDR, &n) && n == 20);
    p.l4_len = 19;
    CHECK(det_hdr_buffer(&p, DOB_ICMPV4_HDR, &n) && n == 8);
    p.l4_len = 40;
    b[20] = 9; /* router advertisement: 2 entries of 2 words */
    b[24] = 2;
    b[25] = 2;
    CHECK(det_hdr_buffer(&p, DOB_ICMPV4_HDR, &n) && n == 24);
    b[24] = 9; /* entries past the message: not counted */
    CHECK(det_hdr_buffer(&p, DOB_ICMPV4_HDR, &n) && n == 8);
    p.l4_len = 7;
    CHECK(!det_hdr_buffer(&p, DOB_ICMPV4_HDR, &n));
    CHECK(!det_hdr_buffer(&p, DOB_ICMPV6_HDR, &n));
}

static void test_tcp_options(void)
{
    uint8_t b[64] = {0};
    struct mon_packet p;
    ip_packet(&p, 4, 6, b, 48, 20);
    b[20 + 12] = 7 << 4;                /* 8 bytes of options */
    const uint8_t opts[] = {1, 3, 3, 7, 2, 4, 0x01, 0xf4}; /* NOP, wscale 7, MSS 500 */
    memcpy(b + 40, opts, sizeof opts);
    CHECK(det_pktprop_match(prop(PP_TCP_MSS, CMP_EQ, 500, 0), &p, NULL));
    CHECK(!det_pktprop_match(prop(PP_TCP_MSS, CMP_NE, 500, 0), &p, NULL));
    CHECK(det_pktprop_match(prop(PP_TCP_WSCALE, CMP_EQ, 7, 0), &p, NULL));
    CHECK(det_pktprop_match(prop(PP_TCP_MSS, CMP_RANGE, 499, 501), &p, NULL));
    CHECK(!det_pktprop_match(prop(PP_TCP_MSS, CMP_RANGE, 500, 501), &p, NULL));
    CHECK(!det_pktprop_match(prop(PP_TCP_MSS, CMP_OUTSIDE, 499, 501), &p, NULL));
    CHECK(det_pktprop_match(prop(PP_TCP_MSS, CMP_OUTSIDE, 400, 500), &p, NULL));
    b[40] = 0; /* EOL first: no option after it counts */
    CHECK(!det_pktprop_match(prop(PP_TCP_WSCALE, CMP_GE, 0, 0), &p, NULL));
    b[40] = 1;
    b[42] = 9; /* wscale's length runs past the header: the walk stops there */
    CHECK(!det_pktprop_match(prop(PP_TCP_MSS, CMP_GE, 0, 0), &p, NULL));
}

static void test_vlan_id_layers(void)
{
    const uint16_t ids[3] = {200, 300, 400};
    struct opt_pktprop pp = {.kind = PP_VLAN_ID, .layer = PP_LAYER_ANY,
                             .cmp = {.op = CMP_EQ, .lo = 300}};
    CHECK(pktprop_vlan_match(&pp, ids, 3));
    CHECK(!pktprop_vlan_match(&pp, ids, 0));
    pp.layer = 1;
    CHECK(pktprop_vlan_match(&pp, ids, 3));
    pp.layer = -2;
    CHECK(pktprop_vlan_match(&pp, ids, 3));
    pp.layer = -1;
    CHECK(!pktprop_vlan_match(&pp, ids, 3));
    CHECK(pktprop_vlan_match(&pp, ids + 1, 1));
    pp.layer = 2;
    CHECK(!pktprop_vlan_match(&pp, ids, 2)); /* no third tag */
    pp.cmp = (struct opt_cmp){.op = CMP_GT, .lo = 100};
    pp.layer = PP_LAYER_ALL;
    CHECK(pktprop_vlan_match(&pp, ids, 3));
    pp.cmp.lo = 200;
    CHECK(!pktprop_vlan_match(&pp, ids, 3));
}

static void test_flow_age_and_counters(void)
{
    struct mon_packet p;
    memset(&p, 0, sizeof p);
    p.ipver = 4;
    struct mon_flow f;
    memset(&f, 0, sizeof f);
    f.first_us = 10 * 1000000ull + 900000; /* 10.9 s */
    p.ts_us = 30 * 1000000ull + 100000;    /* 30.1 s: 20 whole seconds (30 - 10) */
    CHECK(det_pktprop_match(prop(PP_FLOW_AGE, CMP_EQ, 20, 0), &p, &f));
    CHECK(!det_pktprop_match(prop(PP_FLOW_AGE, CMP_GT, 20, 0), &p, &f));
    CHECK(!det_pktprop_match(prop(PP_FLOW_AGE, CMP_GE, 0, 0), &p, NULL));
    f.pkts[MON_FLOW_TO_SERVER] = 3;
    f.pkts[MON_FLOW_TO_CLIENT] = 5;
    struct opt_pktprop pp = {.kind = PP_FLOW_PKTS, .dir = PP_DIR_TOSERVER,
                             .cmp = {.op = CMP_EQ, .lo = 5}};
    CHECK(!det_pktprop_match(&pp, &p, &f));
    pp.dir = PP_DIR_TOCLIENT;
    CHECK(det_pktprop_match(&pp, &p, &f));
    pp.dir = PP_DIR_EITHER;
    CHECK(det_pktprop_match(&pp, &p, &f));
}

static void test_header_protocols(void)
{
    struct det_hdr_proto hp;
    CHECK(det_hdr_proto_of("tcp-pkt", &hp) && hp.l4 == 6 && hp.pkt_only && !hp.ipver);
    CHECK(det_hdr_proto_of("tcp-stream", &hp) && hp.l4 == 6 && hp.stream_only);
    CHECK(det_hdr_proto_of("icmpv6", &hp) && hp.l4 == 1 && hp.ipver && hp.ipver->cmp.lo == 6);
    CHECK(det_hdr_proto_of("ipv4", &hp) && hp.l4 == 0 && hp.ipver->cmp.lo == 4);
    CHECK(!det_hdr_proto_of("tcp", &hp) && !det_hdr_proto_of("sctp", &hp));
    CHECK(det_hdr_buffer_of(BUF_TCP_HDR) == DOB_TCP_HDR && det_hdr_buffer_of(BUF_PKT) == -1);
}

int main(void)
{
    test_ipv4_and_tcp_hdr();
    test_ipv6_hdr_counts_the_extension_layers();
    test_icmpv4_hdr_lengths();
    test_tcp_options();
    test_vlan_id_layers();
    test_flow_age_and_counters();
    test_header_protocols();
    return unit_report("test_pktunits");
}
