/* config_schema.h — the table of every configuration key Osprey knows (private to config/).
 *
 * One row per key: its dotted path, its type, its default written as text, and a one-line doc.
 * Defaults are text on purpose: they go through the same parser as the file and --set, so a
 * default can never be something a user could not write.
 *
 * Three kinds of row:
 *   - a fixed key ("flow.memcap") with a typed value;
 *   - a map whose keys belong to the user ("vars.address-groups.*"), every value of one type,
 *     optionally restricted to a set of key names ("host-os-policy.*");
 *   - a default entry of such a map ("vars.address-groups.HOME_NET"), present unless replaced.
 * Sections ("flow", "vars") are implied by the paths and need no row.
 */
#ifndef OSPREY_CONFIG_SCHEMA_H
#define OSPREY_CONFIG_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

enum cfg_type {
    CT_BOOL,    /* yes/no, true/false, on/off, 1/0 (any case) */
    CT_INT,     /* decimal integer within [min, max] */
    CT_SIZE,    /* bytes: 4096, 64kb, 1.5mb, 1gb (units are powers of 1024, any case) */
    CT_SECONDS, /* 30, 30s, 5m, 1h */
    CT_STRING,  /* any scalar */
    CT_ENUM,    /* one of the words in `words` ("a|b|c"), any case */
    CT_LIST,    /* sequence of scalars; on --set, "[a, b]" or "a,b" */
};

enum cfg_kind {
    CK_KEY,   /* a fixed key */
    CK_MAP,   /* "prefix.*": the user names the keys; value type is `type` */
    CK_ENTRY, /* a default entry of the CK_MAP row with the same prefix */
};

struct cfg_key {
    const char *path;
    enum cfg_kind kind;
    enum cfg_type type;  /* CK_ENTRY: unused, the map's type applies */
    const char *def;     /* default as text; NULL for CK_MAP rows */
    int64_t min, max;    /* CT_INT bounds */
    const char *words;   /* CT_ENUM: allowed values; CK_MAP: allowed key names or NULL (any) */
    const char *doc;
};

/* The table, in the order --dump-config prints it. Immutable. */
const struct cfg_key *cfg_schema(size_t *count);

#endif
