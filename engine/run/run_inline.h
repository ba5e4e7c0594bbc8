/* run_inline.h — `osprey --af-packet-inline IF1:IF2`: inline IPS on AF_PACKET (run_inline.c). */
#ifndef OSPREY_RUN_INLINE_H
#define OSPREY_RUN_INLINE_H

#include "options.h"

struct osprey_config;

/* Bridge the two interfaces through the rules until SIGTERM/SIGINT. Returns an exit status. */
int osprey_run_inline(const struct osprey_options *opts, const struct osprey_config *cfg);

#endif
