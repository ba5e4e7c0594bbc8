/* probe.c — is this TLS? A handshake record (0x16 0x03 0x00-0x04) whose first message is a
 * ClientHello, or an SSLv2-framed ClientHello. */
#include "tls_int.h"

/* SSLv2-framed ClientHello (what clients that still offered SSLv2 sent first): a 2-byte
 * length with the top bit set, message type 1, then version 0x0002 or 0x0300–0x0304. */
static enum probe_verdict detect_sslv2_client_hello(const uint8_t *d, size_t n)
{
    if (n >= 3 && d[2] != 0x01)
        return DET_NO;
    if (n >= 4 && d[3] != 0x00 && d[3] != 0x03)
        return DET_NO;
    if (n >= 5 && (d[3] == 0x00 ? d[4] != 0x02 : d[4] > 0x04))
        return DET_NO;
    return n >= 5 ? DET_YES : DET_NEED_MORE;
}

enum probe_verdict detect_tls_client_hello(const uint8_t *d, size_t n)
{
    if (n >= 1 && (d[0] & 0x80))
        return detect_sslv2_client_hello(d, n);
    if (n >= 1 && d[0] != 0x16)
        return DET_NO;
    if (n >= 2 && d[1] != 0x03)
        return DET_NO;
    if (n >= 3 && d[2] > 0x04)
        return DET_NO;
    if (n >= 6 && d[5] != 0x01)
        return DET_NO;
    return n >= 6 ? DET_YES : DET_NEED_MORE;
}

