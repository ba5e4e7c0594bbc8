/* wlan.c — IEEE 802.11 frames as Aruba access points tunnel them to their controller in GRE
 * (protocol types 0x8200 + 0x10 * n): the 802.11 MAC header without FCS, then LLC/SNAP and an
 * ethertype. Data frames with a body lead on to IP; management and control frames, null data
 * and protected (still encrypted) bodies are non-IP. Suricata leaves this GRE payload
 * undecoded; decoding it inspects the wireless clients' traffic the capture carries. */
#include "decode_internal.h"

#define WLAN_HLEN 24u   /* frame control, duration, three addresses, sequence control */
#define WLAN_ADDR4 6u   /* to and from the distribution system: a fourth address */
#define WLAN_QOS 2u     /* QoS data subtypes */
#define WLAN_HTC 4u     /* QoS with the order bit: HT control */

enum {
    FC_TYPE_DATA = 2, FC_SUB_QOS = 0x8, FC_SUB_NODATA = 0x4,
    FC_TODS = 0x01, FC_FROMDS = 0x02, FC_PROTECTED = 0x40, FC_ORDER = 0x80,
};

/* A frame that is fine but carries no IP: the header (as much as there is) and non-IP. */
static enum dec_rc no_ip(struct dec *c, const uint8_t *b, uint32_t len, uint32_t hlen)
{
    if (hlen > len)
        hlen = len;
    if (!dec_push(c, MON_L_WLAN, b, hlen))
        return DEC_BAD;
    return dec_non_ip(c, b + hlen, len - hlen);
}

enum dec_rc dec_wlan(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < WLAN_HLEN || (b[0] & 0x3) != 0) { /* too short, or not protocol version 0 */
        dec_note(c, MON_DE_GRE_UNKNOWN_PAYLOAD);
        return dec_non_ip(c, b, len);
    }
    uint8_t type = (b[0] >> 2) & 0x3, sub = b[0] >> 4, fl = b[1];
    uint32_t hlen = WLAN_HLEN;
    if ((fl & (FC_TODS | FC_FROMDS)) == (FC_TODS | FC_FROMDS))
        hlen += WLAN_ADDR4;
    if (type == FC_TYPE_DATA && (sub & FC_SUB_QOS))
        hlen += WLAN_QOS + ((fl & FC_ORDER) ? WLAN_HTC : 0);
    if (type != FC_TYPE_DATA || (sub & FC_SUB_NODATA) || (fl & FC_PROTECTED) || hlen > len)
        return no_ip(c, b, len, hlen);
    uint16_t et;
    if (!dec_snap_ethertype(b + hlen, len - hlen, &et))
        return no_ip(c, b, len, hlen);
    if (!dec_push(c, MON_L_WLAN, b, hlen + SNAP_HLEN))
        return DEC_BAD;
    bool unknown;
    enum dec_rc rc = dec_ethertype(c, et, b + hlen + SNAP_HLEN, len - hlen - SNAP_HLEN, &unknown);
    return unknown ? dec_non_ip(c, b + hlen + SNAP_HLEN, len - hlen - SNAP_HLEN) : rc;
}
