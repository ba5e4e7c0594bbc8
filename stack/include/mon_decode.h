/* mon_decode.h — frame → struct mon_packet, counted by outcome and anomaly reason.
 *
 * A decoder belongs to one worker. It never allocates per packet and never reads past
 * p->caplen. Each malformed or truncated header bumps exactly one anomaly counter
 * (enum mon_decode_event) and stops decoding that packet.
 */
#ifndef MON_DECODE_H
#define MON_DECODE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mon_packet.h"

#pragma GCC visibility push(default) /* libmon exports what include/ declares: stack/README.md */

struct mon_defrag;

/* Anomaly reasons. X(ENUM_SUFFIX, "name used in stats") — add new reasons here only. */
#define MON_DECODE_EVENTS(X)                                   \
    X(LINK_UNSUPPORTED, "link.unsupported_linktype")           \
    X(LINK_TRUNCATED, "link.truncated")                        \
    X(IPRAW_BAD_VERSION, "ipraw.invalid_ip_version")           \
    X(NFLOG_MALFORMED, "nflog.malformed")                      \
    X(ETH_TRUNCATED, "ethernet.truncated")                     \
    X(VLAN_TRUNCATED, "vlan.truncated")                        \
    X(VLAN_TOO_MANY, "vlan.too_many_layers")                   \
    X(MPLS_TRUNCATED, "mpls.truncated")                        \
    X(MPLS_BAD_LABEL, "mpls.bad_label")                        \
    X(MPLS_UNKNOWN_PAYLOAD, "mpls.unknown_payload")            \
    X(NSH_TRUNCATED, "nsh.header_too_small")                   \
    X(NSH_BAD_VERSION, "nsh.unsupported_version")              \
    X(NSH_BAD_LEN, "nsh.bad_header_length")                    \
    X(NSH_RESERVED_TYPE, "nsh.reserved_type")                  \
    X(NSH_UNSUPPORTED_TYPE, "nsh.unsupported_type")            \
    X(NSH_UNKNOWN_PAYLOAD, "nsh.unknown_payload")              \
    X(PPPOE_TRUNCATED, "pppoe.truncated")                      \
    X(PPPOE_MALFORMED, "pppoe.malformed")                      \
    X(PPP_TRUNCATED, "ppp.truncated")                          \
    X(PPP_UNSUPPORTED, "ppp.unsupported_proto")                \
    X(IPV4_TRUNCATED, "ipv4.truncated")                        \
    X(IPV4_BAD_VERSION, "ipv4.wrong_ip_version")               \
    X(IPV4_BAD_HLEN, "ipv4.hlen_too_small")                    \
    X(IPV4_BAD_TOTLEN, "ipv4.iplen_smaller_than_hlen")         \
    X(IPV4_TOTLEN_OVER_CAPLEN, "ipv4.trunc_pkt")               \
    X(IPV4_BAD_OPT, "ipv4.opt_malformed")                      \
    X(IPV4_OPT_INVALID_LEN, "ipv4.opt_invalid_len")            \
    X(IPV4_BAD_CSUM, "ipv4.bad_checksum")                      \
    X(IPV6_TRUNCATED, "ipv6.truncated")                        \
    X(IPV6_BAD_VERSION, "ipv6.wrong_ip_version")               \
    X(IPV6_PLEN_OVER_CAPLEN, "ipv6.trunc_pkt")                 \
    X(IPV6_EXTHDR_TRUNCATED, "ipv6.exthdr_truncated")          \
    X(IPV6_EXTHDR_TOO_MANY, "ipv6.exthdr_too_many")            \
    X(IPV6_EXTHDR_BAD_OPTLEN, "ipv6.exthdr_invalid_optlen")    \
    X(IPV6_BAD_JUMBO, "ipv6.bad_jumbogram")                    \
    X(IPV6_ZERO_LEN_PAYLOAD, "ipv6.zero_len_payload")          \
    X(IPV6_IPV4_IN_IPV6_BAD_VERSION, "ipv6.ipv4_in_ipv6_wrong_version") \
    X(IPV6_IPV6_IN_IPV6_BAD_VERSION, "ipv6.ipv6_in_ipv6_wrong_version") \
    X(FRAG_INVALID, "ipfrag.invalid")                          \
    X(FRAG_OVERLAP_DIFF, "ipfrag.overlap_different_data")      \
    X(FRAG_TOO_LARGE, "ipfrag.pkt_too_large")                  \
    X(FRAG_MEMCAP, "ipfrag.memcap")                            \
    X(FRAG_TIMEOUT, "ipfrag.timeout")                          \
    X(FRAG_MAX_FRAGS, "ipfrag.max_frags")                      \
    X(GRE_TRUNCATED, "gre.truncated")                          \
    X(GRE_BAD_VERSION, "gre.wrong_version")                    \
    X(GRE_BAD_FLAGS, "gre.bad_flags")                          \
    X(GRE_UNKNOWN_PAYLOAD, "gre.unknown_payload")              \
    X(ERSPAN_TRUNCATED, "erspan.truncated")                    \
    X(ERSPAN_BAD_VERSION, "erspan.unsupported_version")        \
    X(VXLAN_TRUNCATED, "vxlan.truncated")                      \
    X(VXLAN_BAD_FLAGS, "vxlan.bad_flags")                      \
    X(GENEVE_TRUNCATED, "geneve.truncated")                    \
    X(GENEVE_BAD_VERSION, "geneve.wrong_version")              \
    X(GTPU_TRUNCATED, "gtpu.truncated")                        \
    X(GTPU_BAD_VERSION, "gtpu.wrong_version")                  \
    X(GTPU_MALFORMED, "gtpu.malformed")                        \
    X(TEREDO_TRUNCATED, "teredo.truncated")                    \
    X(TUNNEL_TOO_DEEP, "tunnel.too_deep")                      \
    X(TCP_TRUNCATED, "tcp.pkt_too_small")                      \
    X(TCP_BAD_HLEN, "tcp.hlen_too_small")                      \
    X(TCP_OPT_INVALID, "tcp.opt_invalid_len")                  \
    X(TCP_BAD_CSUM, "tcp.bad_checksum")                        \
    X(UDP_TRUNCATED, "udp.pkt_too_small")                      \
    X(UDP_BAD_LEN, "udp.len_invalid")                          \
    X(UDP_BAD_CSUM, "udp.bad_checksum")                        \
    X(SCTP_TRUNCATED, "sctp.pkt_too_small")                    \
    X(ICMPV4_TRUNCATED, "icmpv4.pkt_too_small")                \
    X(ICMPV4_BAD_CSUM, "icmpv4.bad_checksum")                  \
    X(ICMPV6_TRUNCATED, "icmpv6.pkt_too_small")                \
    X(ICMPV6_BAD_CSUM, "icmpv6.bad_checksum")                  \
    X(LAYERS_TOO_MANY, "decoder.too_many_layers")

/* Decoder observations that do not stop decoding (Suricata raises them as decoder events):
 * recorded per packet in mon_packet.decode_notes (bit 1 << enum mon_decode_note).
 * X(ENUM_SUFFIX, "name") — add new notes here only. */
#define MON_DECODE_NOTES(X)                                                                \
    X(FRAG_OVERLAP, "ipfrag.overlap")          /* a fragment overlaps held data (any bytes) */ \
    X(IPV6_USELESS_FH, "ipv6.exthdr_useless_fh") /* an atomic fragment header (offset 0, no MF) */ \
    X(IPV6_DUPL_FH, "ipv6.exthdr_dupl_fh")     /* a second fragment header in one chain */ \
    X(IPV4_ICMPV6, "ipv4.icmpv6")              /* IPv4 carrying ICMPv6 (protocol 58) */      \
    X(IPV6_ICMPV4, "ipv6.icmpv4")              /* IPv6 carrying ICMPv4 (next header 1) */   \
    X(ICMPV4_UNKNOWN_TYPE, "icmpv4.unknown_type") /* a type RFC 792 and successors lack */   \
    X(ICMPV4_UNKNOWN_CODE, "icmpv4.unknown_code") /* a code its (known) type lacks */       \
    X(TCP_OPT_DUPLICATE, "tcp.opt_duplicate")  /* MSS, window scale, SACK-permitted or     \
                                                  timestamps twice in one header */         \
    X(SCTP_CHUNK_TOO_SMALL, "sctp.chunk_too_small") /* fewer than 4 bytes left for a chunk */ \
    X(SCTP_CHUNK_LEN_INVALID, "sctp.chunk_len_invalid") /* a chunk length under 4 or past \
                                                  the packet */                             \
    X(SCTP_INIT_BUNDLED, "sctp.init_chunk_bundled") /* INIT beside other chunks (RFC 9260 \
                                                  §6.10: it must be alone) */              \
    X(SCTP_INIT_VTAG, "sctp.init_with_non_zero_vtag") /* INIT's verification tag must be 0 \
                                                  (§8.5.1) */                              \
    X(SCTP_DATA_ZERO_VTAG, "sctp.data_with_zero_vtag") /* DATA under tag 0 (only INIT     \
                                                  has it) */                                \
    X(SCTP_TOO_MANY_CHUNKS, "sctp.too_many_chunks") /* more chunks than Suricata tracks  \
                                                  (SCTP_MAX_CHUNKS, 16) */                  \
    X(IPV4_OPT_UNKNOWN, "ipv4.opt_unknown")    /* an option type Suricata does not know */  \
    X(IPV4_OPT_DUPLICATE, "ipv4.opt_duplicate") /* an option (not EOL/NOP) twice */        \
    X(IPV6_DUPL_HH, "ipv6.exthdr_dupl_hh")     /* a second hop-by-hop options header */     \
    X(IPV6_DUPL_RH, "ipv6.exthdr_dupl_rh")     /* a second routing header */                \
    X(IPV6_DUPL_DH, "ipv6.exthdr_dupl_dh")     /* a third destination options header (RFC \
                                                  8200 allows one before and one after RH) */ \
    X(IPV6_DUPL_AH, "ipv6.exthdr_dupl_ah")     /* a second authentication header */         \
    X(IPV6_RH_TYPE_0, "ipv6.rh_type_0")        /* routing header type 0 (RFC 5095) */       \
    X(IPV6_FH_RESERVED, "ipv6.fh_non_zero_reserved_field") /* fragment header byte 1 */    \
    X(IPV6_DATA_AFTER_NONE, "ipv6.data_after_none_header") /* bytes behind next header 59 */ \
    X(IPV6_AH_RESERVED, "ipv6.exthdr_ah_res_not_null") /* AH reserved field (RFC 4302) */   \
    X(IPV6_HOPOPTS_UNKNOWN, "ipv6.hopopts_unknown_opt") /* an option not Pad1, PadN, router \
                                                  alert, jumbo or home address */           \
    X(IPV6_HOPOPTS_PADDING, "ipv6.hopopts_only_padding") /* nothing but Pad1/PadN */        \
    X(IPV6_DSTOPTS_UNKNOWN, "ipv6.dstopts_unknown_opt")                                     \
    X(IPV6_DSTOPTS_PADDING, "ipv6.dstopts_only_padding")                                    \
    X(ICMPV6_UNKNOWN_CODE, "icmpv6.unknown_code") /* a code its (known) type lacks */       \
    X(ICMPV6_UNASSIGNED_TYPE, "icmpv6.unassigned_type") /* a type IANA has not assigned */  \
    X(ICMPV6_EXPERIMENT_TYPE, "icmpv6.experimentation_type") /* 100, 101, 200, 201 */      \
    X(ICMPV6_MLD_HOP_LIMIT, "icmpv6.mld_message_with_invalid_hl") /* MLD, hop limit not 1 */ \
    /* an ICMP error's copy of the offending IP header: shorter than an IP header, or of   \
     * another version (Suricata: icmpv4.ipv4_trunc_pkt / ipv4_unknown_ver, icmpv6.        \
     * ipv6_trunc_pkt / ipv6_unknown_version, by the packet's IP version) */              \
    X(ICMP_INNER_TRUNCATED, "icmp.embedded_ip_truncated")                                    \
    X(ICMP_INNER_VERSION, "icmp.embedded_ip_wrong_version")                                  \
    /* the layer a link.truncated / gre.* / mpls.* / pppoe.* anomaly is about, by Suricata's \
     * name for it (beside the anomaly, which stays what it was) */                         \
    X(SLL_TOO_SMALL, "sll.pkt_too_small")                                                    \
    X(LTNULL_TOO_SMALL, "ltnull.pkt_too_small")                                              \
    X(CHDLC_TOO_SMALL, "chdlc.pkt_too_small")                                                \
    X(VNTAG_TOO_SMALL, "vntag.header_too_small")                                             \
    X(PBB_TOO_SMALL, "ieee8021ah.header_too_small")                                          \
    X(MPLS_TOO_SMALL, "mpls.pkt_too_small")    /* nothing (or no whole control word) behind \
                                                  the label stack */                        \
    X(MPLS_ROUTER_ALERT, "mpls.bad_label_router_alert") /* router alert at the bottom */   \
    X(MPLS_IMPLICIT_NULL, "mpls.bad_label_implicit_null") /* label 3 on the wire */        \
    X(MPLS_RESERVED, "mpls.bad_label_reserved") /* another reserved label at the bottom */ \
    X(GRE_V0_RECUR, "gre.version0_recur")                                                    \
    X(GRE_V0_FLAGS, "gre.version0_flags")                                                    \
    X(GRE_V0_HDR_TOO_BIG, "gre.version0_hdr_too_big")                                        \
    X(GRE_V1_CHKSUM, "gre.version1_chksum")                                                  \
    X(GRE_V1_ROUTE, "gre.version1_route")                                                    \
    X(GRE_V1_SSR, "gre.version1_ssr")                                                        \
    X(GRE_V1_RECUR, "gre.version1_recur")                                                    \
    X(GRE_V1_FLAGS, "gre.version1_flags")                                                    \
    X(GRE_V1_WRONG_PROTO, "gre.version1_wrong_protocol")                                     \
    X(GRE_V1_NO_KEY, "gre.version1_no_key")                                                  \
    X(GRE_V1_HDR_TOO_BIG, "gre.version1_hdr_too_big")                                        \
    X(UDP_PKT_TOO_SMALL, "udp.pkt_too_small")  /* udp.len_invalid: the length field says   \
                                                  more than the datagram holds */          \
    X(PPPOE_WRONG_CODE, "pppoe.wrong_code")    /* a discovery code RFC 2516 lacks */        \
    /* on a fine frame: what follows is not decoded */                                      \
    X(LTNULL_UNSUPPORTED, "ltnull.unsupported_type") /* an address family not IPv4/IPv6 */ \
    X(ETH_UNKNOWN_TYPE, "ethernet.unknown_ethertype") /* an ethertype nobody decodes */     \
    X(VLAN_UNKNOWN_TYPE, "vlan.unknown_type")  /* ... behind a VLAN tag */                  \
    X(VNTAG_UNKNOWN_TYPE, "vntag.unknown_type") /* ... behind a VN-Tag */                   \
    X(PPP_IP4_TOO_SMALL, "ppp.ip4_pkt_too_small") /* PPP's IPv4 shorter than its header */ \
    X(PPP_IP6_TOO_SMALL, "ppp.ip6_pkt_too_small")                                            \
    X(PPP_VJU_TOO_SMALL, "ppp.vju_pkt_too_small") /* Van Jacobson uncompressed, same */

enum mon_decode_note {
#define MON_X_ENUM(e, name) MON_DN_##e,
    MON_DECODE_NOTES(MON_X_ENUM)
#undef MON_X_ENUM
    MON_DN__COUNT
};
_Static_assert(MON_DN__COUNT <= 64, "mon_packet.decode_notes holds 64 notes");
const char *mon_decode_note_name(enum mon_decode_note n);

enum mon_decode_event {
#define MON_X_ENUM(e, name) MON_DE_##e,
    MON_DECODE_EVENTS(MON_X_ENUM)
#undef MON_X_ENUM
    MON_DE__COUNT
};

/* What became of a frame. */
enum mon_decode_outcome {
    MON_DEC_IP,         /* decoded down to an IP datagram (maybe with transport) */
    MON_DEC_NON_IP,     /* valid but carries no IP (ARP, LLDP, …) */
    MON_DEC_FRAG_HELD,  /* an IP fragment kept by defrag until its datagram completes */
    MON_DEC_INVALID,    /* malformed or truncated: an anomaly was counted */
    MON_DEC__COUNT
};

/* Checksum validation (-k none|all, pcap-file.checksum-checks). AUTO validates, but stops
 * when more than 10% of the first 1000 checksummed packets are bad: the sign of a capture
 * taken before NIC checksum offload filled them in (Suricata does the same). */
enum mon_checksum_mode { MON_CSUM_NONE, MON_CSUM_ALL, MON_CSUM_AUTO };

struct mon_decode_cfg {
    uint8_t checksum_mode;     /* enum mon_checksum_mode; default MON_CSUM_AUTO */
    bool vxlan_enabled;
    uint16_t vxlan_ports[4];   /* 0-terminated; default 4789 */
    bool geneve_enabled;
    uint16_t geneve_ports[4];  /* default 6081 */
    bool teredo_enabled;
    uint16_t teredo_ports[4];  /* default 3544 */
    bool gtpu_enabled;
    uint16_t gtpu_ports[4];    /* default 2152 */
    bool gre_udp_enabled;      /* GRE in UDP (RFC 8086) */
    uint16_t gre_udp_ports[4]; /* default 4754 */
    bool mpls_udp_enabled;     /* MPLS in UDP (RFC 7510) */
    uint16_t mpls_udp_ports[4];/* default 6635 */
    uint8_t max_tunnel_depth;  /* default 8 */
};

struct mon_decode_stats {
    uint64_t pkts;
    uint64_t bytes;
    uint64_t outcome[MON_DEC__COUNT];
    uint64_t event[MON_DE__COUNT];
    uint64_t layer[MON_L__COUNT];  /* headers decoded, by kind */
};

struct mon_decoder {
    struct mon_decode_cfg cfg;
    struct mon_decode_stats stats;
    struct mon_defrag *defrag;  /* NULL: fragments are counted and not reassembled */
    /* Checksum validation state (MON_CSUM_AUTO samples the first checksummed frames). */
    bool csum_validate;         /* checksums are validated now (false: NONE, or AUTO gave up) */
    uint32_t csum_sampled;      /* AUTO: checksummed frames seen while sampling */
    uint32_t csum_sampled_bad;  /* AUTO: ... of which some checksum was wrong */
};

void mon_decode_cfg_defaults(struct mon_decode_cfg *cfg);
void mon_decoder_init(struct mon_decoder *d, const struct mon_decode_cfg *cfg,
                      struct mon_defrag *defrag);

/* Decode p->frame[0..caplen) of link type p->linktype into p. Resets p's decoded fields. */
enum mon_decode_outcome mon_decode(struct mon_decoder *d, struct mon_packet *p);

bool mon_decode_linktype_supported(int linktype);
const char *mon_decode_event_name(enum mon_decode_event e);
const char *mon_decode_outcome_name(enum mon_decode_outcome o);

#pragma GCC visibility pop

#endif
