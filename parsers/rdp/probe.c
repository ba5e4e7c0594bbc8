/* probe.c — is this RDP? The client's first TPKT (version 3, RFC 1006) carries an X.224
 * Connection Request (code 0xE0, ITU-T X.224 §13.3), the server's a Connection Confirm
 * (0xD0), whose variable part is RDP's: nothing, a cookie or routing token ("Cookie: "), or
 * an 8-byte negotiation message (MS-RDPBCGR 2.2.1.1.1, 2.2.1.2.1). Other ISO transport users
 * (S7comm's COTP carries TSAP parameters there) are not RDP. */
#include <string.h>

#include "rdp_int.h"

static enum probe_verdict tpkt_x224(const uint8_t *d, size_t n, uint8_t code, uint8_t neg)
{
    if (n < 6)
        return n && d[0] != 3 ? DET_NO : DET_NEED_MORE;
    uint16_t len = rd_be16(d + 2);
    if (d[0] != 3 || d[1] != 0 || len < 11 || d[4] < 6 || (size_t)d[4] + 5 > len ||
        (d[5] & 0xf0) != code)
        return DET_NO;
    size_t vn = d[4] - 6u; /* the variable part, after the fixed 6 bytes */
    if (n < 11u + vn)
        return DET_NEED_MORE;
    const uint8_t *v = d + 11;
    if (vn == 0 || (vn >= 8 && !memcmp(v, "Cookie: ", 8)))
        return DET_YES;
    if (vn >= 8 && (v[0] == neg || v[0] == 0x03) && v[2] == 8 && v[3] == 0)
        return DET_YES; /* RDP_NEG_REQ (1) / RSP (2) / FAILURE (3), length 8 */
    return DET_NO;
}

enum probe_verdict rdp_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    return tpkt_x224(d, n, 0xe0, 0x01);
}

enum probe_verdict rdp_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    return tpkt_x224(d, n, 0xd0, 0x02);
}
