/* mdns_int.h — what the mDNS parser's files share: its own numbering of events, anomalies and
 * counters (rows of its descriptor, mdns.c). Its state is the shared DNS decoder's (struct
 * dns_wire, ../dns_wire/dns_wire.h: dns_wire_message), as DNS's is; nothing of parsers/dns.
 * Internal to parsers/mdns. */
#ifndef OSPREY_MDNS_INT_H
#define OSPREY_MDNS_INT_H

#include "dns_wire.h"

extern const struct osprey_proto_def mdns_proto;

#define MDNS_PORT 5353
enum { MDNS_EV_TS, MDNS_EV_TC };
enum { MDNS_AE_MALFORMED, MDNS_AE_Z_FLAG_SET, MDNS_AE_NOT_REQUEST, MDNS_AE_NOT_RESPONSE,
       MDNS_AE_INVALID_AUTHORITIES, MDNS_AE_INVALID_ADDITIONALS, MDNS_AE_NAME_TOO_LONG,
       MDNS_AE_INVALID_OPCODE, MDNS_AE_INFINITE_LOOP, MDNS_AE_TOO_MANY_LABELS };
enum { MDNS_C_MESSAGES, MDNS_C_MALFORMED };

/* probe.c */
enum probe_verdict mdns_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool mdns_eve(struct pflow *pf, struct osprey_jw *w);

#endif
