/* sctp.c — SCTP (RFC 9260) common header: ports and verification tag. The chunks behind it
 * are payload; the CRC32c checksum is not validated. */
#include "decode_internal.h"

#define SCTP_HLEN 12u  /* source port, destination port, verification tag, checksum */

enum dec_rc dec_sctp(struct dec *c, const uint8_t *b, uint32_t len)
{
    struct mon_packet *p = c->p;
    if (len < SCTP_HLEN)
        return dec_bad(c, MON_DE_SCTP_TRUNCATED);
    if (!dec_push(c, MON_L_SCTP, b, SCTP_HLEN))
        return DEC_BAD;
    p->sport = rd16(b);
    p->dport = rd16(b + 2);
    p->flags |= MON_PKT_HAS_L4;
    p->l4 = b;
    p->l4_len = len;
    p->payload = b + SCTP_HLEN;
    p->payload_len = len - SCTP_HLEN;
    return DEC_OK;
}
