/* dispatch.c — what a number in a header names next: an ethertype, an IP version nibble, an
 * IPv4 protocol / IPv6 next header. Each maps the number to a row of the next-layer table
 * (next_layer.c) and enters it through dec_next(); no decoder is called by name here. */
#include "decode_internal.h"

/* Payload named by an ethertype (Ethernet, VLAN, SLL, GRE, Geneve …). Unknown types set
 * *unknown and return DEC_OK without recording anything: the caller decides whether that is
 * a valid non-IP frame or an anomaly. */
enum dec_rc dec_ethertype(struct dec *c, uint16_t type, const uint8_t *b, uint32_t len,
                          bool *unknown)
{
    *unknown = false;
    switch (type) {
    case DEC_ETH_IPV4:
        return dec_next(c, DEC_NX_IPV4, b, len);
    case DEC_ETH_IPV6:
        return dec_next(c, DEC_NX_IPV6, b, len);
    case DEC_ETH_VLAN: case DEC_ETH_QINQ: case DEC_ETH_QINQ_OLD1: case DEC_ETH_QINQ_OLD2:
        return dec_next(c, DEC_NX_VLAN, b, len);
    case DEC_ETH_NSH:
        return dec_next(c, DEC_NX_NSH, b, len);
    case DEC_ETH_VNTAG:
        return dec_next(c, DEC_NX_VNTAG, b, len);
    case DEC_ETH_PBB:
        return dec_next(c, DEC_NX_PBB, b, len);
    case DEC_ETH_MPLS_UC: case DEC_ETH_MPLS_MC:
        return dec_next(c, DEC_NX_MPLS, b, len);
    case DEC_ETH_PPPOE_SESS:
        return dec_next(c, DEC_NX_PPPOE_SESSION, b, len);
    case DEC_ETH_PPPOE_DISC:
        return dec_next(c, DEC_NX_PPPOE_DISCOVERY, b, len);
    case DEC_ETH_ARP:
        return dec_push(c, MON_L_ARP, b, len) ? DEC_OK : DEC_BAD;
    default:
        *unknown = true;
        return DEC_OK;
    }
}

/* Ethertypes Suricata's network-layer dispatch knows although libmon decodes nothing behind
 * them (Cisco FabricPath/DCE, 802.1BR E-Tag, Ethernet loopback), and 802.3 lengths: not
 * "unknown" for ethernet.unknown_ethertype. Everything dec_ethertype decodes is known too. */
bool dec_ethertype_known(uint16_t type)
{
    if (type <= 1500) /* an 802.3 length (LLC follows), not a type */
        return true;
    switch (type) {
    case 0x8903: case 0x893f: case 0x9000:
        return true;
    default:
        return false;
    }
}

/* Raw IP where only the version nibble says which (raw link types, MPLS, GTP-U, ERSPAN). */
enum dec_rc dec_ip_by_version(struct dec *c, const uint8_t *b, uint32_t len, bool *unknown)
{
    *unknown = false;
    if (len >= 1 && b[0] >> 4 == 4)
        return dec_next(c, DEC_NX_IPV4, b, len);
    if (len >= 1 && b[0] >> 4 == 6)
        return dec_next(c, DEC_NX_IPV6, b, len);
    *unknown = true;
    return DEC_OK;
}

/* What an IPv4 protocol / IPv6 next header names, after the IP header (and any IPv6
 * extension headers). p already describes that IP header. */
enum dec_rc dec_ip_payload(struct dec *c, uint8_t proto, const uint8_t *b, uint32_t len)
{
    struct mon_packet *p = c->p;
    /* Until a transport header says otherwise, the datagram's payload is all there is
     * (ESP, SCTP, OSPF, an undecoded GRE payload …). */
    p->payload = b;
    p->payload_len = len;
    switch (proto) {
    case DEC_IP_TCP:
        return dec_next(c, DEC_NX_TCP, b, len);
    case DEC_IP_UDP:
        return dec_next(c, DEC_NX_UDP, b, len);
    case DEC_IP_SCTP:
        return dec_next(c, DEC_NX_SCTP, b, len);
    case DEC_IP_ICMP:
        if (p->ipver == 4)
            return dec_next(c, DEC_NX_ICMPV4, b, len);
        p->decode_notes |= 1ull << MON_DN_IPV6_ICMPV4; /* the other version's ICMP: payload */
        break;
    case DEC_IP_ICMPV6:
        if (p->ipver == 6)
            return dec_next(c, DEC_NX_ICMPV6, b, len);
        p->decode_notes |= 1ull << MON_DN_IPV4_ICMPV6;
        break;
    case DEC_IP_IPIP:
        /* IPv6 names the wrong inner version its own way (Suricata's ipv6.*_in_ipv6_*) */
        if (p->ipver == 6 && len >= 20 && b[0] >> 4 != 4) /* a whole header */
            return dec_bad(c, MON_DE_IPV6_IPV4_IN_IPV6_BAD_VERSION);
        if (!dec_tunnel(c, MON_T_IPIP))
            return DEC_BAD;
        return dec_next(c, DEC_NX_IPV4, b, len);
    case DEC_IP_IPV6:
        if (p->ipver == 6 && len >= 40 && b[0] >> 4 != 6)
            return dec_bad(c, MON_DE_IPV6_IPV6_IN_IPV6_BAD_VERSION);
        if (!dec_tunnel(c, MON_T_IPIP))
            return DEC_BAD;
        return dec_next(c, DEC_NX_IPV6, b, len);
    case DEC_IP_GRE:
        return dec_next(c, DEC_NX_GRE, b, len);
    default:
        break;
    }
    return DEC_OK;
}
