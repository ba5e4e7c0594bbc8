/* probe.c — is this DNS? A header that makes sense and a first question that decodes; over
 * TCP with port 53 as a hint, over UDP off port 53 only a plain one-question query or
 * response (dns_probe_udp). */
#include "dns_int.h"

enum probe_verdict detect_dns(const uint8_t *d, size_t n, bool tcp)
{
    size_t msglen = n;
    if (tcp) {
        if (n < 2)
            return DET_NEED_MORE;
        msglen = rd_be16(d);
        if (msglen < 12)
            return DET_NO;
        d += 2, n -= 2;
        if (n > msglen)
            n = msglen;
    }
    if (n < 12)
        return tcp ? DET_NEED_MORE : DET_NO;
    uint16_t flags = rd_be16(d + 2), qd = rd_be16(d + 4), an = rd_be16(d + 6), ns = rd_be16(d + 8),
             ar = rd_be16(d + 10);
    /* the reserved Z bit does not decide: Suricata takes such a message as DNS and raises
     * dns.z_flag_set (only the stricter off-port probe below refuses it) */
    unsigned opcode = flags >> 11 & 0xf;
    if (opcode > 5 || qd == 0)
        return DET_NO;
    /* over TCP (on a DNS port) Suricata's bound: each record takes 2 bytes at least; a
     * datagram is held to counts a resolver sends */
    if (tcp ? 2u * ((size_t)qd + an + ns + ar) > msglen
            : qd > 32 || an > 512 || ns > 512 || ar > 512)
        return DET_NO;
    uint8_t name[DNS_NAME_MAX];
    uint32_t nl;
    size_t next;
    /* a TCP message not all here yet (detection holds only its first bytes): its header
     * decides, as Suricata's probe decides from the header of a message it has not whole */
    if (dns_wire_name(d, n, 12, name, sizeof name, &nl, &next, NULL) != 0 || next + 4 > n)
        return tcp && n < msglen ? DET_YES : DET_NO;
    uint16_t qclass = rd_be16(d + next + 2) & 0x7fff; /* mDNS: the top bit asks for unicast */
    if (qclass != 1 && qclass != 3 && qclass != 4 && qclass != 255 && !(flags & 0x8000))
        return DET_NO;
    return DET_YES;
}

enum probe_verdict detect_dns_strict(const uint8_t *d, size_t n)
{
    if (detect_dns(d, n, false) != DET_YES)
        return DET_NO;
    uint16_t flags = rd_be16(d + 2), qd = rd_be16(d + 4), an = rd_be16(d + 6);
    bool response = flags & 0x8000;
    if (qd != 1 || (flags >> 11 & 0xf) != 0 || (flags >> 6 & 1) || (!response && an != 0))
        return DET_NO;
    return DET_YES;
}
