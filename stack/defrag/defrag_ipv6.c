/* defrag_ipv6.c — IPv6 fragments in, whole IPv6 packets out (RFC 8200 §4.5).
 *
 * Fragments of one packet share (source, destination, identification). The packet that
 * comes out is the unfragmentable part of the fragment that supplied the first byte, then the
 * reassembled fragmentable part: the Fragment header is gone, the header that named it now
 * names what the Fragment header named, and the payload length covers the whole.
 */
#include <string.h>

#include "defrag_internal.h"

static uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

/* Write unfrag part + payload to a fresh output buffer and fix the header. */
static uint8_t *emit(struct mon_defrag *df, const uint8_t *unfrag, uint32_t unfrag_len,
                     uint32_t prev_nh_off, uint8_t nh, uint32_t payload_len)
{
    uint8_t *o = df_out_acquire(df, unfrag_len + payload_len);
    if (!o)
        return NULL;
    memcpy(o, unfrag, unfrag_len);
    put16(o + 4, unfrag_len - 40 + payload_len);
    o[prev_nh_off] = nh;
    return o;
}

static int build(struct mon_defrag *df, struct df_tracker *t, struct mon_decode_stats *st,
                 const uint8_t **out, uint32_t *out_len)
{
    const struct df_frag *first = df_first_frag(t);
    uint32_t unfrag_len = first->hdr_len;
    if (unfrag_len - 40 + t->end > 65535) {
        df_event(st, MON_DE_FRAG_TOO_LARGE); /* extension headers push it past 64 KiB */
        df_tracker_drop(df, t);
        return 0;
    }
    uint8_t *o = emit(df, first->bytes, unfrag_len, first->prev_nh_off, first->nh, t->end);
    if (!o) {
        df->stats.memcap_drops++;
        df_event(st, MON_DE_FRAG_MEMCAP);
        df_tracker_drop(df, t);
        return 0;
    }
    df_copy_payload(t, o + unfrag_len);
    *out = o;
    *out_len = unfrag_len + t->end;
    df->stats.reassembled++;
    df_tracker_drop(df, t);
    return 1;
}

int mon_defrag_ipv6(struct mon_defrag *df, const uint8_t *ip6h, uint32_t unfrag_len,
                    uint32_t prev_nh_off, uint32_t len, uint64_t ts_us,
                    struct mon_decode_stats *st, const uint8_t **out, uint32_t *out_len)
{
    df->stats.fragments++;
    if (len < 40 || ip6h[0] >> 4 != 6 || unfrag_len < 40 || unfrag_len > len ||
        len - unfrag_len < 8 || prev_nh_off >= unfrag_len || ip6h[prev_nh_off] != 44) {
        df_event(st, MON_DE_FRAG_INVALID);
        return -1;
    }
    uint32_t plen = get16(ip6h + 4);
    uint32_t total = 40 + plen;
    if (plen == 0 || total > len || total < unfrag_len + 8) {
        /* A jumbogram cannot be fragmented (RFC 2675), and the payload length must cover
         * the Fragment header it is carried with. */
        df_event(st, MON_DE_FRAG_INVALID);
        return -1;
    }
    const uint8_t *fh = ip6h + unfrag_len;
    uint16_t offlg = get16(fh + 2);
    uint32_t off = offlg & 0xfff8u;
    bool more = offlg & 1u;
    uint32_t dlen = total - unfrag_len - 8;

    if (off == 0 && !more) {
        /* An atomic fragment stands alone (RFC 6946): strip the header, never track it. */
        uint8_t *o = emit(df, ip6h, unfrag_len, prev_nh_off, fh[0], dlen);
        if (!o) {
            df->stats.memcap_drops++;
            df_event(st, MON_DE_FRAG_MEMCAP);
            return 0;
        }
        memcpy(o + unfrag_len, fh + 8, dlen);
        df->stats.reassembled++;
        *out = o;
        *out_len = unfrag_len + dlen;
        return 1;
    }
    if (dlen == 0 || (more && dlen % 8 != 0)) {
        df_event(st, MON_DE_FRAG_INVALID); /* RFC 8200: discard such a fragment */
        return -1;
    }
    if (off + dlen > DF_IPV6_MAX_PAYLOAD) {
        df_event(st, MON_DE_FRAG_TOO_LARGE);
        return -1;
    }

    struct df_input in;
    memset(&in, 0, sizeof in);
    memcpy(in.key.src.b, ip6h + 8, 16);
    memcpy(in.key.dst.b, ip6h + 24, 16);
    in.key.id = get32(fh + 4);
    in.key.ipver = 6;
    in.hdr = ip6h;
    in.hdr_len = unfrag_len;
    in.prev_nh_off = prev_nh_off;
    in.nh = fh[0];
    in.data = fh + 8;
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
