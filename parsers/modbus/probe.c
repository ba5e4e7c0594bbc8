/* probe.c — is this Modbus/TCP? Bytes to or from port 502 (Suricata's detection port) that
 * begin with an MBAP header: protocol id 0, a length of 2 to 254, a function code. */
#include "modbus_int.h"

enum probe_verdict modbus_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (!f || f->sport != 502)
        return DET_NO;
    if (n < MB_HDR_LEN + 1)
        return n >= 4 && rd_be16(d + 2) != 0 ? DET_NO : DET_NEED_MORE;
    uint16_t len = rd_be16(d + 4);
    if (rd_be16(d + 2) != 0 || len < 2 || len > MB_LEN_MAX || (d[7] & 0x7f) == 0)
        return DET_NO;
    return DET_YES;
}
