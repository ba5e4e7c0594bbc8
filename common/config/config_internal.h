/* config_internal.h — the loaded configuration, shared by the config/ sources and nothing else.
 *
 * One slot per schema row (same index): a typed value for fixed keys, an ordered list of
 * entries for maps; CK_ENTRY rows' slots stay unused (their defaults live in the map's list).
 */
#ifndef OSPREY_CONFIG_INTERNAL_H
#define OSPREY_CONFIG_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config_schema.h"
#include "config_tree.h"

/* Where a value came from. file is "default", "--set" or a path owned by the config. */
struct cfg_origin {
    const char *file;
    int line; /* 0 for "default" and "--set" */
};

struct cfg_value {
    bool set;      /* holds a value (always true after a successful load) */
    char *text;    /* canonical text: what --dump-config prints and each() passes on */
    union {
        bool b;
        int64_t i;    /* CT_INT */
        uint64_t u;   /* CT_SIZE: bytes; CT_SECONDS: seconds */
    };
    char **items;  /* CT_LIST */
    size_t nitems;
    struct cfg_origin origin;
};

struct cfg_entry {
    char *name;
    struct cfg_value value;
};

struct cfg_slot {
    struct cfg_value value;   /* CK_KEY */
    struct cfg_entry *entry;  /* CK_MAP, in order of first appearance */
    size_t nentries, cap;
};

struct osprey_config {
    const struct cfg_key *schema;
    size_t nkeys;
    struct cfg_slot *slot; /* [nkeys] */
    char *path;            /* the file loaded, referenced by origins */
};

/* Strings that origins point to when no file is involved. */
extern const char CFG_ORIGIN_DEFAULT[];
extern const char CFG_ORIGIN_SET[];

/* Parse node as a value of key's type (type from the row, or from map_row for entries) into
 * *out, replacing what it held. On error prints "ORIGIN: KEYNAME: expected ..., got ..." using
 * origin_label (e.g. "file.yaml:12" or "--set a.b=c") and returns -1, leaving *out untouched.
 * Returns -2 when out of memory (message printed too). */
int cfg_value_parse(struct cfg_value *out, const struct cfg_key *row, const char *keyname,
                    const struct cfg_node *node, const char *origin_label, FILE *diag);
void cfg_value_clear(struct cfg_value *v);

/* Row index for a fixed key or a map ("a.b" finds "a.b.*"); -1 if none. */
long cfg_find_key(const struct osprey_config *cfg, const char *path);
long cfg_find_map(const struct osprey_config *cfg, const char *path);
/* The map row whose prefix key lies under ("vars.address-groups.X" → vars.address-groups.*),
 * setting *name to the rest ("X"); -1 if none. */
long cfg_find_map_of_entry(const struct osprey_config *cfg, const char *key, const char **name);
/* A section is a path some key lies under ("flow", "flow-timeouts.tcp"). */
bool cfg_is_section(const struct osprey_config *cfg, const char *path);
/* Entry of map slot by name, or NULL. */
struct cfg_entry *cfg_find_entry(const struct cfg_slot *slot, const char *name);

#endif
