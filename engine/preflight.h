/* preflight.h — `osprey --preflight [-i IF | --af-packet-inline IF1:IF2 | --dpdk]`: check the
 * capture set-up and print one "ok: …" or "FIX: …" line per check (preflight.c). */
#ifndef OSPREY_PREFLIGHT_H
#define OSPREY_PREFLIGHT_H

#include "options.h"
#include "osprey_config.h"

/* Returns OSPREY_EXIT_OK when every check passed, OSPREY_EXIT_FAILURE otherwise. */
int osprey_preflight(const struct osprey_options *opts, const struct osprey_config *cfg);

#endif
