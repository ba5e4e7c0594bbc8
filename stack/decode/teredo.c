/* teredo.c — Teredo (RFC 4380): IPv6 in UDP, optionally preceded by an authentication
 * indicator (0x0001, id length, auth length, client id, auth value, nonce(8),
 * confirmation(1)) and/or an origin indicator (0x0000, port(2), address(4)). Port 3544 is
 * only the server's, so a datagram is taken for Teredo only when what follows the
 * indicators is exactly one IPv6 packet; anything else stays plain UDP payload. */
#include "decode_internal.h"

#define AUTH_FIXED 4u   /* indicator type(2), id length(1), auth length(1) */
#define AUTH_TAIL 9u    /* nonce(8), confirmation(1) */
#define ORIGIN_LEN 8u
#define IPV6_HLEN 40u

enum dec_rc dec_teredo(struct dec *c, const uint8_t *b, uint32_t len)
{
    uint32_t off = 0;
    if (len >= 2 && rd16(b) == 0x0001) {
        if (len < AUTH_FIXED)
            return dec_bad(c, MON_DE_TEREDO_TRUNCATED);
        uint32_t n = AUTH_FIXED + b[2] + b[3] + AUTH_TAIL;
        if (n > len)
            return dec_bad(c, MON_DE_TEREDO_TRUNCATED);
        off = n;
    }
    if (len - off >= 2 && rd16(b + off) == 0x0000) {
        if (len - off < ORIGIN_LEN)
            return dec_bad(c, MON_DE_TEREDO_TRUNCATED);
        off += ORIGIN_LEN;
    }
    const uint8_t *in = b + off;
    uint32_t inlen = len - off;
    if (inlen < IPV6_HLEN || in[0] >> 4 != 6 || IPV6_HLEN + rd16(in + 4) != inlen)
        return DEC_OK;  /* not Teredo after all */
    if (!dec_tunnel(c, MON_T_TEREDO) || !dec_push(c, MON_L_TEREDO, b, off))
        return DEC_BAD;
    return dec_next(c, DEC_NX_IPV6, in, inlen);
}
