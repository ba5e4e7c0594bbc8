/* firewall.h — Suricata 8's firewall mode in the compiler and runtime (firewall.c,
 * firewall_policy.c): which table a firewall rule is in, the per-flow and per-packet state,
 * and the commit step that decides a packet's firewall verdict before the threat-detection
 * rules of the same commit. docs/rules.md "Firewall mode" is the user's description. */
#ifndef RULES_FIREWALL_H
#define RULES_FIREWALL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "osprey_rules.h"

struct osprey_detect;
struct osprey_detect_worker;
struct osprey_config;
struct mon_flow;
struct mon_packet;
struct det_rule;
struct det_flow;

/* A firewall rule's table: the packet tables in the order a packet meets them, then the
 * application-layer states (one table per protocol, direction and state). */
enum det_fw_table { FW_NONE, FW_PRE_FLOW, FW_PRE_STREAM, FW_FILTER, FW_APP, FW__COUNT };

/* A default policy, or the verdict a rule gives: action (ACCEPT or DROP) and scope. */
struct det_fw_verdict {
    uint8_t action; /* enum osprey_rule_action */
    uint8_t scope;  /* enum osprey_action_scope */
};

/* An application-layer state a configured policy names. */
struct det_fw_state {
    uint16_t proto;
    uint8_t dir, rank;
    struct det_fw_verdict policy;
};

/* The ruleset's firewall (NULL in struct osprey_detect without firewall rules). */
struct det_fw {
    bool table_rules[FW__COUNT];         /* packet tables holding rules */
    struct det_fw_verdict packet_policy[FW__COUNT]; /* the packet tables' defaults */
    struct det_fw_state *policies;       /* configured application-state defaults */
    uint32_t npolicies;
};

/* Per flow: accept:flow taken, the transaction and state each direction's tables reached,
 * and the transaction accept:tx took (id + 1, 0: none). */
struct det_fw_flow {
    bool accepted;
    bool dropped; /* by the firewall: its later packets count as flow_drop */
    bool tx_seen[2];
    uint32_t tx[2];
    int16_t rank[2];
    uint32_t tx_accepted;
};

/* Why the firewall blocked a packet (Suricata's firewall.drop_reason.*). */
enum det_fw_reason {
    FWR_NONE, FWR_RULES, FWR_DEFAULT_PACKET, FWR_DEFAULT_APP, FWR_PRE_FLOW, FWR_PRE_STREAM,
    FWR_FLOW_DROP
};

/* Per packet: the packet tables ran; the packet was accepted (accept:packet) or dropped by
 * the packet tables (then no application table runs), or by an application table; why;
 * which packet (decoder count) the counters took already. */
struct det_fw_packet {
    bool done, accepted, dropped_pkt, dropped_app;
    uint8_t reason;
};

/* Compile: a rule's table and state from its header (NULL, or why it is not compiled). */
const char *det_fw_plan(const struct osprey_rule *r, uint16_t app, uint8_t *table,
                        uint16_t *base, uint8_t *dir, uint8_t *rank);
/* Compile: note a compiled firewall rule (its table or state holds rules); -1: no memory. */
int det_fw_note(struct osprey_detect *d, const struct det_rule *dr);
/* Compile: the defaults of `firewall.policies` (firewall_policy.c); -1 with a message on
 * diag for a value that is no policy. */
int det_fw_policies(struct det_fw *fw, const struct osprey_config *cfg, FILE *diag);
void det_fw_free(struct det_fw *fw);

/* Runtime: the commit of base's phase. Takes the firewall matches out of the worker's pending
 * list and decides with them (packet tables at the packet's commit, a hook's tables at its
 * event's commit). false: the threat-detection matches of this commit go (the firewall
 * dropped the packet: conceptually that instance never sees it). */
bool det_fw_commit(struct osprey_detect_worker *w, uint16_t base, struct mon_flow *f,
                   const struct mon_packet *p);
/* Runtime: the packet's end — its firewall counters (once per packet). */
void det_fw_packet_end(struct osprey_detect_worker *w);

#endif
