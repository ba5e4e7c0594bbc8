/* opt_pktprop.h — Suricata's packet and flow property keywords (opt_pktprop.c): one unsigned
 * comparison on a value the packet or its flow carries, with Suricata's uint grammar.
 *
 *   tcp.mss:CMP   tcp.wscale:CMP   icmpv6.mtu:CMP   vlan.layers:CMP
 *   vlan.id:CMP[,LAYER|all|any]       LAYER 0..2 from the outermost, -1..-3 from the innermost
 *   flow.pkts:DIR,CMP  flow.bytes:DIR,CMP   DIR toserver|toclient|either
 *   flow.pkts_toserver:CMP … flow.bytes_toclient:CMP (older spellings)   flow.age:CMP (seconds)
 *   ipv4-csum, tcpv4-csum, tcpv6-csum, udpv4-csum, udpv6-csum, icmpv4-csum, icmpv6-csum:
 *        valid|invalid (parsed in opt_events.c)
 *   CMP: N, =N, !N, <N, >N, <=N, >=N, A-B and A<>B (both: A < x < B, Suricata's ranges),
 *        !A-B (x <= A or x >= B)
 * The compiler (rules/compile/pkt_units.c) reads the packet and flow for them.
 */
#ifndef RULES_OPT_PKTPROP_H
#define RULES_OPT_PKTPROP_H

#include <stdbool.h>
#include <stdint.h>

#include "opt_args.h"

enum pktprop_kind {
    PP_TCP_MSS, PP_TCP_WSCALE, PP_ICMPV6_MTU, PP_VLAN_ID, PP_VLAN_LAYERS,
    PP_FLOW_PKTS, PP_FLOW_BYTES, PP_FLOW_AGE,
    PP_IPVER,     /* not a keyword: the ipv4/ipv6/icmpv4/icmpv6 rule protocols */
    PP_CSUM,      /* ipv4-csum, tcpv4-csum … (opt_events.c): `dir` holds the IP version, `layer`
                     the L4 protocol (0: the IPv4 header's own checksum), cmp.lo 1 for invalid */
};
enum pktprop_dir { PP_DIR_TOSERVER = 1, PP_DIR_TOCLIENT, PP_DIR_EITHER };
enum { PP_LAYER_ANY = 100, PP_LAYER_ALL = 101 };

struct opt_pktprop {
    uint8_t kind;     /* enum pktprop_kind */
    uint8_t dir;      /* flow.pkts/flow.bytes: enum pktprop_dir */
    int8_t layer;     /* vlan.id: 0..2, -1..-3, PP_LAYER_ANY (default), PP_LAYER_ALL */
    struct opt_cmp cmp;
};

/* Is this one of the keywords above (its argument a struct opt_pktprop)? */
bool pktprop_keyword(const char *keyword);

/* vlan.id: do the ids (outermost first) satisfy the option? */
bool pktprop_vlan_match(const struct opt_pktprop *pp, const uint16_t *ids, unsigned n);

#endif
