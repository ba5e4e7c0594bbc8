/* config_tree.h — a YAML file as a plain tree that remembers where each node was written.
 *
 * The loader walks this tree against the schema; keeping file and line on every node is what
 * lets each warning and error point at the exact place in the user's file. libyaml's own
 * document API would do, but it resolves aliases into shared nodes (possibly cycles) and ties
 * the rest of config/ to libyaml; this tree has neither problem.
 */
#ifndef OSPREY_CONFIG_TREE_H
#define OSPREY_CONFIG_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum cfg_node_kind { CFG_SCALAR, CFG_SEQ, CFG_MAP };

struct cfg_node {
    enum cfg_node_kind kind;
    char *text;             /* CFG_SCALAR: the value (never NULL for scalars) */
    bool null;              /* CFG_SCALAR: plain "", "~" or "null": no value given */
    const char *file;       /* not owned: outlives the tree */
    int line;               /* 1-based */
    size_t n;               /* CFG_SEQ items / CFG_MAP pairs */
    struct cfg_node **item; /* CFG_SEQ items; CFG_MAP values */
    struct cfg_node **key;  /* CFG_MAP keys, all scalars; NULL for sequences */
    size_t cap;
    struct cfg_node *pending_key; /* CFG_MAP, while parsing: key awaiting its value */
};

/* Parse the single YAML document in path. On success returns 0 and *root (NULL for an empty
 * file). On error prints "PATH:LINE: message" (or "PATH: message") to diag and returns -1.
 * `path` is stored in every node and must outlive the tree. */
int cfg_tree_load(const char *path, struct cfg_node **root, FILE *diag);

/* A synthetic scalar, for --set values and defaults. NULL when out of memory. */
struct cfg_node *cfg_node_scalar(const char *text, const char *file, int line);

void cfg_node_free(struct cfg_node *node);

/* "'value'" (shortened if long), "a list" or "a map": what a message says it got. */
void cfg_node_describe(const struct cfg_node *node, char *buf, size_t len);

#endif
