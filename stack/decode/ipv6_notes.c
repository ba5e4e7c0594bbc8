/* ipv6_notes.c — what the IPv6 extension-header chain shows without being malformed, as
 * Suricata raises it (decoder notes, mon_decode.h): headers repeated where RFC 8200 allows
 * one, a type 0 routing header, reserved fields set, options nobody defined or nothing but
 * padding (a covert channel), data behind "no next header". Decoding goes on as before. */
#include "decode_internal.h"

enum {
    OPT_PAD1 = 0, OPT_PADN = 1, OPT_ROUTER_ALERT = 5, OPT_JUMBO = 0xc2, OPT_HOME_ADDR = 0xc9,
};

static void note(struct mon_packet *p, enum mon_decode_note n)
{
    p->decode_notes |= 1ull << n;
}

/* Options o[0..n) of a hop-by-hop or destination options header (already known to tile). */
static void options(struct mon_packet *p, const uint8_t *o, uint32_t n, bool hop)
{
    bool only_pad = true;
    for (uint32_t i = 0; i < n;) {
        uint8_t t = o[i];
        if (t != OPT_PAD1 && t != OPT_PADN) {
            only_pad = false;
            if (t != OPT_ROUTER_ALERT && t != OPT_JUMBO && t != OPT_HOME_ADDR)
                note(p, hop ? MON_DN_IPV6_HOPOPTS_UNKNOWN : MON_DN_IPV6_DSTOPTS_UNKNOWN);
        }
        i += t == OPT_PAD1 ? 1u : 2u + o[i + 1];
    }
    if (only_pad)
        note(p, hop ? MON_DN_IPV6_HOPOPTS_PADDING : MON_DN_IPV6_DSTOPTS_PADDING);
}

void dec_ipv6_ext_note(struct mon_packet *p, struct ipv6_seen *s, uint8_t nh, const uint8_t *h,
                       uint32_t size)
{
    switch (nh) {
    case DEC_IP_HOPOPTS:
        if (s->hh++)
            note(p, MON_DN_IPV6_DUPL_HH);
        options(p, h + 2, size - 2, true);
        break;
    case DEC_IP_DSTOPTS:
        if (s->dh++ == 2)
            note(p, MON_DN_IPV6_DUPL_DH);
        options(p, h + 2, size - 2, false);
        break;
    case DEC_IP_ROUTING:
        if (s->rh++)
            note(p, MON_DN_IPV6_DUPL_RH);
        if (h[2] == 0) /* routing type */
            note(p, MON_DN_IPV6_RH_TYPE_0);
        break;
    case DEC_IP_AH:
        if (s->ah++)
            note(p, MON_DN_IPV6_DUPL_AH);
        if (rd16(h + 2) != 0)
            note(p, MON_DN_IPV6_AH_RESERVED);
        break;
    case DEC_IP_FRAGMENT:
        if (h[1] != 0)
            note(p, MON_DN_IPV6_FH_RESERVED);
        break;
    default:
        break;
    }
}
