/* icmpv4.c — ICMP (RFC 792): type, code, checksum and the 4-byte rest-of-header. */
#include "decode_internal.h"

#define ICMP_HLEN 8u

/* Types whose rest-of-header is identifier + sequence number. */
static bool has_id(uint8_t type)
{
    switch (type) {
    case 0: case 8:    /* echo reply / request */
    case 13: case 14:  /* timestamp */
    case 15: case 16:  /* information */
    case 17: case 18:  /* address mask */
        return true;
    default:
        return false;
    }
}

/* The highest code of each type ICMPv4 defines (RFC 792, 950, 1256, 1812), -1: no such type;
 * Suricata raises icmpv4.unknown_type / unknown_code past them (router advertisement's code
 * 16, RFC 2002, is checked apart). */
static int max_code(uint8_t type)
{
    switch (type) {
    case 0: case 4: case 8: case 10: case 13: case 14: case 15: case 16: case 17: case 18:
        return 0;
    case 3: return 15;  /* destination unreachable */
    case 5: return 3;   /* redirect */
    case 9: return 16;  /* router advertisement: 0 or 16 */
    case 11: return 1;  /* time exceeded */
    case 12: return 2;  /* parameter problem */
    default: return -1;
    }
}

/* An error message (unreachable, source quench, redirect, time exceeded, parameter problem)
 * quotes the offending datagram's IPv4 header: Suricata checks that it is one. */
static void quoted_header_notes(struct mon_packet *p, const uint8_t *b, uint32_t len)
{
    switch (b[0]) {
    case 3: case 4: case 5: case 11: case 12:
        if (len - ICMP_HLEN < 20)
            p->decode_notes |= 1ull << MON_DN_ICMP_INNER_TRUNCATED;
        else if (b[ICMP_HLEN] >> 4 != 4)
            p->decode_notes |= 1ull << MON_DN_ICMP_INNER_VERSION;
        break;
    default:
        break;
    }
}

static void type_code_notes(struct mon_packet *p, uint8_t type, uint8_t code)
{
    int max = max_code(type);
    if (max < 0)
        p->decode_notes |= 1ull << MON_DN_ICMPV4_UNKNOWN_TYPE;
    else if (code > max || (type == 9 && code != 0 && code != 16))
        p->decode_notes |= 1ull << MON_DN_ICMPV4_UNKNOWN_CODE;
}

enum dec_rc dec_icmpv4(struct dec *c, const uint8_t *b, uint32_t len)
{
    struct mon_packet *p = c->p;
    if (len < ICMP_HLEN)
        return dec_bad(c, MON_DE_ICMPV4_TRUNCATED);
    if (!dec_push(c, MON_L_ICMP, b, ICMP_HLEN))
        return DEC_BAD;
    p->icmp_type = b[0];
    p->icmp_code = b[1];
    if (has_id(b[0]))
        p->icmp_id = rd16(b + 4);
    type_code_notes(p, b[0], b[1]);
    quoted_header_notes(p, b, len);
    p->flags |= MON_PKT_HAS_L4;
    p->l4 = b;
    p->l4_len = len;
    p->payload = b + ICMP_HLEN;
    p->payload_len = len - ICMP_HLEN;
    if (c->csum_on)  /* no pseudo header in ICMPv4 */
        dec_csum_result(c, csum_fold(csum_add(0, b, len)) == 0, MON_DE_ICMPV4_BAD_CSUM,
                        MON_PKT_BAD_L4_CSUM);
    return DEC_OK;
}
