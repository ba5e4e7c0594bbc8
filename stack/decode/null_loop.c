/* null_loop.c — BSD loopback: DLT_NULL (address family in the capturing host's byte
 * order) and DLT_LOOP (network order). Captures move between hosts, so both orders and
 * every OS's AF_INET6 value are accepted for both link types. */
#include "decode_internal.h"

#define NULL_HLEN 4u

enum {
    AF_V4 = 2,
    AF_V6_LINUX = 10, AF_V6_WINDOWS = 23, AF_V6_BSD = 24, AF_V6_FREEBSD = 28,
    AF_V6_DARWIN = 30,
};

static int family_ipver(uint32_t af)
{
    switch (af) {
    case AF_V4:
        return 4;
    case AF_V6_LINUX: case AF_V6_WINDOWS: case AF_V6_BSD: case AF_V6_FREEBSD:
    case AF_V6_DARWIN:
        return 6;
    default:
        return 0;
    }
}

enum dec_rc dec_null(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len < NULL_HLEN) {
        dec_mark(c, MON_DN_LTNULL_TOO_SMALL);
        return dec_bad(c, MON_DE_LINK_TRUNCATED);
    }
    if (!dec_push(c, MON_L_NULL, b, NULL_HLEN))
        return DEC_BAD;
    int ver = family_ipver(rd32(b));
    if (!ver)
        ver = family_ipver(rd32le(b));
    if (ver == 4)
        return dec_next(c, DEC_NX_IPV4, b + NULL_HLEN, len - NULL_HLEN);
    if (ver == 6)
        return dec_next(c, DEC_NX_IPV6, b + NULL_HLEN, len - NULL_HLEN);
    dec_mark(c, MON_DN_LTNULL_UNSUPPORTED);
    return dec_non_ip(c, b + NULL_HLEN, len - NULL_HLEN);
}
