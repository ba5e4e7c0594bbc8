/* sll.c — Linux "cooked" capture headers: SLL (DLT_LINUX_SLL) and SLL2 (DLT_LINUX_SLL2). */
#include "decode_internal.h"

#define SLL_HLEN 16u
#define SLL2_HLEN 20u

enum {
    ARPHRD_IPGRE = 778,     /* protocol field holds a GRE protocol type */
    ARPHRD_NETLINK = 824,   /* netlink messages, not packets */
    SLL_P_802_3 = 0x0001,   /* Novell 802.3 without LLC */
    SLL_P_802_2 = 0x0004,   /* 802.2 LLC */
};

/* Both headers end up naming the payload the same way. */
static enum dec_rc sll_payload(struct dec *c, uint16_t arphrd, uint16_t proto,
                               const uint8_t *b, uint32_t len)
{
    if (arphrd == ARPHRD_NETLINK || proto == SLL_P_802_3 || proto == SLL_P_802_2)
        return dec_non_ip(c, b, len);
    if (arphrd == ARPHRD_IPGRE && proto == DEC_ETH_TEB)
        return dec_next(c, DEC_NX_ETHERNET, b, len);
    bool unknown;
    enum dec_rc rc = dec_ethertype(c, proto, b, len, &unknown);
    return unknown ? dec_non_ip(c, b, len) : rc;
}

/* packet type(2) ARPHRD(2) address length(2) address(8) protocol(2) */
enum dec_rc dec_sll(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < SLL_HLEN) {
        dec_mark(c, MON_DN_SLL_TOO_SMALL);
        return dec_bad(c, MON_DE_LINK_TRUNCATED);
    }
    if (!dec_push(c, MON_L_SLL, b, SLL_HLEN))
        return DEC_BAD;
    return sll_payload(c, rd16(b + 2), rd16(b + 14), b + SLL_HLEN, len - SLL_HLEN);
}

/* protocol(2) reserved(2) ifindex(4) ARPHRD(2) packet type(1) address length(1) address(8) */
enum dec_rc dec_sll2(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < SLL2_HLEN)
        return dec_bad(c, MON_DE_LINK_TRUNCATED);
    if (!dec_push(c, MON_L_SLL2, b, SLL2_HLEN))
        return DEC_BAD;
    return sll_payload(c, rd16(b + 8), rd16(b), b + SLL2_HLEN, len - SLL2_HLEN);
}
