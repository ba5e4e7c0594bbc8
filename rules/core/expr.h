/* expr.h — address and port expressions of rule headers and variables.
 *
 *   expr  := elem (',' elem)*         (brackets are optional at the top, as Suricata allows)
 *   elem  := '!'? item
 *   item  := 'any' | '$'NAME | '[' elem (',' elem)* ']' | literal
 *   addr literal: IPv4 | IPv6 | ADDR/PREFIX | IPv4/DOTTED-MASK | ADDR-ADDR
 *   port literal: N | N:M | N: | :M            (0..65535)
 *
 * Meaning (Snort's and Suricata's): a list is the union of its positive items minus the union
 * of its negated ones; a list of negated items only starts from `any`. `!x` alone is the
 * complement of x. An expression that matches nothing (`!any`, `[1.2.3.4,!1.2.3.4]`) is an
 * error: such a rule could never fire.
 */
#ifndef RULES_EXPR_H
#define RULES_EXPR_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "rangeset.h"
#include "vars.h"

struct expr_err {
    const char *pos; /* in the text evaluated, or NULL */
    bool semantic;   /* unknown/bad variable rather than malformed text */
    char key[48];
    char msg[320];
};

/* Evaluate s[0..n) as an address (is_port false) or port expression into a normalised set in
 * tmp. Returns 0, or -1 with *err filled. */
int expr_eval(struct vars *vs, struct arena *tmp, bool is_port, const char *s, size_t n,
              struct rset *out, struct expr_err *err);

/* The AST form of an expression: cached for `$VAR` and `any`, else copied into ast.
 * Returns NULL with *err filled on error (or out of memory: err->key "out of memory"). */
const struct osprey_ip_set *expr_ipset(struct vars *vs, struct arena *ast, struct arena *tmp,
                                       const char *s, size_t n, struct expr_err *err);
const struct osprey_port_set *expr_portset(struct vars *vs, struct arena *ast,
                                           struct arena *tmp, const char *s, size_t n,
                                           struct expr_err *err);

/* Resolve one variable now (to report bad variables once, up front). */
int expr_resolve_var(struct vars *vs, struct arena *tmp, struct rule_var *v);

extern const struct osprey_ip_set expr_any_ip;
extern const struct osprey_port_set expr_any_port;

#endif
