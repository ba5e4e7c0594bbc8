/* vxlan.c — VXLAN (RFC 7348): flags(8) reserved(24) VNI(24) reserved(8), then Ethernet. */
#include "decode_internal.h"

#define VXLAN_HLEN 8u
#define VXLAN_I 0x08  /* "VNI valid": must be set (other flag bits belong to extensions) */

enum dec_rc dec_vxlan(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < VXLAN_HLEN)
        return dec_bad(c, MON_DE_VXLAN_TRUNCATED);
    if (!(b[0] & VXLAN_I))
        return dec_bad(c, MON_DE_VXLAN_BAD_FLAGS);
    if (!dec_tunnel(c, MON_T_VXLAN) || !dec_push(c, MON_L_VXLAN, b, VXLAN_HLEN))
        return DEC_BAD;
    return dec_next(c, DEC_NX_ETHERNET, b + VXLAN_HLEN, len - VXLAN_HLEN);
}
