/* probe.c — is this SMB? A NetBIOS session message (type 0) whose payload starts with an SMB1
 * (0xFF "SMB"), SMB2 (0xFE "SMB") or SMB2 transform (0xFD "SMB") header, on any port (Suricata
 * probes the same bytes); from the client a request, from the server a reply (the header's
 * reply flag, as Suricata's midstream probe reads it: a reply seen first orients a flow picked
 * up midstream). */
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

/* The header's reply flag: SMB1's FLAGS_REPLY (0x80 in Flags), SMB2's SERVER_TO_REDIR (bit 0
 * of Flags); -1 when the bytes do not show it yet, 2 for a transform header (no flag). */
static int reply_flag(const uint8_t *d, size_t n)
{
    if (d[4] == 0xFF)
        return n < 14 ? -1 : (d[13] & 0x80) != 0;
    if (d[4] == 0xFE)
        return n < 21 ? -1 : (d[20] & 0x01) != 0;
    return 2;
}

static enum probe_verdict probe_dir(const uint8_t *d, size_t n, const struct mon_flow *f,
                                    int reply)
{
    enum probe_verdict v = smb_probe(d, n, f);
    if (v != DET_YES)
        return v;
    int r = reply_flag(d, n);
    if (r < 0)
        return DET_NEED_MORE;
    return r == 2 || r == reply ? DET_YES : DET_NO;
}

enum probe_verdict smb_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    return probe_dir(d, n, f, 0);
}

enum probe_verdict smb_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    return probe_dir(d, n, f, 1);
}
