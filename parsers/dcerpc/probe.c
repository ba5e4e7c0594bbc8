/* probe.c — is this DCERPC? Connection-oriented (TCP, either side first, any port): the
 * common header of a version 5.0 or 5.1 PDU, a known PDU type, a data representation whose
 * integer and character bytes are defined, and a fragment length of at least the header.
 * Connectionless (UDP): a version 4 header of a known type, whole (80 bytes), with the same
 * data representation check (C706 §12.5.3, §12.6.3). */
#include "dcerpc_int.h"

static bool drep_ok(uint8_t b)
{
    return (b & 0xEE) == 0; /* integer rep 0/1 (high nibble), character rep 0/1 */
}

enum probe_verdict dce_probe_co(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    if (n >= 1 && d[0] != 5)
        return DET_NO;
    if (n >= 2 && d[1] > 1)
        return DET_NO;
    if (n >= 3 && d[2] > 19)
        return DET_NO;
    if (n >= 5 && !drep_ok(d[4]))
        return DET_NO;
    if (n < 10)
        return DET_NEED_MORE;
    return rd_u16(d + 8, d[4] & 0x10) >= DCE_CO_HDR ? DET_YES : DET_NO;
}

enum probe_verdict dce_probe_cl(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    if (n < DCE_CL_HDR || d[0] != 4 || d[1] > 10 || !drep_ok(d[4]))
        return DET_NO;
    return DET_YES;
}
