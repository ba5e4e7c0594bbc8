/* probe.c — is this SMB? A NetBIOS session message (type 0) whose payload starts with an SMB1
 * (0xFF "SMB"), SMB2 (0xFE "SMB") or SMB2 transform (0xFD "SMB") header, from either side, on
 * any port (Suricata probes the same bytes). */
#include "smb_int.h"

enum probe_verdict smb_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    if (n >= 1 && d[0] != 0)
        return DET_NO;
    if (n >= 5 && d[4] != 0xFF && d[4] != 0xFE && d[4] != 0xFD)
        return DET_NO;
    for (size_t i = 5; i < n && i < 8; i++)
        if (d[i] != "SMB"[i - 5])
            return DET_NO;
    return n >= 8 ? DET_YES : DET_NEED_MORE;
}
