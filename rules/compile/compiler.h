/* compiler.h — the compiler's state while rules are compiled, the interning of the arguments
 * its UDEs are defined with (args.c), and one rule's compile (compile.c) with the chains it
 * gets again for other protocols (compile_also.c). Private to rules/compile/. */
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

/* The UDEs' labels (labels.c), appended to b: options from..to of r as written; a header
 * (`header stream tcp $HOME_NET any -> $EXTERNAL_NET 80`); a fast pattern
 * (`fast pattern "GET |20|" nocase`); a unit no option stands for (its dump, else its name). */
void label_opts(struct buf *b, const struct osprey_rule *r, uint32_t from, uint32_t to);
void label_header(struct buf *b, const struct osprey_rule *r, uint16_t base);
void label_fp(struct buf *b, const uint8_t *p, uint32_t n, bool nocase);
void label_unit(struct buf *b, const struct det_unit *u);

/* One chain of rule r (plan.h: enum plan_variant) for its own protocol (app_as 0) or for one
 * that also runs it; *next: the rule's other chain to compile after this one, PV_MAIN for
 * none; *base_out: the application event base of the chain (DB_PKT: none or not compiled).
 * 0, or -1 when out of memory. */
int compile_rule(struct compiler *c, const struct osprey_rule *r, enum plan_variant variant,
                 uint16_t app_as, enum plan_variant *next, uint16_t *base_out);
/* The chains rule r (compiled with base) gets again for the protocols that run it too, the
 * files of other protocols, and its Snort 3 services (compile_also.c). 0, or -1. */
int compile_also(struct compiler *c, const struct osprey_rule *r, uint16_t base);
/* How many chains the accepted rules of rs may take in all (at least 1). */
size_t compile_room(const struct osprey_ruleset *rs);

#endif
