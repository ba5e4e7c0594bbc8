/* raw.c — raw IP link types (DLT_RAW / LINKTYPE_RAW): the version nibble picks the header. */
#include "decode_internal.h"

enum dec_rc dec_raw(struct dec *c, const uint8_t *b, uint32_t len)
{
    if (len == 0)
        return dec_bad(c, MON_DE_LINK_TRUNCATED);
    bool unknown;
    enum dec_rc rc = dec_ip_by_version(c, b, len, &unknown);
    return unknown ? dec_bad(c, MON_DE_IPRAW_BAD_VERSION) : rc;
}
