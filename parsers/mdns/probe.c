/* probe.c — is this mDNS? A datagram to or from UDP 5353 (Suricata's port; a flow's two
 * ports are either way round on UDP) and not port 53 (a resolver's query from 5353 to a DNS
 * server stays DNS), with a DNS header
 * that makes sense: a known opcode, at least one record and none of the counts absurd, and a
 * first name (a question's, else a record's: an announcement has no questions) that
 * decodes. Before DNS in the registry: DNS's probe takes port 5353 too. */
#include "mdns_int.h"

enum probe_verdict mdns_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (!f || !(f->sport == MDNS_PORT || f->cport == MDNS_PORT) || f->sport == 53 ||
        f->cport == 53 || n < 12)
        return DET_NO;
    uint16_t flags = rd_be16(d + 2);
    unsigned qd = rd_be16(d + 4), an = rd_be16(d + 6), ns = rd_be16(d + 8), ar = rd_be16(d + 10);
    if ((flags >> 11 & 0xf) > 6 || qd + an + ns + ar == 0 || qd > 512 || an > 512 ||
        ns > 512 || ar > 512)
        return DET_NO;
    uint8_t name[DNS_NAME_MAX];
    uint32_t nl;
    size_t next;
    if (dns_wire_name(d, n, 12, name, sizeof name, &nl, &next, NULL) != 0 ||
        next + (qd ? 4u : 10u) > n)
        return DET_NO;
    return DET_YES;
}
