/* test_decode_notes.c — what the decoders note without stopping (mon_decode.h
 * MON_DECODE_NOTES, Suricata's decoder events): the exact notes of each frame, and that a
 * note leaves the outcome and the decoded fields as they were. */
#include "test_decode_util.h"

static struct fb f;
static struct mon_decoder d;
static struct mon_packet p;

#define N(n) (1ull << MON_DN_##n)

/* Ethernet / IPv4 / SCTP with verification tag vtag and the given chunk bytes. */
static void sctp(uint32_t vtag, const uint8_t *chunks, uint32_t n)
{
    f.n = 0;
    eth(&f, 0x0800);
    uint32_t ip = ipv4_begin(&f, 132, 1, 2);
    put16(&f, 5000);
    put16(&f, 38412);
    put32(&f, vtag);
    put32(&f, 0);
    putn(&f, chunks, n);
    ipv4_end(&f, ip);
}

static void test_sctp(void)
{
    static const uint8_t data[] = {0, 0, 0, 20, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 'a', 'b',
                                   'c', 'd'};
    static const uint8_t init[] = {1, 0, 0, 20, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    sctp(7, data, sizeof data);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.decode_notes, 0);
    CHECK_EQ(p.sport, 5000);
    CHECK_EQ(p.payload_len, 12 + sizeof data - 12);
    sctp(0, data, sizeof data);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.decode_notes, N(SCTP_DATA_ZERO_VTAG));
    CHECK_EQ(p.dport, 38412); /* a note: the ports are the packet's still */
    sctp(5, init, sizeof init);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.decode_notes, N(SCTP_INIT_VTAG));
    uint8_t two[sizeof init + sizeof data];
    memcpy(two, init, sizeof init);
    memcpy(two + sizeof init, data, sizeof data);
    sctp(0, two, sizeof two);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.decode_notes, N(SCTP_INIT_BUNDLED) | N(SCTP_DATA_ZERO_VTAG));
    static const uint8_t bad_len[] = {0, 0, 0, 2, 'x', 'y', 'z', 'w'};
    sctp(7, bad_len, sizeof bad_len);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.decode_notes, N(SCTP_CHUNK_LEN_INVALID));
    static const uint8_t stub[] = {0, 0};
    sctp(7, stub, sizeof stub);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.decode_notes, N(SCTP_CHUNK_TOO_SMALL));
    uint8_t many[17 * 4];
    for (int i = 0; i < 17; i++) {
        const uint8_t hb[4] = {4, 0, 0, 4}; /* empty heartbeats */
        memcpy(many + 4 * i, hb, 4);
    }
    sctp(7, many, 16 * 4);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.decode_notes, 0);
    sctp(7, many, 17 * 4);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.decode_notes, N(SCTP_TOO_MANY_CHUNKS));
}

static void icmp4(uint8_t type, uint8_t code)
{
    f.n = 0;
    eth(&f, 0x0800);
    uint32_t ip = ipv4_begin(&f, 1, 1, 2);
    uint32_t ic = icmp_begin(&f, type, code, 1);
    icmp_end(&f, ic, ip, false);
    ipv4_end(&f, ip);
}

static void test_icmp(void)
{
    icmp4(8, 0);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.decode_notes, 0);
    icmp4(9, 16); /* router advertisement, not routing common traffic */
    decode_fb(&d, &p, &f, 1);
    CHECK_EQ(p.decode_notes, 0);
    icmp4(9, 3);
    decode_fb(&d, &p, &f, 1);
    CHECK_EQ(p.decode_notes, N(ICMPV4_UNKNOWN_CODE));
    icmp4(3, 1); /* unreachable, but no copy of the datagram's header */
    decode_fb(&d, &p, &f, 1);
    CHECK_EQ(p.decode_notes, N(ICMP_INNER_TRUNCATED));
    icmp4(44, 0);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.decode_notes, N(ICMPV4_UNKNOWN_TYPE));
    CHECK_EQ(p.icmp_type, 44);
    /* ICMPv6 in IPv4: no ICMP header taken, the datagram's payload */
    f.n = 0;
    eth(&f, 0x0800);
    uint32_t ip = ipv4_begin(&f, 58, 1, 2);
    zeros(&f, 8);
    ipv4_end(&f, ip);
    CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
    CHECK_EQ(p.decode_notes, N(IPV4_ICMPV6));
    CHECK_EQ(p.payload_len, 8);
}

/* Ethernet / IPv6 / a routing header of type rtype / no next header + extra bytes. */
static void test_ipv6_routing_and_none(void)
{
    for (int rtype = 0; rtype < 3; rtype += 2) {
        f.n = 0;
        eth(&f, 0x86dd);
        uint32_t ip = ipv6_begin(&f, 43, 1, 2);
        put8(&f, 59); /* next: none */
        put8(&f, 0);
        put8(&f, (uint8_t)rtype);
        zeros(&f, 5);
        putn(&f, "covert", 6);
        ipv6_end(&f, ip);
        CHECK_EQ(decode_fb(&d, &p, &f, 1), MON_DEC_IP);
        CHECK_EQ(p.decode_notes,
                 N(IPV6_DATA_AFTER_NONE) | (rtype == 0 ? N(IPV6_RH_TYPE_0) : 0));
    }
}

static void test_names(void)
{
    CHECK(strcmp(mon_decode_note_name(MON_DN_SCTP_INIT_BUNDLED), "sctp.init_chunk_bundled") == 0);
    CHECK(strcmp(mon_decode_note_name(MON_DN_GRE_V1_NO_KEY), "gre.version1_no_key") == 0);
    CHECK(MON_DN__COUNT <= 64);
}

int main(void)
{
    test_sctp();
    test_icmp();
    test_ipv6_routing_and_none();
    test_names();
    if (failures)
        fprintf(stderr, "test_decode_notes: %d failed\n", failures);
    return failures ? 1 : 0;
}
