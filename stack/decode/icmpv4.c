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
