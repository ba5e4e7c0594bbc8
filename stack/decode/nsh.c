/* nsh.c — Network Service Header (RFC 8300), ethertype 0x894F: a service path header,
 * context headers (MD type 1: four fixed words; MD type 2: variable TLVs), then the packet it
 * carries, named by its next-protocol field. */
#include "decode_internal.h"

#define NSH_BASE_LEN 8u     /* base header + service path header */
#define NSH_MD1_LEN 24u     /* MD type 1: the length is always 6 words */

enum { NSH_NP_IPV4 = 1, NSH_NP_IPV6 = 2, NSH_NP_ETHERNET = 3, NSH_NP_NSH = 4, NSH_NP_MPLS = 5 };

enum dec_rc dec_nsh(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < NSH_BASE_LEN)
        return dec_bad(c, MON_DE_NSH_TRUNCATED);
    if (b[0] >> 6 != 0)
        return dec_bad(c, MON_DE_NSH_BAD_VERSION);
    uint32_t hlen = (b[1] & 0x3fu) * 4u;
    uint8_t md = b[2] & 0x0fu, np = b[3];
    if (md == 0 || md == 0x0f)  /* reserved MD types */
        return dec_bad(c, MON_DE_NSH_RESERVED_TYPE);
    if (md != 1 && md != 2)
        return dec_bad(c, MON_DE_NSH_UNSUPPORTED_TYPE);
    if (hlen < NSH_BASE_LEN || (md == 1 && hlen != NSH_MD1_LEN))
        return dec_bad(c, MON_DE_NSH_BAD_LEN);
    if (hlen > len)
        return dec_bad(c, MON_DE_NSH_TRUNCATED);
    if (!dec_push(c, MON_L_NSH, b, hlen))
        return DEC_BAD;
    const uint8_t *in = b + hlen;
    uint32_t inlen = len - hlen;
    switch (np) {
    case NSH_NP_IPV4:
        return dec_next(c, DEC_NX_IPV4, in, inlen);
    case NSH_NP_IPV6:
        return dec_next(c, DEC_NX_IPV6, in, inlen);
    case NSH_NP_ETHERNET:
        return dec_next(c, DEC_NX_ETHERNET, in, inlen);
    case NSH_NP_NSH:
        return dec_nsh(c, in, inlen);  /* bounded by MON_MAX_LAYERS (dec_push) */
    case NSH_NP_MPLS:
        return dec_next(c, DEC_NX_MPLS, in, inlen);
    default:  /* the header was fine; what it carries we cannot name */
        dec_note(c, MON_DE_NSH_UNKNOWN_PAYLOAD);
        return DEC_OK;
    }
}
