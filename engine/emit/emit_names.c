/* emit_names.c — Suricata's name for each libmon decoder event, shared by anomaly records
 * ("decoder.<name>") and stats records ("decoder.event.<name>"), so both read as Suricata's
 * do and validate against its EVE schema. */
#include "emit_int.h"

const char *osprey_suricata_decode_event(enum mon_decode_event e)
{
    switch (e) {
    case MON_DE_IPRAW_BAD_VERSION: return "ipraw.invalid_ip_version";
    case MON_DE_ETH_TRUNCATED: return "ethernet.pkt_too_small";
    case MON_DE_VLAN_TRUNCATED: return "vlan.header_too_small";
    case MON_DE_VLAN_TOO_MANY: return "vlan.too_many_layers";
    case MON_DE_MPLS_TRUNCATED: return "mpls.header_too_small";
    case MON_DE_MPLS_UNKNOWN_PAYLOAD: return "mpls.unknown_payload_type";
    case MON_DE_NSH_TRUNCATED: return "nsh.header_too_small";
    case MON_DE_NSH_BAD_VERSION: return "nsh.unsupported_version";
    case MON_DE_NSH_BAD_LEN: return "nsh.bad_header_length";
    case MON_DE_NSH_RESERVED_TYPE: return "nsh.reserved_type";
    case MON_DE_NSH_UNSUPPORTED_TYPE: return "nsh.unsupported_type";
    case MON_DE_NSH_UNKNOWN_PAYLOAD: return "nsh.unknown_payload";
    case MON_DE_PPPOE_TRUNCATED: return "pppoe.pkt_too_small";
    case MON_DE_PPP_TRUNCATED: return "ppp.pkt_too_small";
    case MON_DE_PPP_UNSUPPORTED: return "ppp.unsup_proto";
    case MON_DE_IPV4_TRUNCATED: return "ipv4.pkt_too_small";
    case MON_DE_IPV4_BAD_VERSION: return "ipv4.wrong_ip_version";
    case MON_DE_IPV4_BAD_HLEN: return "ipv4.hlen_too_small";
    case MON_DE_IPV4_BAD_TOTLEN: return "ipv4.iplen_smaller_than_hlen";
    case MON_DE_IPV4_TOTLEN_OVER_CAPLEN: return "ipv4.trunc_pkt";
    case MON_DE_IPV4_BAD_OPT: return "ipv4.opt_malformed";
    case MON_DE_IPV6_TRUNCATED: return "ipv6.pkt_too_small";
    case MON_DE_IPV6_BAD_VERSION: return "ipv6.wrong_ip_version";
    case MON_DE_IPV6_PLEN_OVER_CAPLEN: return "ipv6.trunc_pkt";
    case MON_DE_IPV6_EXTHDR_TRUNCATED: return "ipv6.trunc_exthdr";
    case MON_DE_IPV6_EXTHDR_BAD_OPTLEN: return "ipv6.exthdr_invalid_optlen";
    case MON_DE_IPV6_IPV4_IN_IPV6_BAD_VERSION: return "ipv6.ipv4_in_ipv6_wrong_version";
    case MON_DE_IPV6_IPV6_IN_IPV6_BAD_VERSION: return "ipv6.ipv6_in_ipv6_wrong_version";
    case MON_DE_GRE_TRUNCATED: return "gre.pkt_too_small";
    case MON_DE_GRE_BAD_VERSION: return "gre.wrong_version";
    case MON_DE_ERSPAN_TRUNCATED: return "erspan.header_too_small";
    case MON_DE_ERSPAN_BAD_VERSION: return "erspan.unsupported_version";
    case MON_DE_TCP_TRUNCATED: return "tcp.pkt_too_small";
    case MON_DE_TCP_BAD_HLEN: return "tcp.hlen_too_small";
    case MON_DE_TCP_OPT_INVALID: return "tcp.opt_invalid_len";
    case MON_DE_UDP_TRUNCATED: return "udp.pkt_too_small";
    case MON_DE_UDP_BAD_LEN: return "udp.len_invalid";
    case MON_DE_SCTP_TRUNCATED: return "sctp.pkt_too_small";
    case MON_DE_ICMPV4_TRUNCATED: return "icmpv4.pkt_too_small";
    case MON_DE_ICMPV6_TRUNCATED: return "icmpv6.pkt_too_small";
    /* Suricata's decoder.max-layers: a tunnel nested too deep is the same limit */
    case MON_DE_TUNNEL_TOO_DEEP:
    case MON_DE_LAYERS_TOO_MANY: return "too_many_layers";
    /* The rest has no Suricata counterpart: one libmon event covers several of Suricata's
     * (mpls.bad_label: implicit null or reserved; gre.bad_flags: version 0 or 1; ipfrag.*:
     * IPv4 or IPv6), or Suricata does not decode the protocol (GTP-U, NFLOG, VXLAN and
     * Geneve checks), or it counts no such event (bad checksums). */
    default: return NULL;
    }
}

const char *osprey_suricata_decode_note(enum mon_decode_note n, uint8_t ipver)
{
    /* Suricata tells the IP versions apart */
    if (n == MON_DN_FRAG_OVERLAP)
        return ipver == 6 ? "ipv6.frag_overlap" : "ipv4.frag_overlap";
    if (n == MON_DN_ICMP_INNER_TRUNCATED)
        return ipver == 6 ? "icmpv6.ipv6_trunc_pkt" : "icmpv4.ipv4_trunc_pkt";
    if (n == MON_DN_ICMP_INNER_VERSION)
        return ipver == 6 ? "icmpv6.ipv6_unknown_version" : "icmpv4.ipv4_unknown_ver";
    return mon_decode_note_name(n); /* the others carry Suricata's names already */
}
