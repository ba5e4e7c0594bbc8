/* sctp.c — SCTP (RFC 9260) common header: ports and verification tag, and a walk over the
 * chunks behind it for what Suricata raises as decoder events (notes: the packet stays a
 * valid SCTP packet, its chunks its payload). The CRC32c checksum is not validated. */
#include "decode_internal.h"

#define SCTP_HLEN 12u  /* source port, destination port, verification tag, checksum */
#define SCTP_CHUNK_HLEN 4u  /* type, flags, length (header included, padding not) */
#define SCTP_MAX_CHUNKS 16u /* chunks Suricata tracks per packet: more is too_many_chunks */

enum { CHUNK_DATA = 0, CHUNK_INIT = 1 };

static void note(struct mon_packet *p, enum mon_decode_note n)
{
    p->decode_notes |= 1ull << n;
}

/* The chunks of b[0..len) (behind the common header), under verification tag vtag. */
static void chunks(struct mon_packet *p, const uint8_t *b, uint32_t len, uint32_t vtag)
{
    uint32_t i = 0, n = 0;
    bool init = false;
    while (i < len) {
        if (len - i < SCTP_CHUNK_HLEN) {
            note(p, MON_DN_SCTP_CHUNK_TOO_SMALL);
            break;
        }
        uint32_t clen = rd16(b + i + 2);
        if (clen < SCTP_CHUNK_HLEN || clen > len - i) {
            note(p, MON_DN_SCTP_CHUNK_LEN_INVALID);
            break;
        }
        if (b[i] == CHUNK_INIT) {
            init = true;
            if (vtag != 0)
                note(p, MON_DN_SCTP_INIT_VTAG);
        }
        if (b[i] == CHUNK_DATA && vtag == 0)
            note(p, MON_DN_SCTP_DATA_ZERO_VTAG);
        if (++n == SCTP_MAX_CHUNKS + 1)
            note(p, MON_DN_SCTP_TOO_MANY_CHUNKS);
        /* chunks are padded to 4 bytes; the last one's padding may be missing */
        uint32_t step = (clen + 3u) & ~3u;
        i = step > len - i ? len : i + step;
    }
    if (init && n > 1)
        note(p, MON_DN_SCTP_INIT_BUNDLED);
}

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
    chunks(p, p->payload, p->payload_len, rd32(b + 4));
    return DEC_OK;
}
