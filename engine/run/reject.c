/* reject.c — TCP RST and ICMP unreachable frames for reject rules (see reject.h). */
#include <string.h>

#include "reject.h"

#define LINK_MAX 64          /* Ethernet + up to three VLAN tags fits easily */
#define ICMP6_QUOTE_MAX 1184 /* keeps the whole answer under the IPv6 minimum MTU of 1280 */

static void put16(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)(v >> 8);
    b[1] = (uint8_t)v;
}

static void put32(uint8_t *b, uint32_t v)
{
    put16(b, v >> 16);
    put16(b + 2, v);
}

static uint32_t sum_bytes(uint32_t s, const uint8_t *b, uint32_t n)
{
    for (uint32_t i = 0; i + 1 < n; i += 2)
        s += (uint32_t)b[i] << 8 | b[i + 1];
    if (n & 1)
        s += (uint32_t)b[n - 1] << 8;
    return s;
}

static uint16_t fold(uint32_t s)
{
    while (s >> 16)
        s = (s & 0xffff) + (s >> 16);
    return (uint16_t)~s;
}

/* Transport checksum over the pseudo-header (addresses, protocol, length) and seg[0..len). */
static uint16_t l4_csum(int ipver, const uint8_t *src, const uint8_t *dst, uint8_t proto,
                        const uint8_t *seg, uint32_t len)
{
    uint32_t alen = ipver == 4 ? 4 : 16;
    uint32_t s = sum_bytes(0, src, alen);
    s = sum_bytes(s, dst, alen);
    s += proto + (len & 0xffff) + (len >> 16);
    return fold(sum_bytes(s, seg, len));
}

/* IP header from src to dst carrying plen bytes of proto; returns its length. */
static uint32_t put_ip(uint8_t *b, int ipver, const uint8_t *src, const uint8_t *dst,
                       uint8_t proto, uint32_t plen)
{
    if (ipver == 4) {
        memset(b, 0, 20);
        b[0] = 0x45;
        put16(b + 2, 20 + plen);
        b[6] = 0x40; /* DF */
        b[8] = 64;
        b[9] = proto;
        memcpy(b + 12, src, 4);
        memcpy(b + 16, dst, 4);
        put16(b + 10, fold(sum_bytes(0, b, 20)));
        return 20;
    }
    memset(b, 0, 40);
    b[0] = 0x60;
    put16(b + 4, plen);
    b[6] = proto;
    b[7] = 64;
    memcpy(b + 8, src, 16);
    memcpy(b + 24, dst, 16);
    return 40;
}

/* The link header: the layers in front of the (single) IP header, copied from the frame;
 * MACs swapped for a frame going back to the sender. -1 when there is more than one IP
 * header (a tunnel) or the link header is unusual. */
static int link_prefix(const struct mon_packet *p, uint8_t *out, bool swap)
{
    uint32_t len = 0;
    int ips = 0;
    bool before_ip = true, eth = false;
    for (int i = 0; i < p->nlayers; i++) {
        uint8_t k = p->layer[i].kind;
        if (k == MON_L_IPV4 || k == MON_L_IPV6) {
            ips++;
            before_ip = false;
        } else if (before_ip) {
            if (k != MON_L_ETH && k != MON_L_VLAN)
                return -1;
            eth |= k == MON_L_ETH;
            len += p->layer[i].len;
        }
    }
    if (ips != 1 || len > LINK_MAX || len > p->caplen)
        return -1;
    memcpy(out, p->frame, len);
    if (swap && eth && len >= 12) {
        uint8_t mac[6];
        memcpy(mac, out, 6);
        memcpy(out, out + 6, 6);
        memcpy(out + 6, mac, 6);
    }
    return (int)len;
}

static int tcp_rst(const struct mon_packet *p, bool to_src, struct osprey_reject_frame *f)
{
    int ll = link_prefix(p, f->data, to_src);
    if (ll < 0)
        return 0;
    const uint8_t *sa = to_src ? p->dst.b : p->src.b, *da = to_src ? p->src.b : p->dst.b;
    uint8_t *ip = f->data + ll;
    uint32_t iplen = put_ip(ip, p->ipver, sa, da, 6, 20);
    uint8_t *th = ip + iplen;
    memset(th, 0, 20);
    uint32_t seglen =
        p->payload_len + !!(p->tcp_flags & MON_TH_SYN) + !!(p->tcp_flags & MON_TH_FIN);
    bool ack = p->tcp_flags & MON_TH_ACK;
    if (to_src) {
        /* from the destination: the sender accepts a RST whose seq is what it expects */
        put16(th, p->dport);
        put16(th + 2, p->sport);
        put32(th + 4, ack ? p->tcp_ack : 0);
        put32(th + 8, p->tcp_seq + seglen);
        th[13] = MON_TH_RST | MON_TH_ACK;
    } else {
        /* from the source: the dropped packet never arrived, so its seq is next */
        put16(th, p->sport);
        put16(th + 2, p->dport);
        put32(th + 4, p->tcp_seq);
        put32(th + 8, ack ? p->tcp_ack : 0);
        th[13] = (uint8_t)(MON_TH_RST | (ack ? MON_TH_ACK : 0));
    }
    th[12] = 5 << 4;
    put16(th + 16, l4_csum(p->ipver, sa, da, 6, th, 20));
    f->to_src = to_src;
    f->len = (uint32_t)ll + iplen + 20;
    return 1;
}

static int icmp_unreach(const struct mon_packet *p, bool to_src, struct osprey_reject_frame *f)
{
    int ll = link_prefix(p, f->data, to_src);
    if (ll < 0 || !p->l3 || p->l3_len == 0)
        return 0;
    const uint8_t *sa = to_src ? p->dst.b : p->src.b, *da = to_src ? p->src.b : p->dst.b;
    uint32_t quote;
    if (p->ipver == 4) {
        uint32_t ihl = (p->l3[0] & 0x0f) * 4u;
        quote = ihl + 8 < p->l3_len ? ihl + 8 : p->l3_len; /* header + 8 bytes (RFC 792) */
    } else {
        quote = p->l3_len < ICMP6_QUOTE_MAX ? p->l3_len : ICMP6_QUOTE_MAX;
    }
    uint8_t proto = p->ipver == 4 ? 1 : 58;
    uint8_t *ip = f->data + ll;
    uint32_t iplen = put_ip(ip, p->ipver, sa, da, proto, 8 + quote);
    uint8_t *ic = ip + iplen;
    memset(ic, 0, 8);
    ic[0] = p->ipver == 4 ? 3 : 1; /* destination unreachable */
    ic[1] = p->ipver == 4 ? 3 : 4; /* port unreachable */
    memcpy(ic + 8, p->l3, quote);
    uint16_t cs = p->ipver == 4 ? fold(sum_bytes(0, ic, 8 + quote))
                                : l4_csum(6, sa, da, 58, ic, 8 + quote);
    put16(ic + 2, cs);
    f->to_src = to_src;
    f->len = (uint32_t)ll + iplen + 8 + quote;
    return 1;
}

int osprey_reject_build(const struct mon_packet *p, enum osprey_reject kind,
                        enum osprey_reject_to to, struct osprey_reject_frame out[2])
{
    if (kind == OSPREY_REJECT_NONE || (p->ipver != 4 && p->ipver != 6))
        return 0;
    if (kind == OSPREY_REJECT_RST &&
        (p->proto != 6 || !(p->flags & MON_PKT_HAS_L4) || (p->tcp_flags & MON_TH_RST)))
        return 0; /* never answer a reset */
    if (kind == OSPREY_REJECT_ICMP && (p->flags & MON_PKT_HAS_L4) &&
        ((p->proto == 1 && p->icmp_type != 0 && p->icmp_type != 8 && p->icmp_type < 13) ||
         (p->proto == 58 && p->icmp_type < 128)))
        return 0; /* nor an ICMP error with another one */
    int n = 0;
    for (int d = 0; d < 2; d++) {
        bool to_src = d == 0;
        if ((to_src && to == OSPREY_REJECT_TO_DST) || (!to_src && to == OSPREY_REJECT_TO_SRC))
            continue;
        n += kind == OSPREY_REJECT_RST ? tcp_rst(p, to_src, &out[n])
                                       : icmp_unreach(p, to_src, &out[n]);
    }
    return n;
}
