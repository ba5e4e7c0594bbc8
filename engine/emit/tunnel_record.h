/* tunnel_record.h — where an alerting packet came from, as Suricata's EVE alert says it:
 * "pkt_src" (the wire, a tunnel's decoder, defrag, a flow's end) and the "tunnel" object (the
 * outermost packet on the wire: its addresses, ports, protocol, pcap_cnt, and how many tunnels
 * deep the alerting packet is). Read from the packet's decoded layers; part of osprey_flowrec. */
#ifndef OSPREY_TUNNEL_RECORD_H
#define OSPREY_TUNNEL_RECORD_H

#include <netinet/in.h>
#include <stdbool.h>

#include "mon.h"
#include "osprey_outputs.h"

/* Suricata's PktSrcToString() names: "wire/pcap", "gre tunnel", "ipv4 tunnel", "ipv6 tunnel",
 * "teredo tunnel", "vxlan encapsulation", "geneve encapsulation", "defrag",
 * "stream (flow timeout)"; and "gtpu tunnel", which Suricata does not decode. */
const char *osprey_pkt_src(const struct mon_packet *p);

/* The text the tunnel object points into; lives as long as the object is used. */
struct osprey_tunnel_text {
    char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], proto[8];
};

/* Fill *out when p came out of a tunnel or defrag (Suricata's IS_TUNNEL_PKT): false for a
 * packet as it was on the wire (no "tunnel" object). */
bool osprey_tunnel_record(const struct mon_packet *p, struct osprey_tunnel_text *t,
                          struct osprey_eve_tunnel *out);

#endif
