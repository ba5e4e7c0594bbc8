/* ips_policy.h — IPS or IDS, and what follows from it: the exception policies (exception-policy, stream.midstream-policy) as Suricata resolves
 * them, for the detection workers (struct osprey_detect_policy).
 */
#ifndef OSPREY_IPS_POLICY_H
#define OSPREY_IPS_POLICY_H

#include <stdbool.h>
#include <stdio.h>

#include "options.h"
#include "osprey_config.h"
#include "osprey_detect.h"

/* Verdicts are enforced: --af-packet-inline, --dpdk with dpdk.copy-mode ips, or -r with
 * --simulate-ips. */
bool osprey_ips_mode(const struct osprey_options *opts, const struct osprey_config *cfg);

/* The workers' policy for this run mode. stream.reassembly.memcap-policy: the key, else the
 * master switch (drop-flow/drop-packet there mean ignore in IDS mode), else auto: drop-flow in
 * IPS mode, ignore in IDS mode. stream.midstream-policy, else the exception-policy
 * master switch when it was set, else auto: drop-flow in IPS mode with stream.midstream off,
 * ignore otherwise. As Suricata does, a value that does not fit (with midstream on anything
 * but ignore or pass-flow — such sessions are then not picked up, osprey_stack_cfg_load;
 * drop-flow in IDS mode; a packet action) is applied with a warning on diag. The master
 * switch never warns: its drop-flow/drop-packet mean ignore in IDS mode, its packet actions
 * their flow action, and with midstream on anything but pass-flow means ignore. */
void osprey_detect_policy_load(const struct osprey_config *cfg, bool ips,
                               struct osprey_detect_policy *out, FILE *diag);

#endif
