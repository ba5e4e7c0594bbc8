/* probe.c — is this the BitTorrent DHT? Suricata's pattern: a datagram that starts with a
 * query's "d1:ad2:id20:" (any port; a response alone does not decide a flow). */
#include <string.h>

#include "bt_int.h"

enum probe_verdict bt_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    static const char PREFIX[] = "d1:ad2:id20:";
    return n >= sizeof PREFIX - 1 && !memcmp(d, PREFIX, sizeof PREFIX - 1) ? DET_YES : DET_NO;
}
