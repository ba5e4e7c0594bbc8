/* probe.c — is this DHCP? A datagram to or from port 67 or 68 (Suricata's ports) holding a
 * BOOTP header (op 1 or 2, a hardware address length of at most 16) and the DHCP magic
 * cookie (RFC 2131 §3). */
#include "dhcp_int.h"

enum probe_verdict dhcp_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (!f || !(f->sport == 67 || f->sport == 68 || f->cport == 67 || f->cport == 68))
        return DET_NO;
    if (n < DHCP_OPTIONS_AT || (d[0] != DHCP_BOOTREQUEST && d[0] != DHCP_BOOTREPLY) ||
        d[2] > 16 || rd_be32(d + DHCP_HDR_LEN) != DHCP_COOKIE)
        return DET_NO;
    return DET_YES;
}
