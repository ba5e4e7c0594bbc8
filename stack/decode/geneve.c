/* geneve.c — Geneve (RFC 8926): version(2) option length(6, in 4-byte words) O(1) C(1)
 * reserved(6) protocol(16) VNI(24) reserved(8), options, then the payload named by the
 * protocol (an ethertype; 0x6558 is Ethernet). */
#include "decode_internal.h"

#define GENEVE_HLEN 8u

enum dec_rc dec_geneve(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < GENEVE_HLEN)
        return dec_bad(c, MON_DE_GENEVE_TRUNCATED);
    if (b[0] >> 6 != 0)
        return dec_bad(c, MON_DE_GENEVE_BAD_VERSION);
    uint32_t hlen = GENEVE_HLEN + (b[0] & 0x3fu) * 4u;
    if (hlen > len)
        return dec_bad(c, MON_DE_GENEVE_TRUNCATED);
    if (!dec_tunnel(c, MON_T_GENEVE) || !dec_push(c, MON_L_GENEVE, b, hlen))
        return DEC_BAD;
    uint16_t proto = rd16(b + 2);
    if (proto == DEC_ETH_TEB)
        return dec_next(c, DEC_NX_ETHERNET, b + hlen, len - hlen);
    bool unknown;
    enum dec_rc rc = dec_ethertype(c, proto, b + hlen, len - hlen, &unknown);
    return unknown ? dec_non_ip(c, b + hlen, len - hlen) : rc;
}
