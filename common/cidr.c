/* cidr.c — see osprey_cidr.h. */
#include "osprey_cidr.h"

#include <arpa/inet.h>
#include <string.h>

/* The family follows from a ':' (inet_pton(AF_INET6) needs one, inet_pton(AF_INET) takes
 * none), so one inet_pton call decides. */
int osprey_ip_parse(const char *s, size_t n, struct osprey_cidr *out)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf)
        return OSPREY_CIDR_EADDR;
    memcpy(buf, s, n);
    buf[n] = '\0';
    memset(out->addr, 0, sizeof out->addr);
    if (memchr(buf, ':', n)) {
        out->ipver = 6;
        out->prefix = 128;
        return inet_pton(AF_INET6, buf, out->addr) == 1 ? 0 : OSPREY_CIDR_EADDR;
    }
    out->ipver = 4;
    out->prefix = 32;
    return inet_pton(AF_INET, buf, out->addr) == 1 ? 0 : OSPREY_CIDR_EADDR;
}

/* Decimal digits only (no sign, no space), at most max. */
static int prefix_len(const char *s, size_t n, unsigned max)
{
    if (n == 0)
        return -1;
    unsigned v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (unsigned)(s[i] - '0');
        if (v > max)
            return -1;
    }
    return (int)v;
}

/* A dotted netmask: contiguous ones from the top; their count. */
static int netmask(const char *s, size_t n)
{
    struct osprey_cidr m;
    if (osprey_ip_parse(s, n, &m) < 0 || m.ipver != 4)
        return OSPREY_CIDR_ENETMASK;
    uint32_t mm = (uint32_t)m.addr[0] << 24 | (uint32_t)m.addr[1] << 16 |
                  (uint32_t)m.addr[2] << 8 | m.addr[3];
    if (mm & (~mm >> 1)) /* a zero followed by a one */
        return OSPREY_CIDR_EGAPS;
    int bits = 0;
    while (mm & 0x80000000u) {
        bits++;
        mm <<= 1;
    }
    return bits;
}

int osprey_cidr_parse(const char *s, size_t n, unsigned flags, struct osprey_cidr *out)
{
    const char *slash = memchr(s, '/', n);
    size_t an = slash ? (size_t)(slash - s) : n;
    if (osprey_ip_parse(s, an, out) < 0)
        return OSPREY_CIDR_EADDR;
    if (!slash)
        return 0;
    const char *m = slash + 1;
    size_t mn = n - an - 1;
    int bits;
    if (out->ipver == 4 && (flags & OSPREY_CIDR_NETMASK) && memchr(m, '.', mn))
        bits = netmask(m, mn);
    else if ((bits = prefix_len(m, mn, out->ipver == 4 ? 32 : 128)) < 0)
        bits = OSPREY_CIDR_EPREFIX;
    if (bits < 0)
        return bits;
    out->prefix = (uint8_t)bits;
    return 0;
}
