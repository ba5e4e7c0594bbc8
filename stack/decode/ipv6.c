/* ipv6.c — IPv6 header (RFC 8200), extension headers, jumbograms (RFC 2675), fragments. */
#include "decode_internal.h"
#include "mon_defrag.h"

#define IPV6_HLEN 40u
#define IPV6_FRAG_HLEN 8u
/* Real stacks use a handful; a long chain is an evasion attempt or garbage. */
#define IPV6_MAX_EXT 8u

enum {
    OPT_PAD1 = 0, OPT_JUMBO = 0xc2, JUMBO_OPT_LEN = 4,
    EXP1 = 253, EXP2 = 254,  /* RFC 3692 experimental extension headers */
};

/* Options of a hop-by-hop or destination options header (after next header and length)
 * must tile it exactly. Reports a jumbo payload option if there is one. */
static bool options_valid(const uint8_t *o, uint32_t n, bool *jumbo, uint32_t *jumbo_len)
{
    uint32_t i = 0;
    while (i < n) {
        if (o[i] == OPT_PAD1) {
            i++;
            continue;
        }
        if (n - i < 2 || o[i + 1] > n - i - 2)
            return false;
        if (o[i] == OPT_JUMBO) {
            if (o[i + 1] != JUMBO_OPT_LEN)
                return false;
            *jumbo = true;
            *jumbo_len = rd32(o + i + 2);
        }
        i += 2u + o[i + 1];
    }
    return true;
}

/* Length of the datagram (header + payload) from the payload length, or from the jumbo
 * option when the payload length is 0. 0 = invalid (anomaly counted). */
static uint32_t datagram_len(struct dec *c, const uint8_t *b, uint32_t len)
{
    uint32_t plen = rd16(b + 4);
    if (plen != 0) {
        if (plen > len - IPV6_HLEN) {
            dec_bad(c, MON_DE_IPV6_PLEN_OVER_CAPLEN);
            return 0;
        }
        return IPV6_HLEN + plen;
    }
    /* An empty datagram: its next header's decoder finds nothing to read (TCP, UDP, ICMPv6:
     * their pkt_too_small, as in Suricata); no next header, or one with no decoder, is fine. */
    if (b[6] != DEC_IP_HOPOPTS)
        return IPV6_HLEN;
    /* Payload length 0 with hop-by-hop options: only valid as a jumbogram. */
    if (len - IPV6_HLEN < 2 || (b[IPV6_HLEN + 1] + 1u) * 8u > len - IPV6_HLEN) {
        dec_bad(c, MON_DE_IPV6_EXTHDR_TRUNCATED);
        return 0;
    }
    bool jumbo = false;
    uint32_t jlen = 0;
    if (!options_valid(b + IPV6_HLEN + 2, (b[IPV6_HLEN + 1] + 1u) * 8u - 2, &jumbo, &jlen)) {
        dec_bad(c, MON_DE_IPV6_EXTHDR_BAD_OPTLEN);
        return 0;
    }
    if (!jumbo) {
        dec_bad(c, MON_DE_IPV6_ZERO_LEN_PAYLOAD);
        return 0;
    }
    if (jlen <= 0xffff) {  /* a jumbo option must be needed */
        dec_bad(c, MON_DE_IPV6_BAD_JUMBO);
        return 0;
    }
    if (jlen > len - IPV6_HLEN) {
        dec_bad(c, MON_DE_IPV6_PLEN_OVER_CAPLEN);
        return 0;
    }
    return IPV6_HLEN + jlen;
}

static enum dec_rc ipv6(struct dec *c, const uint8_t *b, uint32_t len, bool reassembled)
{
    struct mon_packet *p = c->p;
    if (len < IPV6_HLEN)
        return dec_bad(c, MON_DE_IPV6_TRUNCATED);
    if (b[0] >> 4 != 6)
        return dec_bad(c, MON_DE_IPV6_BAD_VERSION);
    uint32_t end = datagram_len(c, b, len);
    if (end == 0)
        return DEC_BAD;
    bool plen_zero = rd16(b + 4) == 0;

    uint8_t saved_layers = p->nlayers;
    if (!dec_push(c, MON_L_IPV6, b, IPV6_HLEN))
        return DEC_BAD;
    dec_ip_enter(c);
    p->ipver = 6;
    p->ttl = b[7];
    memcpy(p->src.b, b + 8, 16);
    memcpy(p->dst.b, b + 24, 16);
    p->l3 = b;
    p->l3_len = end;

    uint8_t nh = b[6];
    uint32_t off = IPV6_HLEN, prev_nh_off = 6, count = 0, frag_headers = 0;
    struct ipv6_seen seen = {0};
    for (;;) {
        uint32_t size;
        switch (nh) {
        case DEC_IP_HOPOPTS: case DEC_IP_ROUTING: case DEC_IP_DSTOPTS: case DEC_IP_AH:
        case DEC_IP_MOBILITY: case DEC_IP_HIP: case DEC_IP_SHIM6: case EXP1: case EXP2:
            if (++count > IPV6_MAX_EXT)
                return dec_bad(c, MON_DE_IPV6_EXTHDR_TOO_MANY);
            if (end - off < 2)
                return dec_bad(c, MON_DE_IPV6_EXTHDR_TRUNCATED);
            /* AH counts 4-byte words minus 2, the others 8-byte words minus 1. */
            size = nh == DEC_IP_AH ? (b[off + 1] + 2u) * 4u : (b[off + 1] + 1u) * 8u;
            if (size > end - off)
                return dec_bad(c, MON_DE_IPV6_EXTHDR_TRUNCATED);
            if (nh == DEC_IP_HOPOPTS || nh == DEC_IP_DSTOPTS) {
                bool jumbo = false;
                uint32_t jlen;
                if (!options_valid(b + off + 2, size - 2, &jumbo, &jlen))
                    return dec_bad(c, MON_DE_IPV6_EXTHDR_BAD_OPTLEN);
                /* Jumbo only in hop-by-hop, and only with payload length 0. */
                if (jumbo && (nh != DEC_IP_HOPOPTS || !plen_zero))
                    return dec_bad(c, MON_DE_IPV6_BAD_JUMBO);
            }
            if (!dec_push(c, MON_L_IPV6_EXT, b + off, size))
                return DEC_BAD;
            dec_ipv6_ext_note(p, &seen, nh, b + off, size);
            prev_nh_off = off;
            nh = b[off];
            off += size;
            continue;
        case DEC_IP_FRAGMENT:
            break;
        default:
            /* Upper layer, ESP (encrypted: no transport header to see) or no next header.
             * Behind extension headers, fewer than 2 bytes left for it is the chain cut
             * short (Suricata's ipv6.trunc_exthdr), not a short transport header. */
            if (count && nh != DEC_IP_NONE && end - off < 2)
                return dec_bad(c, MON_DE_IPV6_EXTHDR_TRUNCATED);
            if (nh == DEC_IP_NONE && end > off)
                p->decode_notes |= 1ull << MON_DN_IPV6_DATA_AFTER_NONE;
            p->proto = nh;
            return dec_ip_payload(c, nh, b + off, end - off);
        }

        /* Fragment header. */
        if (++count > IPV6_MAX_EXT)
            return dec_bad(c, MON_DE_IPV6_EXTHDR_TOO_MANY);
        if (end - off < IPV6_FRAG_HLEN)
            return dec_bad(c, MON_DE_IPV6_EXTHDR_TRUNCATED);
        if (!dec_push(c, MON_L_IPV6_EXT, b + off, IPV6_FRAG_HLEN))
            return DEC_BAD;
        if (++frag_headers > 1)
            p->decode_notes |= 1ull << MON_DN_IPV6_DUPL_FH;
        dec_ipv6_ext_note(p, &seen, nh, b + off, IPV6_FRAG_HLEN);
        uint16_t offmf = rd16(b + off + 2);
        if ((offmf & 0xfff8) == 0 && !(offmf & 1)) {
            /* Atomic fragment (RFC 6946): a whole datagram, decoded as such. */
            p->decode_notes |= 1ull << MON_DN_IPV6_USELESS_FH;
            prev_nh_off = off;
            nh = b[off];
            off += IPV6_FRAG_HLEN;
            continue;
        }
        p->flags |= MON_PKT_FRAGMENT;
        p->proto = b[off];
        if (reassembled)  /* defrag must hand back a whole datagram */
            return dec_bad(c, MON_DE_FRAG_INVALID);
        if (!c->d->defrag) {
            p->payload = b + off + IPV6_FRAG_HLEN;
            p->payload_len = end - off - IPV6_FRAG_HLEN;
            return DEC_OK;
        }
        const uint8_t *out;
        uint32_t out_len;
        uint64_t before[MON_DE__COUNT];
        memcpy(before, c->d->stats.event, sizeof(before));
        uint64_t overlaps = mon_defrag_stats(c->d->defrag)->overlaps;
        int r = mon_defrag_ipv6(c->d->defrag, b, off, prev_nh_off, end, p->ts_us,
                                &c->d->stats, &out, &out_len);
        if (mon_defrag_stats(c->d->defrag)->overlaps != overlaps)
            p->decode_notes |= 1ull << MON_DN_FRAG_OVERLAP;
        enum dec_rc rc = dec_defrag_result(c, r, before);
        if (rc != DEC_OK)
            return rc;
        p->nlayers = saved_layers;
        p->flags |= MON_PKT_REASSEMBLED;
        return ipv6(c, out, out_len, true);
    }
}

enum dec_rc dec_ipv6(struct dec *c, const uint8_t *b, uint32_t len)
{
    return ipv6(c, b, len, false);
}
