/* probe.c — is this IKE? A datagram to or from port 500, or 4500 with the non-ESP marker
 * (RFC 3948 §2.2), whose header is sane: version 1.x or 2.x, an exchange type of its version
 * (IKEv1 1-6 and 32-33; IKEv2 34-43), a length of at least the header's. */
#include "ike_int.h"

enum probe_verdict ike_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (!f || !(f->sport == 500 || f->cport == 500 || f->sport == 4500 || f->cport == 4500))
        return DET_NO;
    int at = ike_offset(d, n, f);
    if (at < 0 || n - (size_t)at < IKE_HDR_LEN)
        return DET_NO;
    d += at;
    uint8_t maj = d[17] >> 4, exch = d[18];
    if (rd_be32(d + 24) < IKE_HDR_LEN)
        return DET_NO;
    if (maj == 1 && ((exch >= 1 && exch <= 6) || exch == 32 || exch == 33))
        return DET_YES;
    if (maj == 2 && exch >= 34 && exch <= 43)
        return DET_YES;
    return DET_NO;
}
