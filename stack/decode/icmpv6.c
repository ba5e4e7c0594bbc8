/* icmpv6.c — ICMPv6 (RFC 4443): type, code, checksum (with the IPv6 pseudo header) and the
 * 4-byte message-specific word every defined type has. */
#include "decode_internal.h"

#define ICMPV6_HLEN 8u

enum { ECHO_REQUEST = 128, ECHO_REPLY = 129 };

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
