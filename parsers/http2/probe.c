/* probe.c — is this HTTP/2? The client's connection preface ("PRI * HTTP/2.0…", prior
 * knowledge), or from the server a first frame that is a SETTINGS frame on stream 0 (RFC
 * 9113 §3.4: the server's preface), as Suricata probes both sides. */
#include "http2_int.h"

enum probe_verdict h2_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    return probe_prefix(d, n, H2_PREFACE, H2_PREFACE_LEN);
}

enum probe_verdict h2_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    if (n < H2_HDR)
        return n >= 4 && d[3] != H2_SETTINGS ? DET_NO : DET_NEED_MORE;
    uint32_t len = (uint32_t)d[0] << 16 | (uint32_t)d[1] << 8 | d[2];
    uint32_t sid = ((uint32_t)d[5] << 24 | (uint32_t)d[6] << 16 | (uint32_t)d[7] << 8 | d[8]) &
                   0x7fffffffu;
    /* not an ACK (flags 0), on stream 0, whole settings of 6 bytes, a sane size */
    if (d[3] != H2_SETTINGS || d[4] != 0 || sid != 0 || len % 6 || len > 6 * 16)
        return DET_NO;
    return DET_YES;
}
