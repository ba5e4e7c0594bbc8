/* icmpv6.c — ICMPv6 (RFC 4443): type, code, checksum (with the IPv6 pseudo header) and the
 * 4-byte message-specific word every defined type has. */
#include "decode_internal.h"

#define ICMPV6_HLEN 8u

enum { ECHO_REQUEST = 128, ECHO_REPLY = 129 };

/* The highest code of each type Suricata checks (RFC 4443, 4861, 2710, 3810), -1: any. */
static int max_code(uint8_t type)
{
    switch (type) {
    case 1: return 7;  /* destination unreachable */
    case 2: return 0;  /* packet too big */
    case 3: return 1;  /* time exceeded */
    case 4: return 3;  /* parameter problem */
    case 128: case 129: case 130: case 131: case 132: case 133: case 134: case 135:
    case 136: case 137: case 143:
        return 0;
    default: return -1;
    }
}

/* The error messages (1-4) quote the offending packet's IPv6 header: Suricata checks it. */
static void quoted_header_notes(struct mon_packet *p, const uint8_t *b, uint32_t len)
{
    if (b[0] < 1 || b[0] > 4)
        return;
    if (len - ICMPV6_HLEN < 40)
        p->decode_notes |= 1ull << MON_DN_ICMP_INNER_TRUNCATED;
    else if (b[ICMPV6_HLEN] >> 4 != 6)
        p->decode_notes |= 1ull << MON_DN_ICMP_INNER_VERSION;
}

static void type_code_notes(struct mon_packet *p, uint8_t type, uint8_t code)
{
    int max = max_code(type);
    if (max >= 0 && code > max)
        p->decode_notes |= 1ull << MON_DN_ICMPV6_UNKNOWN_CODE;
    if (type == 100 || type == 101 || type == 200 || type == 201)
        p->decode_notes |= 1ull << MON_DN_ICMPV6_EXPERIMENT_TYPE;
    else if ((type > 4 && type < 100) || (type > 101 && type < 127) ||
             (type > 161 && type < 200) || (type > 201 && type < 255))
        p->decode_notes |= 1ull << MON_DN_ICMPV6_UNASSIGNED_TYPE;
    /* MLD (queries, reports, done, v2 reports) is link-local: RFC 2710/3810 hop limit 1 */
    if ((type >= 130 && type <= 132) || type == 143)
        if (p->ttl != 1)
            p->decode_notes |= 1ull << MON_DN_ICMPV6_MLD_HOP_LIMIT;
}

enum dec_rc dec_icmpv6(struct dec *c, const uint8_t *b, uint32_t len)
{
    struct mon_packet *p = c->p;
    if (len < ICMPV6_HLEN)
        return dec_bad(c, MON_DE_ICMPV6_TRUNCATED);
    if (!dec_push(c, MON_L_ICMPV6, b, ICMPV6_HLEN))
        return DEC_BAD;
    p->icmp_type = b[0];
    p->icmp_code = b[1];
    if (b[0] == ECHO_REQUEST || b[0] == ECHO_REPLY)
        p->icmp_id = rd16(b + 4);
    type_code_notes(p, b[0], b[1]);
    quoted_header_notes(p, b, len);
    p->flags |= MON_PKT_HAS_L4;
    p->l4 = b;
    p->l4_len = len;
    p->payload = b + ICMPV6_HLEN;
    p->payload_len = len - ICMPV6_HLEN;
    if (c->csum_on)
        dec_csum_result(c, csum_fold(csum_add(csum_pseudo(p, DEC_IP_ICMPV6, len), b, len)) == 0,
                        MON_DE_ICMPV6_BAD_CSUM, MON_PKT_BAD_L4_CSUM);
    return DEC_OK;
}
