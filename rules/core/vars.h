/* vars.h — address and port variables ($HOME_NET, $HTTP_PORTS) from the configuration.
 *
 * Values are parsed on first use with the same grammar as rule headers, so a variable may
 * refer to others (`EXTERNAL_NET: "!$HOME_NET"`); cycles and unknown names are errors of the
 * variable, reported once and then for each rule that uses it. A resolved set is shared by
 * every rule that names the variable alone.
 */
#ifndef RULES_VARS_H
#define RULES_VARS_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "osprey_rules.h"
#include "rangeset.h"

struct osprey_config;

enum var_state { VAR_UNRESOLVED, VAR_RESOLVING, VAR_OK, VAR_BAD };

struct rule_var {
    const char *name, *value;
    const char *file; /* where it was defined ("default", "--set", a YAML file) */
    int line;
    bool is_port;
    uint8_t state;
    struct rset set;                    /* resolved, normalised */
    const struct osprey_ip_set *ipset;  /* the same, in AST form */
    const struct osprey_port_set *portset;
    const char *error;                  /* VAR_BAD: why */
};

struct vars {
    struct arena ar;
    struct rule_var *v;
    uint32_t n, cap;
};

/* Collect vars.address-groups and vars.port-groups (cfg may be NULL: no variables). */
int vars_load(struct vars *vs, const struct osprey_config *cfg);
/* Add or replace one variable (tests, the fuzzer). */
int vars_set(struct vars *vs, bool is_port, const char *name, const char *value,
             const char *file, int line);
void vars_free(struct vars *vs);
struct rule_var *vars_find(struct vars *vs, bool is_port, const char *name, size_t n);

#endif
