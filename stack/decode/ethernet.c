/* ethernet.c — Ethernet II and 802.3 with LLC/SNAP. */
#include "decode_internal.h"

#define ETH_HLEN 14u

/* An 802.3 frame leads on to IP only through SNAP with an ethertype-style OUI (RFC 1042
 * 00-00-00, or 802.1H 00-00-f8); everything else (STP, CDP, NetBIOS …) is non-IP. */
bool dec_snap_ethertype(const uint8_t *llc, uint32_t len, uint16_t *type)
{
    if (len < SNAP_HLEN || llc[0] != 0xaa || llc[1] != 0xaa || llc[2] != 0x03)
        return false;
    if (llc[3] != 0 || llc[4] != 0 || (llc[5] != 0 && llc[5] != 0xf8))
        return false;
    *type = rd16(llc + 6);
    return true;
}

enum dec_rc dec_ethernet(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < ETH_HLEN)
        return dec_bad(c, MON_DE_ETH_TRUNCATED);
    uint16_t type = rd16(b + 12);
    uint32_t hlen = ETH_HLEN;
    if (type <= 1500) {  /* a length, not a type: 802.3 */
        if (!dec_snap_ethertype(b + ETH_HLEN, len - ETH_HLEN, &type)) {
            if (!dec_push(c, MON_L_ETH, b, ETH_HLEN))
                return DEC_BAD;
            return dec_non_ip(c, b + ETH_HLEN, len - ETH_HLEN);
        }
        hlen += SNAP_HLEN;
    }
    if (!dec_push(c, MON_L_ETH, b, hlen))
        return DEC_BAD;
    bool unknown;
    enum dec_rc rc = dec_ethertype(c, type, b + hlen, len - hlen, &unknown);
    if (unknown && !dec_ethertype_known(type))
        dec_mark(c, MON_DN_ETH_UNKNOWN_TYPE);
    return unknown ? dec_non_ip(c, b + hlen, len - hlen) : rc;
}

/* FDDI: frame control, destination, source, then 802.2 LLC (IP always comes as SNAP). */
#define FDDI_HLEN 13u

enum dec_rc dec_fddi(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < FDDI_HLEN)
        return dec_bad(c, MON_DE_LINK_TRUNCATED);
    uint16_t type;
    if (!dec_snap_ethertype(b + FDDI_HLEN, len - FDDI_HLEN, &type)) {
        if (!dec_push(c, MON_L_FDDI, b, FDDI_HLEN))
            return DEC_BAD;
        return dec_non_ip(c, b + FDDI_HLEN, len - FDDI_HLEN);
    }
    uint32_t hlen = FDDI_HLEN + SNAP_HLEN;
    if (!dec_push(c, MON_L_FDDI, b, hlen))
        return DEC_BAD;
    bool unknown;
    enum dec_rc rc = dec_ethertype(c, type, b + hlen, len - hlen, &unknown);
    return unknown ? dec_non_ip(c, b + hlen, len - hlen) : rc;
}
