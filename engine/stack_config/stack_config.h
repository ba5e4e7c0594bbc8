/* stack_config.h — turns the YAML configuration into libmon's plain config structs.
 * The stack knows nothing of YAML; every program that runs the stack fills its structs here,
 * so `osprey` and the tools read the same keys the same way. */
#ifndef OSPREY_STACK_CONFIG_H
#define OSPREY_STACK_CONFIG_H

#include <stdio.h>

#include "mon.h"
#include "mon_decode.h"
#include "mon_defrag.h"
#include "mon_flow.h"
#include "mon_tcp.h"
#include "osprey_config.h"

struct osprey_stack_cfg {
    struct mon_decode_cfg decode;
    struct mon_defrag_cfg defrag;  /* defrag.policy.entries points into hosts */
    struct mon_flow_cfg flow;
    struct mon_tcp_cfg tcp;        /* tcp.policy.entries points into hosts too */
    struct mon_host_policy *hosts;
    size_t nhosts;
};

/* Returns 0, or -1 after printing "ORIGIN: KEY: what is wrong" to diag. */
int osprey_stack_cfg_load(const struct osprey_config *c, struct osprey_stack_cfg *out, FILE *diag);
void osprey_stack_cfg_release(struct osprey_stack_cfg *s);

/* stream.inline: yes delivers each side's bytes to the parsers and the stream rules as they
 * arrive (Suricata's inline mode), no once the other side acknowledged them (its IDS mode);
 * auto is yes for now in every mode (ips: IPS mode, which Suricata's auto follows; not used
 * until ack delivery becomes IDS mode's default). Sets s->tcp.ack_delivery. */
void osprey_stack_cfg_delivery(struct osprey_stack_cfg *s, const struct osprey_config *c, bool ips);
/* What osprey_stack_cfg_delivery sets: true for ack delivery. */
bool osprey_stack_cfg_ack_delivery(const struct osprey_config *c, bool ips);

/* The engine configuration for these settings; checksums is -k's word ("none", "all") or NULL
 * to keep pcap-file.checksum-checks. The policy tables still point into s: create the engine
 * (which copies them) before releasing s. */
void osprey_stack_cfg_engine(const struct osprey_stack_cfg *s, const char *checksums,
                             struct mon_engine_cfg *out);

/* Parse "80", "[80, 8080]" or "[80,8080]" into a 0-terminated array of at most max-1 ports. */
int osprey_parse_port_list(const char *s, uint16_t *ports, size_t max);

#endif
