/* probe.c — is this NTP? A datagram to or from port 123 (Suricata's port) that decodes as a
 * message of version 1 to 4 (ntp_decode). */
#include "ntp_int.h"

enum probe_verdict ntp_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    struct ntp_msg m;
    if (!f || !(f->sport == 123 || f->cport == 123))
        return DET_NO;
    return ntp_decode(&m, d, n) ? DET_YES : DET_NO;
}
