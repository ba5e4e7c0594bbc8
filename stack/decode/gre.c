/* gre.c — GRE version 0 (RFC 2784/2890, RFC 1701 routing), version 1 (PPTP enhanced GRE,
 * RFC 2637), and ERSPAN types I, II and III, which ride on GRE; Aruba's 802.11 in GRE goes
 * on to wlan.c. */
#include "decode_internal.h"

#define GRE_HLEN 4u
#define SRE_HLEN 4u
#define ERSPAN2_HLEN 8u
#define ERSPAN3_HLEN 12u
#define ERSPAN3_SUBHLEN 8u  /* platform-specific subheader when the O bit is set */

enum {
    GRE_C = 0x8000, GRE_R = 0x4000, GRE_K = 0x2000, GRE_S = 0x1000, GRE_SSR = 0x0800,
    GRE_RECUR = 0x0700, GRE_A = 0x0080, GRE_FLAGS = 0x0078, GRE_V0_FLAGS = 0x00f8,
    GRE_VERSION = 0x0007,
    DEC_GRE_ARUBA = 0x8200, /* Aruba AP <-> controller: 0x8200 + 0x10 * n (Wireshark's table) */
    ERSPAN_FT_ETHERNET = 0, ERSPAN_FT_IP = 2,
};

/* RFC 1701 source route entries: address family(2) offset(1) length(1) data, ending with
 * an entry of family 0 and length 0. Returns the bytes they take, 0 if they overrun. */
static uint32_t sre_len(const uint8_t *b, uint32_t len)
{
    uint32_t off = 0;
    for (;;) {
        if (len - off < SRE_HLEN)
            return 0;
        uint16_t af = rd16(b + off);
        uint8_t n = b[off + 3];
        off += SRE_HLEN;
        if (af == 0 && n == 0)
            return off;
        if (n > len - off)
            return 0;
        off += n;
    }
}

static enum dec_rc gre_payload(struct dec *c, uint16_t proto, bool seq, const uint8_t *b,
                               uint32_t len)
{
    bool unknown;
    enum dec_rc rc;
    switch (proto) {
    case DEC_ETH_TEB:
        return dec_next(c, DEC_NX_ETHERNET, b, len);
    case DEC_ETH_PPP:
        return dec_next(c, DEC_NX_PPP, b, len);
    case DEC_ETH_ERSPAN2:
        /* Type II has a sequence number and a header; type I has neither. */
        if (seq)
            return dec_erspan2(c, b, len);
        if (!dec_tunnel(c, MON_T_ERSPAN) || !dec_push(c, MON_L_ERSPAN, b, 0))
            return DEC_BAD;
        return dec_next(c, DEC_NX_ETHERNET, b, len);
    case DEC_ETH_ERSPAN3:
        return dec_erspan3(c, b, len);
    case DEC_ETH_WCCP:
        /* WCCPv2 puts a 4-byte redirect header before the IPv4 packet, v1 does not. */
        if (len >= 1 && b[0] >> 4 != 4) {
            if (len < 4)
                return dec_bad(c, MON_DE_GRE_TRUNCATED);
            b += 4;
            len -= 4;
        }
        return dec_next(c, DEC_NX_IPV4, b, len);
    default:
        if ((proto & 0xfe0f) == DEC_GRE_ARUBA) /* 0x8200 … 0x83f0: 802.11 from Aruba APs */
            return dec_next(c, DEC_NX_WLAN, b, len);
        rc = dec_ethertype(c, proto, b, len, &unknown);
        if (unknown)  /* e.g. Aruba/CAPWAP 802.11, CDP: GRE itself was fine */
            dec_note(c, MON_DE_GRE_UNKNOWN_PAYLOAD);
        return rc;
    }
}

/* Which of Suricata's gre.version1_* a bad PPTP header is, first failing check first. */
static enum mon_decode_note v1_reason(uint16_t flags, uint16_t proto)
{
    if (flags & GRE_C)
        return MON_DN_GRE_V1_CHKSUM;
    if (flags & GRE_R)
        return MON_DN_GRE_V1_ROUTE;
    if (flags & GRE_SSR)
        return MON_DN_GRE_V1_SSR;
    if (flags & GRE_RECUR)
        return MON_DN_GRE_V1_RECUR;
    if (flags & GRE_FLAGS)
        return MON_DN_GRE_V1_FLAGS;
    if (proto != DEC_ETH_PPP)
        return MON_DN_GRE_V1_WRONG_PROTO;
    return MON_DN_GRE_V1_NO_KEY;
}

enum dec_rc dec_gre(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < GRE_HLEN)
        return dec_bad(c, MON_DE_GRE_TRUNCATED);
    uint16_t flags = rd16(b), proto = rd16(b + 2);
    uint32_t hlen = GRE_HLEN, plen;

    switch (flags & GRE_VERSION) {
    case 0:
        /* Recursion control and the reserved flags must be zero (RFC 2784 §2.5). */
        if (flags & (GRE_RECUR | GRE_V0_FLAGS)) {
            dec_mark(c, (flags & GRE_RECUR) ? MON_DN_GRE_V0_RECUR : MON_DN_GRE_V0_FLAGS);
            return dec_bad(c, MON_DE_GRE_BAD_FLAGS);
        }
        if (flags & (GRE_C | GRE_R))
            hlen += 4;  /* checksum + offset */
        if (flags & GRE_K)
            hlen += 4;
        if (flags & GRE_S)
            hlen += 4;
        if (hlen > len) {
            dec_mark(c, MON_DN_GRE_V0_HDR_TOO_BIG);
            return dec_bad(c, MON_DE_GRE_TRUNCATED);
        }
        if (flags & GRE_R) {
            uint32_t n = sre_len(b + hlen, len - hlen);
            if (n == 0)
                return dec_bad(c, MON_DE_GRE_TRUNCATED);
            hlen += n;
        }
        plen = len - hlen;
        break;
    case 1:
        /* PPTP: key (payload length + call id) required; no checksum, routing, strict
         * source route or recursion; payload is PPP. */
        if ((flags & (GRE_C | GRE_R | GRE_SSR | GRE_RECUR | GRE_FLAGS)) || !(flags & GRE_K) ||
            proto != DEC_ETH_PPP) {
            dec_mark(c, v1_reason(flags, proto));
            return dec_bad(c, MON_DE_GRE_BAD_FLAGS);
        }
        hlen += 4;
        if (flags & GRE_S)
            hlen += 4;
        if (flags & GRE_A)
            hlen += 4;
        if (hlen > len) {
            dec_mark(c, MON_DN_GRE_V1_HDR_TOO_BIG);
            return dec_bad(c, MON_DE_GRE_TRUNCATED);
        }
        plen = rd16(b + 4);
        if (plen > len - hlen)
            return dec_bad(c, MON_DE_GRE_TRUNCATED);
        break;
    default:
        return dec_bad(c, MON_DE_GRE_BAD_VERSION);
    }

    if (!dec_push(c, MON_L_GRE, b, hlen))
        return DEC_BAD;
    /* Nothing encapsulated (PPTP acknowledgement, keepalive reply): GRE ends here. */
    if (plen == 0)
        return DEC_OK;
    if (!dec_tunnel(c, MON_T_GRE))
        return DEC_BAD;
    return gre_payload(c, proto, flags & GRE_S, b + hlen, plen);
}

/* ERSPAN type II: version(4)=1 VLAN(12) COS(3) En(2) T(1) session(10) reserved(12)
 * index(20), then the mirrored Ethernet frame. */
enum dec_rc dec_erspan2(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < ERSPAN2_HLEN)
        return dec_bad(c, MON_DE_ERSPAN_TRUNCATED);
    if (b[0] >> 4 != 1)
        return dec_bad(c, MON_DE_ERSPAN_BAD_VERSION);
    if (!dec_tunnel(c, MON_T_ERSPAN) || !dec_push(c, MON_L_ERSPAN, b, ERSPAN2_HLEN))
        return DEC_BAD;
    return dec_next(c, DEC_NX_ETHERNET, b + ERSPAN2_HLEN, len - ERSPAN2_HLEN);
}

/* ERSPAN type III: version(4)=2 VLAN(12) COS(3) BSO(2) T(1) session(10) timestamp(32)
 * SGT(16) P(1) FT(5) HW ID(6) D(1) Gra(2) O(1) [platform subheader(64) if O]. */
enum dec_rc dec_erspan3(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < ERSPAN3_HLEN)
        return dec_bad(c, MON_DE_ERSPAN_TRUNCATED);
    if (b[0] >> 4 != 2)
        return dec_bad(c, MON_DE_ERSPAN_BAD_VERSION);
    uint32_t hlen = ERSPAN3_HLEN;
    if (b[11] & 1)
        hlen += ERSPAN3_SUBHLEN;
    if (hlen > len)
        return dec_bad(c, MON_DE_ERSPAN_TRUNCATED);
    if (!dec_tunnel(c, MON_T_ERSPAN) || !dec_push(c, MON_L_ERSPAN, b, hlen))
        return DEC_BAD;
    uint8_t ft = (b[10] >> 2) & 0x1f;
    if (ft == ERSPAN_FT_ETHERNET)
        return dec_next(c, DEC_NX_ETHERNET, b + hlen, len - hlen);
    if (ft == ERSPAN_FT_IP) {
        bool unknown;
        enum dec_rc rc = dec_ip_by_version(c, b + hlen, len - hlen, &unknown);
        if (!unknown)
            return rc;
    }
    return dec_non_ip(c, b + hlen, len - hlen);
}
