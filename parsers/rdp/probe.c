/* probe.c — is this RDP? The client's first TPKT (version 3, RFC 1006) carries an X.224
 * Connection Request (code 0xE0, ITU-T X.224 §13.3), the server's a Connection Confirm
 * (0xD0); the TPKT's length covers at least the X.224 header its length indicator gives. */
#include "rdp_int.h"

static enum probe_verdict tpkt_x224(const uint8_t *d, size_t n, uint8_t code)
{
    if (n < 6)
        return n && d[0] != 3 ? DET_NO : DET_NEED_MORE;
    uint16_t len = rd_be16(d + 2);
    if (d[0] != 3 || d[1] != 0 || len < 11 || d[4] < 6 || (size_t)d[4] + 5 > len ||
        (d[5] & 0xf0) != code)
        return DET_NO;
    return DET_YES;
}

enum probe_verdict rdp_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    return tpkt_x224(d, n, 0xe0);
}

enum probe_verdict rdp_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    return tpkt_x224(d, n, 0xd0);
}
