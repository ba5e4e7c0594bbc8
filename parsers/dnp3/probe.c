/* probe.c — is this DNP3? TCP to or from port 20000 whose first bytes are a link frame's
 * header: start bytes 0x05 0x64, a length of at least 5 and a header CRC that checks. */
#include "dnp3_int.h"

enum probe_verdict dnp3_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (!f || f->sport != DNP3_PORT)
        return DET_NO;
    if ((n >= 1 && d[0] != 0x05) || (n >= 2 && d[1] != 0x64))
        return DET_NO;
    if (n < DNP3_LINK_HDR)
        return DET_NEED_MORE;
    return d[2] >= 5 && dnp3_crc(d, 8) == rd_le16(d + 8) ? DET_YES : DET_NO;
}
