/* vntag.c — Cisco VN-Tag (ethertype 0x8926, the port extender's tag): 4 bytes of tag (the
 * virtual interfaces it came from and goes to), then the next ethertype. As Suricata's
 * decoder: a frame shorter than the tag is truncated, an unknown next type is non-IP. */
#include "decode_internal.h"

#define VNTAG_HLEN 6u

enum dec_rc dec_vntag(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < VNTAG_HLEN) {
        dec_mark(c, MON_DN_VNTAG_TOO_SMALL);
        return dec_bad(c, MON_DE_LINK_TRUNCATED);
    }
    if (!dec_push(c, MON_L_VNTAG, b, VNTAG_HLEN))
        return DEC_BAD;
    bool unknown;
    enum dec_rc rc = dec_ethertype(c, rd16(b + 4), b + VNTAG_HLEN, len - VNTAG_HLEN, &unknown);
    if (unknown && !dec_ethertype_known(rd16(b + 4)))
        dec_mark(c, MON_DN_VNTAG_UNKNOWN_TYPE);
    return unknown ? dec_non_ip(c, b + VNTAG_HLEN, len - VNTAG_HLEN) : rc;
}
