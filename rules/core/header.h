/* header.h — the words of a rule header: actions, protocols, directions. */
#ifndef RULES_HEADER_H
#define RULES_HEADER_H

#include <stdbool.h>
#include <stddef.h>

#include "osprey_rules.h"

/* Action word → enum, or -1. */
int header_action(const char *s, size_t n);
const char *header_action_name(enum osprey_rule_action a);
/* The scope word after `action:` → enum osprey_action_scope, or -1 when the action takes no
 * such scope (accept: packet flow hook tx; drop: packet flow). */
int header_action_scope(enum osprey_rule_action a, const char *s, size_t n);
/* Protocol word → its canonical spelling (static), or NULL when unknown. */
const char *header_proto(const char *s, size_t n);
/* Whether detection runs rules of this (canonical) protocol yet; the others are rejected as
 * "unsupported protocol X" so that -T and -r agree. */
bool header_proto_implemented(const char *canon);

#endif
