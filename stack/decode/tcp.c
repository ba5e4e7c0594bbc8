/* tcp.c — TCP header (RFC 9293) and the options the stack needs: MSS, window scale,
 * SACK-permitted, timestamps. Every option's length is checked. */
#include "decode_internal.h"

#define TCP_HLEN 20u

enum {
    OPT_EOL = 0, OPT_NOP = 1, OPT_MSS = 2, OPT_WSCALE = 3, OPT_SACKOK = 4, OPT_SACK = 5,
    OPT_TS = 8, OPT_MD5 = 19, OPT_AO = 29, OPT_TFO = 34,
};

static bool options(struct mon_packet *p, const uint8_t *o, uint32_t n)
{
    uint32_t i = 0, seen = 0; /* 1 << kind of the options below 32 met so far */
    while (i < n) {
        uint8_t kind = o[i];
        if (kind == OPT_EOL)
            break;
        if (kind == OPT_NOP) {
            i++;
            continue;
        }
        if (n - i < 2)
            return false;
        uint8_t olen = o[i + 1];
        if (olen < 2 || olen > n - i)
            return false;
        const uint8_t *v = o + i + 2;
        /* the options a stack takes once: a second copy is Suricata's tcp.opt_duplicate
         * (a note: the later copy's value stands, as before) */
        if (kind == OPT_MSS || kind == OPT_WSCALE || kind == OPT_SACKOK || kind == OPT_TS) {
            if (seen & (1u << kind))
                p->decode_notes |= 1ull << MON_DN_TCP_OPT_DUPLICATE;
            seen |= 1u << kind;
        }
        switch (kind) {
        case OPT_MSS:
            if (olen != 4)
                return false;
            p->tcp_mss = rd16(v);
            break;
        case OPT_WSCALE:
            if (olen != 3)
                return false;
            p->tcp_wscale = v[0];
            break;
        case OPT_SACKOK:
            if (olen != 2)
                return false;
            if (p->tcp_flags & MON_TH_SYN)
                p->flags |= MON_PKT_TCP_SACKOK;
            break;
        case OPT_SACK:
            /* 0..4 blocks of left/right edges: an empty SACK (length 2) is seen in the
             * wild and is no anomaly for Suricata either (tcp-empty-sack) */
            if ((olen - 2) % 8 != 0 || olen > 34)
                return false;
            break;
        case OPT_TS:
            if (olen != 10)
                return false;
            p->tcp_tsval = rd32(v);
            p->tcp_tsecr = rd32(v + 4);
            p->flags |= MON_PKT_TCP_HAS_TS;
            break;
        case OPT_MD5:
            if (olen != 18)
                return false;
            break;
        case OPT_AO:
            if (olen < 4)
                return false;
            break;
        case OPT_TFO:  /* empty (cookie request) or a 4..16-byte even-length cookie */
            if (olen != 2 && (olen < 6 || olen > 18 || olen % 2 != 0))
                return false;
            break;
        default:
            break;
        }
        i += olen;
    }
    return true;
}

enum dec_rc dec_tcp(struct dec *c, const uint8_t *b, uint32_t len)
{
    struct mon_packet *p = c->p;
    if (len < TCP_HLEN)
        return dec_bad(c, MON_DE_TCP_TRUNCATED);
    uint32_t hlen = (b[12] >> 4) * 4u;
    if (hlen < TCP_HLEN)
        return dec_bad(c, MON_DE_TCP_BAD_HLEN);
    if (hlen > len)
        return dec_bad(c, MON_DE_TCP_TRUNCATED);
    p->tcp_flags = b[13];
    if (!options(p, b + TCP_HLEN, hlen - TCP_HLEN)) {
        /* the options are not taken, the header is: a bad option length is noted and the
         * segment decodes on (Suricata goes on too: its flow, stream and rules see it) */
        p->tcp_mss = 0;
        p->tcp_wscale = 0xff;
        p->flags &= ~(uint32_t)(MON_PKT_TCP_HAS_TS | MON_PKT_TCP_SACKOK);
        p->tcp_tsval = p->tcp_tsecr = 0;
        dec_note(c, MON_DE_TCP_OPT_INVALID);
    }
    if (!dec_push(c, MON_L_TCP, b, hlen))
        return DEC_BAD;
    p->sport = rd16(b);
    p->dport = rd16(b + 2);
    p->tcp_seq = rd32(b + 4);
    p->tcp_ack = rd32(b + 8);
    p->tcp_win = rd16(b + 14);
    p->tcp_urp = rd16(b + 18);
    p->flags |= MON_PKT_HAS_L4;
    p->l4 = b;
    p->l4_len = len;
    p->payload = b + hlen;
    p->payload_len = len - hlen;
    if (c->l4_csum_on)
        dec_csum_result(c, csum_fold(csum_add(csum_pseudo(p, DEC_IP_TCP, len), b, len)) == 0,
                        MON_DE_TCP_BAD_CSUM, MON_PKT_BAD_L4_CSUM);
    return DEC_OK;
}
