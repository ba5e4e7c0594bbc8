/* compiler.h — the compiler's state while rules are compiled, and the interning of the
 * arguments its UDEs are defined with (args.c). Private to rules/compile/. */
#ifndef RULES_COMPILER_H
#define RULES_COMPILER_H

#include <stdio.h>

#include "detect_int.h"
#include "intern.h"
#include "plan.h"

struct compiler {
    struct osprey_detect *d;
    struct mon_engine *eng;
    struct intern args;   /* serialized argument → interned argument */
    FILE *diag;
    uint32_t rule_start;  /* d->nrules before the rule being compiled: its first chain's */
};

/* Intern an argument: key describes it completely; fresh (size bytes) is copied when new.
 * NULL when out of memory. */
void *intern_arg(struct compiler *c, struct buf *key, void *fresh, size_t size);
/* The interned header filter argument of a rule's plan. */
const struct det_header *header_arg(struct compiler *c, const struct osprey_rule *r,
                                    const struct plan *pl);
/* The interned copy of an option unit (its payload items and regexes kept by the detect
 * object). */
const struct det_unit *unit_arg(struct compiler *c, const struct det_unit *u);

#endif
