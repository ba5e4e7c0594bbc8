/* run_explain.h — `osprey --explain SID -S RULES`: how one rule was compiled, without traffic. */
#ifndef OSPREY_RUN_EXPLAIN_H
#define OSPREY_RUN_EXPLAIN_H

#include "options.h"

struct osprey_config;

/* Loads and compiles the rules as -r would and prints the rule's report on stdout
 * (osprey_detect_explain); with -r the same report comes first and run_offline.c traces the
 * rule on the capture. Exit status: 0 when a rule with the sid was read, 1 otherwise. */
int osprey_run_explain(const struct osprey_options *opts, const struct osprey_config *cfg);

#endif
