/* pkt_units.h — what packet-header rules read from the packet (pkt_units.c): Suricata's header
 * sticky buffers (ipv4.hdr … icmpv6.hdr), the packet and flow properties of opt_pktprop.h,
 * and the header protocols (tcp-pkt, tcp-stream, ipv4, ipv6, icmpv4, icmpv6). Private to
 * rules/compile/. */
#ifndef RULES_PKT_UNITS_H
#define RULES_PKT_UNITS_H

#include <stdbool.h>
#include <stdint.h>

#include "mon.h"
#include "opt_pktprop.h"

/* A payload unit's buffer (struct det_unit.ob) when it inspects a header of the packet. */
enum det_ob_hdr {
    DET_OB_HDR = 0xff00, /* above every parser buffer id, below DET_OB_RAW */
    DOB_IPV4_HDR = DET_OB_HDR, DOB_IPV6_HDR, DOB_TCP_HDR, DOB_UDP_HDR, DOB_ICMPV4_HDR,
    DOB_ICMPV6_HDR,
    DET_OB_HDR_END
};
static inline bool det_ob_is_hdr(uint16_t ob)
{
    return ob >= DET_OB_HDR && ob < DET_OB_HDR_END;
}

/* The header buffer of a rule buffer (BUF_*), -1 when it is not one. */
int det_hdr_buffer_of(unsigned rule_buffer);

/* The bytes of header ob in packet p (options and extension headers included, as Suricata
 * defines each), NULL when the packet has no such header. */
const uint8_t *det_hdr_buffer(const struct mon_packet *p, uint16_t ob, uint32_t *len);

/* Does the packet (and its flow, NULL if none) have the property? */
bool det_pktprop_match(const struct opt_pktprop *pp, const struct mon_packet *p,
                       const struct mon_flow *f);

/* Header protocols beyond ip/tcp/udp/icmp: the transport they stand for (*l4), whether the
 * rule looks at packets only (tcp-pkt) or the stream only (tcp-stream), and the IP version
 * they require (0: any; the property the rule then checks, NULL). false: not one of them. */
struct det_hdr_proto {
    uint8_t l4;
    bool pkt_only, stream_only;
    const struct opt_pktprop *ipver;
};
bool det_hdr_proto_of(const char *proto, struct det_hdr_proto *out);

#endif
