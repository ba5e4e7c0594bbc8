/* run_dpdk.h — `osprey --dpdk`: inline IPS (or IDS) on DPDK ports (run_dpdk.c). */
#ifndef OSPREY_RUN_DPDK_H
#define OSPREY_RUN_DPDK_H

#include "options.h"

struct osprey_config;

/* Start the EAL from dpdk.eal-args, bridge the dpdk.interfaces pairs through the rules until
 * SIGTERM/SIGINT, then drain, flush and clean up. Returns an exit status. */
int osprey_run_dpdk(const struct osprey_options *opts, const struct osprey_config *cfg);

#endif
