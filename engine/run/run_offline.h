/* run_offline.h — the offline packet mode and the chain dump (run_offline.c). */
#ifndef OSPREY_RUN_OFFLINE_H
#define OSPREY_RUN_OFFLINE_H

#include "options.h"

struct osprey_config;

/* `osprey -r FILE|DIR`: returns an exit status. */
int osprey_run_offline(const struct osprey_options *opts, const struct osprey_config *cfg);
/* `osprey -T --dump-chains`: the compiled UDE forest on stdout. */
int osprey_dump_chains(const struct osprey_options *opts, const struct osprey_config *cfg);

#endif
