/* gtpu.c — GTP-U v1 (3GPP TS 29.281): flags(8: version 3, PT 1, spare, E, S, PN), message
 * type(8), length(16: bytes after the first 8), TEID(32); when any of E/S/PN is set, a
 * sequence number(16), N-PDU number(8) and next extension type(8); then extension headers
 * (length in 4-byte units, content, next type). G-PDUs (type 255) carry user IP packets;
 * the other messages (echo, error indication, end marker) are signalling. */
#include "decode_internal.h"

#define GTPU_HLEN 8u
#define GTPU_OPT_LEN 4u

enum {
    GTP_VERSION1 = 1, GTP_PT = 0x10, GTP_E = 0x04, GTP_SEQ_NPDU_EXT = 0x07,
    GTP_GPDU = 255,
};

enum dec_rc dec_gtpu(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < GTPU_HLEN)
        return dec_bad(c, MON_DE_GTPU_TRUNCATED);
    /* Version 1 with PT=1; PT=0 is GTP' (charging), v2 is control plane only. */
    if (b[0] >> 5 != GTP_VERSION1 || !(b[0] & GTP_PT))
        return dec_bad(c, MON_DE_GTPU_BAD_VERSION);
    uint32_t msglen = rd16(b + 2);
    if (msglen > len - GTPU_HLEN)
        return dec_bad(c, MON_DE_GTPU_TRUNCATED);
    uint32_t end = GTPU_HLEN + msglen;  /* anything after the message is not ours */
    uint32_t hlen = GTPU_HLEN;
    if (b[0] & GTP_SEQ_NPDU_EXT) {
        if (end - hlen < GTPU_OPT_LEN)
            return dec_bad(c, MON_DE_GTPU_TRUNCATED);
        hlen += GTPU_OPT_LEN;
        uint8_t next = (b[0] & GTP_E) ? b[hlen - 1] : 0;
        while (next != 0) {
            if (end - hlen < 1)
                return dec_bad(c, MON_DE_GTPU_TRUNCATED);
            uint32_t elen = b[hlen] * 4u;
            if (elen == 0)  /* would loop forever on real parsers */
                return dec_bad(c, MON_DE_GTPU_MALFORMED);
            if (elen > end - hlen)
                return dec_bad(c, MON_DE_GTPU_TRUNCATED);
            hlen += elen;
            next = b[hlen - 1];
        }
    }
    if (!dec_push(c, MON_L_GTPU, b, hlen))
        return DEC_BAD;
    if (b[1] != GTP_GPDU || hlen == end)
        return DEC_OK;  /* signalling: the UDP datagram is what there is */
    const uint8_t *in = b + hlen;
    uint32_t inlen = end - hlen;
    /* A G-PDU's PDU type is not on the wire; IP is recognised by its version nibble, other
     * PDU session types (Ethernet, unstructured) are left as the UDP payload. */
    if (in[0] >> 4 != 4 && in[0] >> 4 != 6)
        return DEC_OK;
    if (!dec_tunnel(c, MON_T_GTPU))
        return DEC_BAD;
    if (in[0] >> 4 == 4)
        return dec_next(c, DEC_NX_IPV4, in, inlen);
    return dec_next(c, DEC_NX_IPV6, in, inlen);
}
