/* dpdk_args.h — the dpdk: section read without DPDK (dpdk_args.c): the EAL's argv for
 * `osprey --dpdk` and the port checks of `osprey --preflight --dpdk`. */
#ifndef OSPREY_DPDK_ARGS_H
#define OSPREY_DPDK_ARGS_H

#include <stdio.h>

struct osprey_config;

/* "osprey" then dpdk.eal-args. The configuration's lists split items at commas, so a device
 * with parameters ("--vdev=net_pcap0,rx_pcap=in.pcap") arrives as several items: an item that
 * is a driver's key=value (no leading '-') is glued back onto the one before. NULL when out
 * of memory; free with osprey_dpdk_argv_free. */
char **osprey_dpdk_eal_argv(const struct osprey_config *cfg, int *argc);
void osprey_dpdk_argv_free(char **argv, int argc);

/* Preflight, without starting the EAL: the file prefix is free; each --vdev's interface or
 * capture exists; each PCI device (-a/--allow) exists and is bound to a DPDK-capable driver;
 * each dpdk.interfaces port is declared in the EAL arguments. One "ok: …" / "FIX: …" line
 * each on out; returns the number of FIX lines. */
int osprey_dpdk_preflight(const struct osprey_config *cfg, FILE *out);

#endif
