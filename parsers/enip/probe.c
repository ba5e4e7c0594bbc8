/* probe.c — is this EtherNet/IP? TCP or UDP to or from port 44818 whose first bytes are an
 * encapsulation header with a command the specification defines (CIP Vol 2 §2-3.2). */
#include "enip_int.h"

enum probe_verdict enip_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (!f || f->sport != ENIP_PORT)
        return DET_NO;
    if (n < 2)
        return DET_NEED_MORE;
    if (!enip_command_known(rd_le16(d)))
        return DET_NO;
    return n < ENIP_HDR_LEN ? DET_NEED_MORE : DET_YES;
}
