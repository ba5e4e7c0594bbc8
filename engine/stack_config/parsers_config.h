/* parsers_config.h — the app-layer parsers' settings from the YAML configuration
 * (app-layer.protocols.<proto>.*: the keys the protocols register), for osprey and the
 * tools. */
#ifndef OSPREY_PARSERS_CONFIG_H
#define OSPREY_PARSERS_CONFIG_H

#include <stdio.h>

#include "osprey_config.h"
#include "osprey_parsers.h"

/* Returns 0, or -1 after printing "ORIGIN: KEY: what is wrong" to diag. */
int osprey_parsers_cfg_load(const struct osprey_config *c, struct osprey_parsers_cfg *out,
                            FILE *diag);

#endif
