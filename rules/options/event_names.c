/* event_names.c — Suricata's decoder and stream event names → libmon's anomalies.
 *
 * A decoder event is the anomaly libmon's decoder or defrag recorded on the packet
 * (mon_packet.anomaly, enum mon_decode_event) or a note it made without stopping
 * (mon_packet.decode_notes, enum mon_decode_note); Suricata splits some by IP version
 * (ipv4.frag_overlap / ipv6.frag_overlap), hence ipver. A stream event is a bit of
 * mon_packet.tcp_events, named in mon_tcp.h already; an application-layer event one the
 * parsers raise (osprey_parsers.h). Only these names load; every other name Suricata has is
 * refused (rules/README.md lists what is not raised). */
#include "event_names.h"

#include <stdio.h>
#include <string.h>

#include "mon_decode.h"
#include "mon_tcp.h"
#include "osprey_parsers.h"

struct decode_name {
    const char *name;
    uint16_t code;  /* enum mon_decode_event, or enum mon_decode_note when note */
    uint8_t ipver;  /* 0: any */
    bool note;
};

static const struct decode_name DECODE[] = {
    {"ipv4.pkt_too_small", MON_DE_IPV4_TRUNCATED, 0, false},
    {"ipv4.hlen_too_small", MON_DE_IPV4_BAD_HLEN, 0, false},
    {"ipv4.iplen_smaller_than_hlen", MON_DE_IPV4_BAD_TOTLEN, 0, false},
    {"ipv4.trunc_pkt", MON_DE_IPV4_TOTLEN_OVER_CAPLEN, 0, false},
    {"ipv4.opt_malformed", MON_DE_IPV4_BAD_OPT, 0, false},
    {"ipv4.opt_invalid_len", MON_DE_IPV4_OPT_INVALID_LEN, 0, false},
    {"ipv4.wrong_ip_version", MON_DE_IPV4_BAD_VERSION, 0, false},
    {"ipv4.frag_pkt_too_large", MON_DE_FRAG_TOO_LARGE, 4, false},
    {"ipv4.frag_overlap", MON_DN_FRAG_OVERLAP, 4, true}, /* any overlap, as Suricata */
    {"ipv6.pkt_too_small", MON_DE_IPV6_TRUNCATED, 0, false},
    {"ipv6.trunc_pkt", MON_DE_IPV6_PLEN_OVER_CAPLEN, 0, false},
    {"ipv6.trunc_exthdr", MON_DE_IPV6_EXTHDR_TRUNCATED, 0, false},
    {"ipv6.exthdr_invalid_optlen", MON_DE_IPV6_EXTHDR_BAD_OPTLEN, 0, false},
    {"ipv6.wrong_ip_version", MON_DE_IPV6_BAD_VERSION, 0, false},
    {"ipv6.frag_pkt_too_large", MON_DE_FRAG_TOO_LARGE, 6, false},
    {"ipv6.frag_overlap", MON_DN_FRAG_OVERLAP, 6, true},
    {"ipv6.exthdr_useless_fh", MON_DN_IPV6_USELESS_FH, 0, true},
    {"ipv6.exthdr_dupl_fh", MON_DN_IPV6_DUPL_FH, 0, true},
    {"ipv6.frag_invalid_length", MON_DE_FRAG_INVALID, 6, false},
    {"ipv6.ipv4_in_ipv6_wrong_version", MON_DE_IPV6_IPV4_IN_IPV6_BAD_VERSION, 0, false},
    {"ipv6.ipv6_in_ipv6_wrong_version", MON_DE_IPV6_IPV6_IN_IPV6_BAD_VERSION, 0, false},
    {"icmpv4.pkt_too_small", MON_DE_ICMPV4_TRUNCATED, 0, false},
    {"icmpv6.pkt_too_small", MON_DE_ICMPV6_TRUNCATED, 0, false},
    {"tcp.pkt_too_small", MON_DE_TCP_TRUNCATED, 0, false},
    {"tcp.hlen_too_small", MON_DE_TCP_BAD_HLEN, 0, false},
    {"tcp.opt_invalid_len", MON_DE_TCP_OPT_INVALID, 0, false},
    {"udp.hlen_too_small", MON_DE_UDP_TRUNCATED, 0, false},
    {"udp.len_invalid", MON_DE_UDP_BAD_LEN, 0, false},
    {"sctp.pkt_too_small", MON_DE_SCTP_TRUNCATED, 0, false},
    {"ethernet.pkt_too_small", MON_DE_ETH_TRUNCATED, 0, false},
    {"vlan.header_too_small", MON_DE_VLAN_TRUNCATED, 0, false},
    {"vlan.too_many_layers", MON_DE_VLAN_TOO_MANY, 0, false},
    {"mpls.header_too_small", MON_DE_MPLS_TRUNCATED, 0, false},
    {"mpls.unknown_payload_type", MON_DE_MPLS_UNKNOWN_PAYLOAD, 0, false},
    {"nsh.header_too_small", MON_DE_NSH_TRUNCATED, 0, false},
    {"nsh.unsupported_version", MON_DE_NSH_BAD_VERSION, 0, false},
    {"nsh.bad_header_length", MON_DE_NSH_BAD_LEN, 0, false},
    {"nsh.reserved_type", MON_DE_NSH_RESERVED_TYPE, 0, false},
    {"nsh.unsupported_type", MON_DE_NSH_UNSUPPORTED_TYPE, 0, false},
    {"nsh.unknown_payload", MON_DE_NSH_UNKNOWN_PAYLOAD, 0, false},
    {"pppoe.pkt_too_small", MON_DE_PPPOE_TRUNCATED, 0, false},
    {"pppoe.malformed_tags", MON_DE_PPPOE_MALFORMED, 0, false},
    {"ppp.pkt_too_small", MON_DE_PPP_TRUNCATED, 0, false},
    {"ppp.unsup_proto", MON_DE_PPP_UNSUPPORTED, 0, false},
    {"gre.pkt_too_small", MON_DE_GRE_TRUNCATED, 0, false},
    {"gre.wrong_version", MON_DE_GRE_BAD_VERSION, 0, false},
    {"erspan.header_too_small", MON_DE_ERSPAN_TRUNCATED, 0, false},
    {"erspan.unsupported_version", MON_DE_ERSPAN_BAD_VERSION, 0, false},
    {"ipraw.invalid_ip_version", MON_DE_IPRAW_BAD_VERSION, 0, false},
    {"too_many_layers", MON_DE_LAYERS_TOO_MANY, 0, false},
    {"ipv4.icmpv6", MON_DN_IPV4_ICMPV6, 0, true},
    {"ipv6.icmpv4", MON_DN_IPV6_ICMPV4, 0, true},
    {"icmpv4.unknown_type", MON_DN_ICMPV4_UNKNOWN_TYPE, 0, true},
    {"icmpv4.unknown_code", MON_DN_ICMPV4_UNKNOWN_CODE, 0, true},
    {"tcp.opt_duplicate", MON_DN_TCP_OPT_DUPLICATE, 0, true},
    {"sctp.chunk_too_small", MON_DN_SCTP_CHUNK_TOO_SMALL, 0, true},
    {"sctp.chunk_len_invalid", MON_DN_SCTP_CHUNK_LEN_INVALID, 0, true},
    {"sctp.init_chunk_bundled", MON_DN_SCTP_INIT_BUNDLED, 0, true},
    {"sctp.init_with_non_zero_vtag", MON_DN_SCTP_INIT_VTAG, 0, true},
    {"sctp.data_with_zero_vtag", MON_DN_SCTP_DATA_ZERO_VTAG, 0, true},
    {"sctp.too_many_chunks", MON_DN_SCTP_TOO_MANY_CHUNKS, 0, true},
    {"ipv4.opt_unknown", MON_DN_IPV4_OPT_UNKNOWN, 0, true},
    {"ipv4.opt_duplicate", MON_DN_IPV4_OPT_DUPLICATE, 0, true},
    {"ipv6.exthdr_dupl_hh", MON_DN_IPV6_DUPL_HH, 0, true},
    {"ipv6.exthdr_dupl_rh", MON_DN_IPV6_DUPL_RH, 0, true},
    {"ipv6.exthdr_dupl_dh", MON_DN_IPV6_DUPL_DH, 0, true},
    {"ipv6.exthdr_dupl_ah", MON_DN_IPV6_DUPL_AH, 0, true},
    {"ipv6.rh_type_0", MON_DN_IPV6_RH_TYPE_0, 0, true},
    {"ipv6.fh_non_zero_reserved_field", MON_DN_IPV6_FH_RESERVED, 0, true},
    {"ipv6.data_after_none_header", MON_DN_IPV6_DATA_AFTER_NONE, 0, true},
    {"ipv6.exthdr_ah_res_not_null", MON_DN_IPV6_AH_RESERVED, 0, true},
    {"ipv6.hopopts_unknown_opt", MON_DN_IPV6_HOPOPTS_UNKNOWN, 0, true},
    {"ipv6.hopopts_only_padding", MON_DN_IPV6_HOPOPTS_PADDING, 0, true},
    {"ipv6.dstopts_unknown_opt", MON_DN_IPV6_DSTOPTS_UNKNOWN, 0, true},
    {"ipv6.dstopts_only_padding", MON_DN_IPV6_DSTOPTS_PADDING, 0, true},
    {"icmpv6.unknown_code", MON_DN_ICMPV6_UNKNOWN_CODE, 0, true},
    {"icmpv6.unassigned_type", MON_DN_ICMPV6_UNASSIGNED_TYPE, 0, true},
    {"icmpv6.experimentation_type", MON_DN_ICMPV6_EXPERIMENT_TYPE, 0, true},
    {"icmpv6.mld_message_with_invalid_hl", MON_DN_ICMPV6_MLD_HOP_LIMIT, 0, true},
    {"icmpv4.ipv4_trunc_pkt", MON_DN_ICMP_INNER_TRUNCATED, 4, true},
    {"icmpv4.ipv4_unknown_ver", MON_DN_ICMP_INNER_VERSION, 4, true},
    {"icmpv6.ipv6_trunc_pkt", MON_DN_ICMP_INNER_TRUNCATED, 6, true},
    {"icmpv6.ipv6_unknown_version", MON_DN_ICMP_INNER_VERSION, 6, true},
    {"sll.pkt_too_small", MON_DN_SLL_TOO_SMALL, 0, true},
    {"ltnull.pkt_too_small", MON_DN_LTNULL_TOO_SMALL, 0, true},
    {"chdlc.pkt_too_small", MON_DN_CHDLC_TOO_SMALL, 0, true},
    {"vntag.header_too_small", MON_DN_VNTAG_TOO_SMALL, 0, true},
    {"ieee8021ah.header_too_small", MON_DN_PBB_TOO_SMALL, 0, true},
    {"mpls.pkt_too_small", MON_DN_MPLS_TOO_SMALL, 0, true},
    {"mpls.bad_label_router_alert", MON_DN_MPLS_ROUTER_ALERT, 0, true},
    {"mpls.bad_label_implicit_null", MON_DN_MPLS_IMPLICIT_NULL, 0, true},
    {"mpls.bad_label_reserved", MON_DN_MPLS_RESERVED, 0, true},
    {"gre.version0_recur", MON_DN_GRE_V0_RECUR, 0, true},
    {"gre.version0_flags", MON_DN_GRE_V0_FLAGS, 0, true},
    {"gre.version0_hdr_too_big", MON_DN_GRE_V0_HDR_TOO_BIG, 0, true},
    {"gre.version1_chksum", MON_DN_GRE_V1_CHKSUM, 0, true},
    {"gre.version1_route", MON_DN_GRE_V1_ROUTE, 0, true},
    {"gre.version1_ssr", MON_DN_GRE_V1_SSR, 0, true},
    {"gre.version1_recur", MON_DN_GRE_V1_RECUR, 0, true},
    {"gre.version1_flags", MON_DN_GRE_V1_FLAGS, 0, true},
    {"gre.version1_wrong_protocol", MON_DN_GRE_V1_WRONG_PROTO, 0, true},
    {"gre.version1_no_key", MON_DN_GRE_V1_NO_KEY, 0, true},
    {"gre.version1_hdr_too_big", MON_DN_GRE_V1_HDR_TOO_BIG, 0, true},
    {"pppoe.wrong_code", MON_DN_PPPOE_WRONG_CODE, 0, true},
    {"udp.pkt_too_small", MON_DN_UDP_PKT_TOO_SMALL, 0, true},
    {"ltnull.unsupported_type", MON_DN_LTNULL_UNSUPPORTED, 0, true},
    {"ethernet.unknown_ethertype", MON_DN_ETH_UNKNOWN_TYPE, 0, true},
    {"vlan.unknown_type", MON_DN_VLAN_UNKNOWN_TYPE, 0, true},
    {"vntag.unknown_type", MON_DN_VNTAG_UNKNOWN_TYPE, 0, true},
    {"ppp.ip4_pkt_too_small", MON_DN_PPP_IP4_TOO_SMALL, 0, true},
    {"ppp.ip6_pkt_too_small", MON_DN_PPP_IP6_TOO_SMALL, 0, true},
    {"ppp.vju_pkt_too_small", MON_DN_PPP_VJU_TOO_SMALL, 0, true},
};

bool event_lookup(int kind, const char *name, struct opt_event *out)
{
    out->ipver = 0;
    if (kind == EV_DECODE) {
        for (size_t i = 0; i < sizeof DECODE / sizeof DECODE[0]; i++)
            if (!strcmp(DECODE[i].name, name)) {
                out->code = DECODE[i].code;
                out->ipver = DECODE[i].ipver;
                out->note = DECODE[i].note;
                return true;
            }
        return false;
    }
    if (kind == EV_STREAM) {
        for (int e = 0; e < MON_TE__COUNT; e++)
            if (!strcmp(mon_tcp_event_name((enum mon_tcp_event)e), name)) {
                out->code = (uint16_t)e;
                return true;
            }
        return false;
    }
    for (uint16_t e = 0; e < osprey_app_event_count(); e++) /* EV_APP: the parsers' events */
        if (!strcmp(osprey_app_event_name(e), name)) {
            out->code = (uint16_t)e;
            return true;
        }
    /* a protocol named by an alias (ikev2.weak_crypto_dh is ike.weak_crypto_dh): again with
     * the protocol's own name */
    const char *dot = strchr(name, '.');
    char proto[32], canon[128];
    if (!dot || (size_t)(dot - name) >= sizeof proto)
        return false;
    memcpy(proto, name, (size_t)(dot - name));
    proto[dot - name] = 0;
    int id = osprey_app_proto_find(proto);
    const char *own = id > OSPREY_APP_PROTO_FAILED ? osprey_app_proto_name((uint16_t)id) : NULL;
    if (!own || !strcmp(own, proto) ||
        snprintf(canon, sizeof canon, "%s%s", own, dot) >= (int)sizeof canon)
        return false;
    return event_lookup(kind, canon, out);
}
