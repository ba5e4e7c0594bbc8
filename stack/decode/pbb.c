/* pbb.c — IEEE 802.1ah Provider Backbone Bridging (ethertype 0x88E7, "MAC-in-MAC"): a
 * 4-byte I-TAG (priority, flags, the 24-bit service instance) and then the customer's whole
 * Ethernet frame, decoded as Ethernet. As Suricata's decoder, a frame too short for the I-TAG
 * and the customer's Ethernet header is truncated. */
#include "decode_internal.h"

#define PBB_ITAG_LEN 4u
#define PBB_HLEN (PBB_ITAG_LEN + 14u) /* + customer destination, source, ethertype */

enum dec_rc dec_pbb(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < PBB_HLEN) {
        dec_mark(c, MON_DN_PBB_TOO_SMALL);
        return dec_bad(c, MON_DE_LINK_TRUNCATED);
    }
    if (!dec_push(c, MON_L_PBB, b, PBB_ITAG_LEN))
        return DEC_BAD;
    return dec_next(c, DEC_NX_ETHERNET, b + PBB_ITAG_LEN, len - PBB_ITAG_LEN);
}
