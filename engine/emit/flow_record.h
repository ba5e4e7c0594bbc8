/* flow_record.h — a libmon flow as the EVE flow record (outputs/'s struct osprey_eve_flow),
 * shared by osprey's eve.json (emit_records.c) and osprey-trace, so both print the same keys.
 * A small library of its own (osprey_flowrec): tools link it without the engine. */
#ifndef OSPREY_FLOW_RECORD_H
#define OSPREY_FLOW_RECORD_H

#include <netinet/in.h>

#include "mon.h"
#include "osprey_outputs.h"

/* The text the record points into; lives as long as the record is used. */
struct osprey_flow_text {
    char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], proto[8];
    const char *tunnels[MON_FLOW_MAX_TUNNELS];
};

/* Fill *out from f (alerted false, app_proto and community_id NULL: the caller's to add). */
void osprey_flow_record(const struct mon_flow *f, struct osprey_flow_text *t,
                        struct osprey_eve_flow *out);

/* "TCP", "UDP", "ICMP", "IPv6-ICMP", "SCTP", "GRE", or the number in buf. */
const char *osprey_proto_name(uint8_t p, char *buf, size_t len);
/* An address as text (4 or 6 = ipver) as Suricata writes it: IPv6 whole, without "::";
 * buf holds at least 40 bytes. */
void osprey_addr_str(const struct mon_addr *a, int ipver, char *buf, size_t len);

#endif
