/* pppoe.c — PPPoE (RFC 2516): session stage carries PPP, discovery stage carries tags. */
#include "decode_internal.h"

#define PPPOE_HLEN 6u
#define PPPOE_VER_TYPE 0x11

enum { PADI = 0x09, PADO = 0x07, PADR = 0x19, PADS = 0x65, PADT = 0xa7 };

enum dec_rc dec_pppoe_session(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < PPPOE_HLEN)
        return dec_bad(c, MON_DE_PPPOE_TRUNCATED);
    if (b[0] != PPPOE_VER_TYPE || b[1] != 0)  /* session data always has code 0 */
        return dec_bad(c, MON_DE_PPPOE_MALFORMED);
    uint32_t plen = rd16(b + 4);
    if (plen < 1)  /* not even a (compressed) PPP protocol field */
        return dec_bad(c, MON_DE_PPPOE_MALFORMED);
    if (plen > len - PPPOE_HLEN)
        return dec_bad(c, MON_DE_PPPOE_TRUNCATED);
    if (!dec_tunnel(c, MON_T_PPPOE) || !dec_push(c, MON_L_PPPOE, b, PPPOE_HLEN))
        return DEC_BAD;
    /* Bytes past the PPPoE length are Ethernet padding. */
    return dec_next(c, DEC_NX_PPP, b + PPPOE_HLEN, plen);
}

enum dec_rc dec_pppoe_discovery(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < PPPOE_HLEN)
        return dec_bad(c, MON_DE_PPPOE_TRUNCATED);
    if (b[0] != PPPOE_VER_TYPE)
        return dec_bad(c, MON_DE_PPPOE_MALFORMED);
    switch (b[1]) {
    case PADI: case PADO: case PADR: case PADS: case PADT:
        break;
    default:
        dec_mark(c, MON_DN_PPPOE_WRONG_CODE);
        return dec_bad(c, MON_DE_PPPOE_MALFORMED);
    }
    uint32_t plen = rd16(b + 4);
    if (plen > len - PPPOE_HLEN)
        return dec_bad(c, MON_DE_PPPOE_TRUNCATED);
    return dec_push(c, MON_L_PPPOE, b, PPPOE_HLEN + plen) ? DEC_OK : DEC_BAD;
}
