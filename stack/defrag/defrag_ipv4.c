/* defrag_ipv4.c — IPv4 fragments in, whole IPv4 datagrams out (RFC 791, RFC 815).
 *
 * Fragments of one datagram share (source, destination, identification, protocol). The
 * datagram that comes out carries the header of the fragment that supplied its first byte
 * (options included), with total length, flags/offset and checksum rewritten.
 */
#include <string.h>

#include "defrag_internal.h"

static uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static uint16_t header_checksum(const uint8_t *h, uint32_t len)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i + 1 < len; i += 2)
        sum += get16(h + i);
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return (uint16_t)~sum;
}

static int build(struct mon_defrag *df, struct df_tracker *t, struct mon_decode_stats *st,
                 const uint8_t **out, uint32_t *out_len)
{
    const struct df_frag *first = df_first_frag(t);
    uint32_t hlen = first->hdr_len;
    uint32_t total = hlen + t->end;
    if (total > 65535) {
        /* Each fragment passed the check for a 20-byte header; this first fragment's
         * options push the whole past what an IPv4 length can say. */
        df_event(st, MON_DE_FRAG_TOO_LARGE);
        df_tracker_drop(df, t);
        return 0;
    }
    uint8_t *o = df_out_acquire(df, total);
    if (!o) {
        df->stats.memcap_drops++;
        df_event(st, MON_DE_FRAG_MEMCAP);
        df_tracker_drop(df, t);
        return 0;
    }
    memcpy(o, first->bytes, hlen);
    df_copy_payload(t, o + hlen);
    put16(o + 2, total);
    put16(o + 6, get16(o + 6) & 0xc000u); /* clear MF and the offset; keep DF and bit 0 */
    put16(o + 10, 0);
    put16(o + 10, header_checksum(o, hlen));
    df->stats.reassembled++;
    df_tracker_drop(df, t);
    *out = o;
    *out_len = total;
    return 1;
}

int mon_defrag_ipv4(struct mon_defrag *df, const uint8_t *iph, uint32_t len, uint64_t ts_us,
                    struct mon_decode_stats *st, const uint8_t **out, uint32_t *out_len)
{
    if (len < 20 || iph[0] >> 4 != 4) {
        df->stats.fragments++;
        df_event(st, MON_DE_FRAG_INVALID);
        return -1;
    }
    uint32_t hlen = (iph[0] & 0x0fu) * 4u;
    uint32_t totlen = get16(iph + 2);
    uint16_t fo = get16(iph + 6);
    bool more = fo & 0x2000u;
    uint32_t off = (fo & 0x1fffu) * 8u;
    if (!more && off == 0 && hlen >= 20 && hlen <= totlen && totlen <= len) {
        *out = iph; /* not a fragment: nothing to do */
        *out_len = totlen;
        return 1;
    }
    df->stats.fragments++;
    if (hlen < 20 || hlen > totlen || totlen > len) {
        df_event(st, MON_DE_FRAG_INVALID);
        return -1;
    }
    uint32_t dlen = totlen - hlen;
    if (dlen == 0 || (more && dlen % 8 != 0)) {
        /* Only the last fragment may end off an 8-byte boundary, and an empty fragment
         * carries nothing but a way to probe the reassembler. */
        df_event(st, MON_DE_FRAG_INVALID);
        return -1;
    }
    if (off + dlen > DF_IPV4_MAX_PAYLOAD) {
        df_event(st, MON_DE_FRAG_TOO_LARGE); /* ping of death */
        return -1;
    }

    struct df_input in;
    memset(&in, 0, sizeof in);
    memcpy(in.key.src.b, iph + 12, 4);
    memcpy(in.key.dst.b, iph + 16, 4);
    in.key.id = get16(iph + 4);
    in.key.ipver = 4;
    in.key.proto = iph[9];
    in.hdr = iph;
    in.hdr_len = hlen;
    in.data = iph + hlen;
    in.off = off;
    in.len = dlen;
    in.more = more;
    in.ts_us = ts_us;

    struct df_tracker *t = NULL;
    switch (df_feed(df, &in, st, &t)) {
    case DF_COMPLETE:
        return build(df, t, st, out, out_len);
    case DF_INVALID:
        return -1;
    case DF_KEPT:
    default:
        return 0;
    }
}
