/* nflog.c — Linux NFLOG (DLT_NFLOG): a 4-byte header, then netlink-style TLVs; the packet
 * is the NFULA_PAYLOAD TLV. TLV lengths and types are in the capturing host's byte order,
 * so little-endian is tried first and big-endian if the TLV chain does not fit. */
#include "decode_internal.h"

#define NFLOG_HLEN 4u
#define TLV_HLEN 4u

enum {
    NFULA_PAYLOAD = 9,
    NLA_TYPE_MASK = 0x3fff,  /* the top two bits are netlink's nested/byte-order flags */
    NFLOG_AF_INET = 2, NFLOG_AF_INET6 = 10,
};

/* Walk the TLVs; false when they do not tile the frame in this byte order. */
static bool tlv_walk(const uint8_t *b, uint32_t len, bool le, uint32_t *poff, uint32_t *plen)
{
    uint32_t off = NFLOG_HLEN;
    *poff = *plen = 0;
    while (len - off >= TLV_HLEN) {
        uint32_t tl = le ? rd16le(b + off) : rd16(b + off);
        uint32_t type = (le ? rd16le(b + off + 2) : rd16(b + off + 2)) & NLA_TYPE_MASK;
        if (tl < TLV_HLEN || tl > len - off)
            return false;
        if (type == NFULA_PAYLOAD && *poff == 0) {
            *poff = off + TLV_HLEN;
            *plen = tl - TLV_HLEN;
        }
        uint32_t step = (tl + 3u) & ~3u;  /* TLVs are 4-byte aligned */
        if (step > len - off)
            break;  /* the last TLV's padding may be cut */
        off += step;
    }
    return true;
}

enum dec_rc dec_nflog(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < NFLOG_HLEN)
        return dec_bad(c, MON_DE_LINK_TRUNCATED);
    if (b[1] != 0)  /* version */
        return dec_bad(c, MON_DE_NFLOG_MALFORMED);
    uint32_t poff, plen;
    if (!tlv_walk(b, len, true, &poff, &plen) && !tlv_walk(b, len, false, &poff, &plen))
        return dec_bad(c, MON_DE_NFLOG_MALFORMED);
    if (poff == 0)  /* logged without the packet */
        return dec_push(c, MON_L_NFLOG, b, len) ? DEC_OK : DEC_BAD;
    if (!dec_push(c, MON_L_NFLOG, b, poff))
        return DEC_BAD;
    const uint8_t *in = b + poff;
    switch (b[0]) {
    case NFLOG_AF_INET:
        return dec_next(c, DEC_NX_IPV4, in, plen);
    case NFLOG_AF_INET6:
        return dec_next(c, DEC_NX_IPV6, in, plen);
    default: {
        bool unknown;
        enum dec_rc rc = dec_ip_by_version(c, in, plen, &unknown);
        return unknown ? dec_non_ip(c, in, plen) : rc;
    }
    }
}
