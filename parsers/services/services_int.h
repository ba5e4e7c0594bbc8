/* services_int.h — what the recognition-only services share: their probes (probe.c) and the
 * one parse all of them use (services.c). Internal to parsers/services. */
#ifndef OSPREY_SERVICES_INT_H
#define OSPREY_SERVICES_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def irc_proto, netbios_ns_proto, netbios_dgm_proto,
    wins_proto, ssdp_proto, mysql_proto, nntp_proto;

/* probe.c: one per service and side (TCP: 0 the client's first bytes, 1 the server's) */
enum probe_verdict irc_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict irc_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict netbios_ns_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict netbios_dgm_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict wins_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict ssdp_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict mysql_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict nntp_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f);

#endif
