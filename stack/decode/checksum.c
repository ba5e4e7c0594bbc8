/* checksum.c — Internet checksums (RFC 1071) for IPv4 headers and TCP/UDP/ICMP/ICMPv6. */
#include "decode_internal.h"

/* Sum of 16-bit big-endian words; an odd last byte is padded with zero. 64 bits of
 * accumulator cannot overflow even for a jumbogram. */
uint64_t csum_add(uint64_t sum, const uint8_t *b, uint32_t len)
{
    uint32_t i = 0;
    for (; i + 1 < len; i += 2)
        sum += (uint32_t)b[i] << 8 | b[i + 1];
    if (i < len)
        sum += (uint32_t)b[i] << 8;
    return sum;
}

uint16_t csum_fold(uint64_t sum)
{
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return (uint16_t)~sum;
}

uint64_t csum_pseudo(const struct mon_packet *p, uint8_t proto, uint32_t len)
{
    uint64_t sum;
    if (p->ipver == 4) {
        sum = csum_add(0, p->src.b, 4);
        sum = csum_add(sum, p->dst.b, 4);
    } else {
        sum = csum_add(0, p->src.b, 16);
        sum = csum_add(sum, p->dst.b, 16);
    }
    return sum + proto + (len >> 16) + (len & 0xffff);
}

void dec_csum_result(struct dec *c, bool ok, enum mon_decode_event e, uint32_t flag)
{
    c->csum_checked = true;
    if (ok)
        return;
    c->csum_bad = true;
    c->p->flags |= flag;
    dec_note(c, e);
}
