/* ipv4.c — IPv4 header (RFC 791): lengths, options, header checksum, fragments. */
#include "decode_internal.h"
#include "mon_defrag.h"

#define IPV4_HLEN 20u

enum {
    OPT_EOL = 0, OPT_NOP = 1, OPT_RR = 7, OPT_TS = 68, OPT_SEC = 130, OPT_LSRR = 131,
    OPT_SID = 136, OPT_SSRR = 137, OPT_RTRALT = 148,
    IP_MF = 0x2000, IP_OFFMASK = 0x1fff,
};

/* Options must tile the option area; the ones with a fixed layout are checked too, since a
 * wrong length in them is how evasion and parser bugs start. As Suricata tells them apart: a
 * length that cannot be (under 2, past the option area, not the option's size) is
 * ipv4.opt_invalid_len; a pointer outside its option, or a length byte missing, is
 * ipv4.opt_malformed. -1: all valid. */
/* Option types Suricata knows (its others are ipv4.opt_unknown): RFC 791's, quick-start
 * (25), extended security (133), CIPSO (134), router alert (148). */
static bool option_known(uint8_t type)
{
    switch (type) {
    case OPT_RR: case 25: case OPT_TS: case OPT_SEC: case OPT_LSRR: case 133: case 134:
    case OPT_SID: case OPT_SSRR: case OPT_RTRALT:
        return true;
    default:
        return false;
    }
}

/* What a valid option area shows without being malformed: notes on p. */
static void options_notes(struct mon_packet *p, const uint8_t *o, uint32_t n)
{
    uint64_t seen[4] = {0}; /* 1 << type, by type / 64 */
    for (uint32_t i = 0; i < n && o[i] != OPT_EOL;) {
        uint8_t type = o[i];
        if (type == OPT_NOP) {
            i++;
            continue;
        }
        if (!option_known(type))
            p->decode_notes |= 1ull << MON_DN_IPV4_OPT_UNKNOWN;
        if (seen[type / 64] & (1ull << (type % 64)))
            p->decode_notes |= 1ull << MON_DN_IPV4_OPT_DUPLICATE;
        seen[type / 64] |= 1ull << (type % 64);
        i += o[i + 1]; /* (options_check found every length valid) */
    }
}

static int options_check(const uint8_t *o, uint32_t n)
{
    uint32_t i = 0;
    while (i < n) {
        uint8_t type = o[i];
        if (type == OPT_EOL)
            break;
        if (type == OPT_NOP) {
            i++;
            continue;
        }
        if (n - i < 2)
            return MON_DE_IPV4_BAD_OPT;
        uint8_t olen = o[i + 1];
        if (olen < 2 || olen > n - i)
            return MON_DE_IPV4_OPT_INVALID_LEN;
        switch (type) {
        case OPT_RR: case OPT_LSRR: case OPT_SSRR:
            /* pointer(1) then 4-byte addresses; pointer is 1-based, first slot at 4 */
            if (olen < 3 || (olen - 3) % 4 != 0)
                return MON_DE_IPV4_OPT_INVALID_LEN;
            if (o[i + 2] < 4 || o[i + 2] > olen + 1)
                return MON_DE_IPV4_BAD_OPT;
            break;
        case OPT_TS:
            if (olen < 4)
                return MON_DE_IPV4_OPT_INVALID_LEN;
            if (o[i + 2] < 5 || o[i + 2] > olen + 1)
                return MON_DE_IPV4_BAD_OPT;
            break;
        case OPT_SEC:
            if (olen != 11) /* RFC 1108 */
                return MON_DE_IPV4_OPT_INVALID_LEN;
            break;
        case OPT_SID: case OPT_RTRALT:
            if (olen != 4)
                return MON_DE_IPV4_OPT_INVALID_LEN;
            break;
        default:
            break;
        }
        i += olen;
    }
    return -1;
}

static enum dec_rc ipv4(struct dec *c, const uint8_t *b, uint32_t len, bool reassembled)
{
    struct mon_packet *p = c->p;
    if (len < IPV4_HLEN)
        return dec_bad(c, MON_DE_IPV4_TRUNCATED);
    if (b[0] >> 4 != 4)
        return dec_bad(c, MON_DE_IPV4_BAD_VERSION);
    uint32_t hlen = (b[0] & 0x0fu) * 4u;
    if (hlen < IPV4_HLEN)
        return dec_bad(c, MON_DE_IPV4_BAD_HLEN);
    uint32_t totlen = rd16(b + 2);
    if (totlen < hlen)
        return dec_bad(c, MON_DE_IPV4_BAD_TOTLEN);
    /* A datagram longer than captured is invalid (as in Suricata); shorter means the link
     * layer padded it, and the padding is ignored from here on. */
    if (totlen > len)
        return dec_bad(c, MON_DE_IPV4_TOTLEN_OVER_CAPLEN);
    int bad_opt = options_check(b + IPV4_HLEN, hlen - IPV4_HLEN);
    if (bad_opt >= 0)
        return dec_bad(c, (enum mon_decode_event)bad_opt);
    options_notes(p, b + IPV4_HLEN, hlen - IPV4_HLEN);

    uint8_t saved_layers = p->nlayers;
    if (!dec_push(c, MON_L_IPV4, b, hlen))
        return DEC_BAD;
    dec_ip_enter(c);
    p->ipver = 4;
    p->proto = b[9];
    p->ttl = b[8];
    memset(&p->src, 0, sizeof(p->src));
    memset(&p->dst, 0, sizeof(p->dst));
    memcpy(p->src.b, b + 12, 4);
    memcpy(p->dst.b, b + 16, 4);
    p->l3 = b;
    p->l3_len = totlen;

    /* A reassembled header was rebuilt by defrag; its fragments' headers were checked. */
    if (c->csum_on && !reassembled)
        dec_csum_result(c, csum_fold(csum_add(0, b, hlen)) == 0, MON_DE_IPV4_BAD_CSUM,
                        MON_PKT_BAD_IP_CSUM);

    uint16_t frag = rd16(b + 6);
    if (frag & (IP_MF | IP_OFFMASK)) {
        p->flags |= MON_PKT_FRAGMENT;
        if (reassembled)  /* defrag must hand back a whole datagram */
            return dec_bad(c, MON_DE_FRAG_INVALID);
        if (!c->d->defrag) {
            /* Without reassembly a fragment ends at L3; its data is the payload. */
            p->payload = b + hlen;
            p->payload_len = totlen - hlen;
            return DEC_OK;
        }
        const uint8_t *out;
        uint32_t out_len;
        uint64_t before[MON_DE__COUNT];
        memcpy(before, c->d->stats.event, sizeof(before));
        uint64_t overlaps = mon_defrag_stats(c->d->defrag)->overlaps;
        int r = mon_defrag_ipv4(c->d->defrag, b, totlen, p->ts_us, &c->d->stats, &out,
                                &out_len);
        if (mon_defrag_stats(c->d->defrag)->overlaps != overlaps)
            p->decode_notes |= 1ull << MON_DN_FRAG_OVERLAP;
        enum dec_rc rc = dec_defrag_result(c, r, before);
        if (rc != DEC_OK)
            return rc;
        /* Decode the whole datagram in place of the fragment's header. */
        p->nlayers = saved_layers;
        p->flags |= MON_PKT_REASSEMBLED;
        return ipv4(c, out, out_len, true);
    }
    return dec_ip_payload(c, p->proto, b + hlen, totlen - hlen);
}

enum dec_rc dec_ipv4(struct dec *c, const uint8_t *b, uint32_t len)
{
    return ipv4(c, b, len, false);
}
