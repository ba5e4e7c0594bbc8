/* probe.c — is this RFB? Either side's first bytes are a ProtocolVersion message, "RFB
 * xxx.yyy\n" (RFC 6143 §7.1.1: the server sends it first, the client answers with one). */
#include "rfb_int.h"

enum probe_verdict rfb_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    static const char pat[] = "RFB ddd.ddd\n"; /* d: a digit */
    for (size_t i = 0; i < 12; i++) {
        if (i >= n)
            return DET_NEED_MORE;
        bool ok = pat[i] == 'd' ? d[i] >= '0' && d[i] <= '9' : d[i] == (uint8_t)pat[i];
        if (!ok)
            return DET_NO;
    }
    return DET_YES;
}
