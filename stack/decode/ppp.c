/* ppp.c — PPP (RFC 1661/1662) as a link type, inside PPPoE and inside PPTP's GRE, and
 * Cisco HDLC, which shares DLT_PPP_SERIAL with HDLC-framed PPP. */
#include "decode_internal.h"

enum {
    PPP_ADDRESS = 0xff, PPP_CONTROL = 0x03,
    PPP_IPV4 = 0x0021, PPP_IPV6 = 0x0057, PPP_VJ_UNCOMPRESSED = 0x002f, PPP_MPLS_UC = 0x0281, PPP_MPLS_MC = 0x0283,
    PPP_CONTROL_FIRST = 0x8000,  /* 0x8xxx NCPs, 0xcxxx LCP/auth: negotiation, not data */
    CHDLC_UNICAST = 0x0f, CHDLC_MULTICAST = 0x8f,
};

#define CHDLC_HLEN 4u

/* Address/control may be omitted (ACFC) and the protocol compressed to one byte (PFC):
 * protocol numbers are odd in the low byte and even in the high byte, so a set low bit
 * in the first byte marks the one-byte form. */
enum dec_rc dec_ppp(struct dec *c, const uint8_t *b, uint32_t len)
{
    uint32_t off = 0;
    if (len >= 2 && b[0] == PPP_ADDRESS && b[1] == PPP_CONTROL)
        off = 2;
    if (len - off < 1)
        return dec_bad(c, MON_DE_PPP_TRUNCATED);
    uint16_t proto;
    if (b[off] & 1) {
        proto = b[off];
        off += 1;
    } else {
        if (len - off < 2)
            return dec_bad(c, MON_DE_PPP_TRUNCATED);
        proto = rd16(b + off);
        off += 2;
    }
    /* Suricata checks the IP header fits before it decodes it */
    if (proto == PPP_IPV4 && len - off < 20)
        dec_mark(c, MON_DN_PPP_IP4_TOO_SMALL);
    if (proto == PPP_IPV6 && len - off < 40)
        dec_mark(c, MON_DN_PPP_IP6_TOO_SMALL);
    if (proto == PPP_VJ_UNCOMPRESSED && len - off < 20)
        dec_mark(c, MON_DN_PPP_VJU_TOO_SMALL);
    switch (proto) {
    case PPP_IPV4:
        return dec_push(c, MON_L_PPP, b, off) ? dec_next(c, DEC_NX_IPV4, b + off, len - off) : DEC_BAD;
    case PPP_IPV6:
        return dec_push(c, MON_L_PPP, b, off) ? dec_next(c, DEC_NX_IPV6, b + off, len - off) : DEC_BAD;
    case PPP_MPLS_UC: case PPP_MPLS_MC:
        return dec_push(c, MON_L_PPP, b, off) ? dec_next(c, DEC_NX_MPLS, b + off, len - off) : DEC_BAD;
    default:
        if (!dec_push(c, MON_L_PPP, b, off))
            return DEC_BAD;
        /* VJ, compressed, multilink, unassigned …: noted, the frame itself is valid. */
        if (proto < PPP_CONTROL_FIRST)
            dec_note(c, MON_DE_PPP_UNSUPPORTED);
        return DEC_OK;
    }
}

enum dec_rc dec_chdlc(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < CHDLC_HLEN) {
        dec_mark(c, MON_DN_CHDLC_TOO_SMALL);
        return dec_bad(c, MON_DE_LINK_TRUNCATED);
    }
    if (!dec_push(c, MON_L_CHDLC, b, CHDLC_HLEN))
        return DEC_BAD;
    bool unknown;
    enum dec_rc rc = dec_ethertype(c, rd16(b + 2), b + CHDLC_HLEN, len - CHDLC_HLEN, &unknown);
    return unknown ? dec_non_ip(c, b + CHDLC_HLEN, len - CHDLC_HLEN) : rc;
}

/* DLT_PPP_SERIAL: PPP in HDLC-like framing, or Cisco HDLC (told apart by the address). */
enum dec_rc dec_ppp_serial(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len >= 1 && (b[0] == CHDLC_UNICAST || b[0] == CHDLC_MULTICAST))
        return dec_chdlc(c, b, len);
    return dec_ppp(c, b, len);
}
