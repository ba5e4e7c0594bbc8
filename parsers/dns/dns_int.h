/* dns_int.h — what the DNS parser's files share: its own numbering of events, anomalies and
 * counters (rows of its descriptor, dns.c). Its state is the message decoder's (struct
 * dns_wire, ../dns_wire/dns_wire.h). Internal to parsers/dns. */
#ifndef OSPREY_DNS_INT_H
#define OSPREY_DNS_INT_H

#include "dns_wire.h"
#include "parsers_int.h"

extern const struct osprey_proto_def dns_proto;

/* rows of dns_proto.events / .anomalies / .counters */
enum { DNS_EV_QUERY, DNS_EV_RESPONSE };
enum { DNS_AE_MALFORMED_DATA, DNS_AE_Z_FLAG_SET, DNS_AE_NOT_REQUEST, DNS_AE_NOT_RESPONSE,
       DNS_AE_INVALID_AUTHORITIES, DNS_AE_INVALID_ADDITIONALS, DNS_AE_NAME_TOO_LONG,
       DNS_AE_INVALID_OPCODE,
       DNS_AE_INFINITE_LOOP, DNS_AE_TOO_MANY_LABELS, DNS_AE_COUNT };
enum { DNS_C_MESSAGES, DNS_C_MALFORMED };

/* stream.c: one whole DNS message (UDP datagram, or a TCP message without its length) under
 * DNS's rows (dns_wire_message); TCP's 2-byte length framing */
void dns_message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void dns_tcp_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);

/* probe.c */
enum probe_verdict detect_dns(const uint8_t *d, size_t n, bool tcp);
/* Stricter, for UDP off port 53: one question, a standard query or response. */
enum probe_verdict detect_dns_strict(const uint8_t *d, size_t n);

/* eve.c: its EVE object */
bool dns_eve(struct pflow *pf, struct osprey_jw *w);

#endif
