/* mpls.c — MPLS label stack (RFC 3032). The payload type is not on the wire: explicit-null
 * labels say it, otherwise the first nibble is a (standard) guess, like Suricata and Zeek. */
#include "decode_internal.h"

#define MPLS_ENTRY 4u
#define MPLS_PW_CW 4u  /* Ethernet pseudowire control word (RFC 4448) */

enum {
    LABEL_IPV4_NULL = 0, LABEL_ROUTER_ALERT = 1, LABEL_IPV6_NULL = 2, LABEL_IMPLICIT_NULL = 3,
    LABEL_GAL = 13, LABEL_RESERVED_END = 16,
};

enum dec_rc dec_mpls(struct dec *c, const uint8_t *b, uint32_t len)
{
    uint32_t off = 0, entry;
    do {
        if (len - off < MPLS_ENTRY)
            return dec_bad(c, MON_DE_MPLS_TRUNCATED);
        entry = rd32(b + off);
        off += MPLS_ENTRY;
        /* Implicit null is only ever signalled, never put on the wire. */
        if (entry >> 12 == LABEL_IMPLICIT_NULL) {
            dec_mark(c, MON_DN_MPLS_IMPLICIT_NULL);
            return dec_bad(c, MON_DE_MPLS_BAD_LABEL);
        }
    } while (!(entry & 0x100));  /* bottom-of-stack bit */

    uint32_t label = entry >> 12;
    /* At the bottom only the explicit nulls and GAL (a G-ACh follows) may be reserved. */
    if (label < LABEL_RESERVED_END && label != LABEL_IPV4_NULL && label != LABEL_IPV6_NULL &&
        label != LABEL_GAL) {
        dec_mark(c, label == LABEL_ROUTER_ALERT ? MON_DN_MPLS_ROUTER_ALERT : MON_DN_MPLS_RESERVED);
        return dec_bad(c, MON_DE_MPLS_BAD_LABEL);
    }
    if (!dec_tunnel(c, MON_T_MPLS) || !dec_push(c, MON_L_MPLS, b, off))
        return DEC_BAD;

    const uint8_t *in = b + off;
    uint32_t inlen = len - off;
    if (label == LABEL_GAL)  /* associated channel: OAM, not user traffic */
        return dec_non_ip(c, in, inlen);
    if (inlen == 0) {
        dec_mark(c, MON_DN_MPLS_TOO_SMALL);
        return dec_bad(c, MON_DE_MPLS_TRUNCATED);
    }
    if (label == LABEL_IPV4_NULL)
        return dec_next(c, DEC_NX_IPV4, in, inlen);
    if (label == LABEL_IPV6_NULL)
        return dec_next(c, DEC_NX_IPV6, in, inlen);
    switch (in[0] >> 4) {
    case 4:
        return dec_next(c, DEC_NX_IPV4, in, inlen);
    case 6:
        return dec_next(c, DEC_NX_IPV6, in, inlen);
    case 0:  /* Ethernet pseudowire: control word, then the customer's frame */
        if (inlen < MPLS_PW_CW) {
            dec_mark(c, MON_DN_MPLS_TOO_SMALL);
            return dec_bad(c, MON_DE_MPLS_TRUNCATED);
        }
        return dec_next(c, DEC_NX_ETHERNET, in + MPLS_PW_CW, inlen - MPLS_PW_CW);
    default:  /* the stack itself was fine; what it carries is a guess we cannot make */
        dec_note(c, MON_DE_MPLS_UNKNOWN_PAYLOAD);
        return DEC_OK;
    }
}
