/* probe.c — is this Telnet? Either side opens with option negotiation: IAC, then WILL, WONT,
 * DO, DONT and an option, or SB (RFC 855) — what every Telnet client and server sends first.
 * Plain text on port 23 is not enough (Suricata's probe also looks for the IAC). */
#include "telnet_int.h"

enum probe_verdict telnet_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    if (n < 1)
        return DET_NEED_MORE;
    if (d[0] != TN_IAC)
        return DET_NO;
    if (n < 2)
        return DET_NEED_MORE;
    if (d[1] != TN_SB && (d[1] < TN_WILL || d[1] > TN_DONT))
        return DET_NO;
    return n < 3 ? DET_NEED_MORE : DET_YES;
}
