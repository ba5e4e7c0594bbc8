/* requires.h — Suricata's requires: evaluated (requires.c). */
#ifndef RULES_REQUIRES_H
#define RULES_REQUIRES_H

struct rule_ctx;
/* 1 when Osprey meets every requirement of val, 0 when not, -1 when val is malformed (*bad:
 * the requirement at fault). */
int requires_eval(struct rule_ctx *c, const char *val, const char **bad);

#endif
