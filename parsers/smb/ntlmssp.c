/* ntlmssp.c — the NTLMSSP AUTHENTICATE message (MS-NLMP 2.2.1.3) in a session setup's
 * security blob (raw, or inside SPNEGO: found by its signature): its domain, user and
 * workstation names (UTF-16LE under NTLMSSP_NEGOTIATE_UNICODE, else OEM bytes; at most
 * SMB_NTLM_MAX bytes each, non-ASCII as '?') into the transaction. */
#include <string.h>

#include "smb_int.h"

/* field: Len, MaxLen, Offset (from the message's start) */
static bool field(const uint8_t *msg, uint32_t n, uint32_t at, bool unicode, uint8_t *out,
                  uint32_t *out_len)
{
    uint32_t len = rd_le16(msg + at), off = rd_le32(msg + at + 4);
    if (off > n || len > n - off)
        return false;
    *out_len = smb_str(out, SMB_NTLM_MAX, msg + off, len, unicode);
    return true;
}

bool smb_ntlmssp(struct smb_tx *tx, const uint8_t *blob, uint32_t n)
{
    const uint8_t *msg = blob ? memmem(blob, n, "NTLMSSP\0", 8) : NULL;
    if (!msg)
        return false;
    n -= (uint32_t)(msg - blob);
    if (n < 64 || rd_le32(msg + 8) != 3) /* AUTHENTICATE only */
        return false;
    bool unicode = rd_le32(msg + 60) & 1;
    if (!field(msg, n, 28, unicode, tx->domain, &tx->domain_len) ||
        !field(msg, n, 36, unicode, tx->user, &tx->user_len) ||
        !field(msg, n, 44, unicode, tx->host, &tx->host_len))
        return false;
    tx->ntlm = true;
    return true;
}
