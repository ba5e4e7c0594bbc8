/* probe.c — is a flow's first datagram QUIC? On UDP port 443 or 80 (either end: Suricata's
 * default ports for QUIC, which it probes only there), a datagram whose first packet header
 * parses in one of the forms header.c reads. */
#include "quic_int.h"

enum probe_verdict quic_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    bool port = f && (f->sport == 443 || f->sport == 80 || f->cport == 443 || f->cport == 80);
    struct quic_hdr h;
    return port && quic_header(d, n, &h) ? DET_YES : DET_NO;
}
