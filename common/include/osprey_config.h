/* osprey_config.h — Osprey's YAML configuration (libyaml), laid out like suricata.yaml.
 *
 * Loading merges three layers: built-in defaults (the schema in config_schema.c), the file,
 * and --set key.path=value overrides. Every known key is described in the schema with its
 * type and default, so a file holding only `vars:` works. Unknown keys produce a warning
 * naming the key; a value of the wrong type or out of range is an error naming the key, the
 * file and the line. After a successful load every getter below is total: a known key always
 * has a value of its declared type.
 */
#ifndef OSPREY_CONFIG_H
#define OSPREY_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct osprey_config;

/* Load path (NULL = defaults only), then apply sets[0..nsets) ("a.b.c=value").
 * Diagnostics go to diag as "FILE:LINE: KEY: message" (warnings prefixed "warning: ").
 * Returns 0 and *out on success, -1 on any error (nothing is returned then). diag NULL means
 * stderr. Every error in the file is reported before the load fails. */
int osprey_config_load(struct osprey_config **out, const char *path, const char *const *sets,
                       int nsets, FILE *diag);
void osprey_config_free(struct osprey_config *cfg);

/* Typed getters for schema keys (dotted paths, e.g. "flow.memcap"). A key not in the
 * schema is a programming error: the getter aborts with a message naming it. */
bool osprey_config_bool(const struct osprey_config *cfg, const char *key);
int64_t osprey_config_int(const struct osprey_config *cfg, const char *key);      /* ints */
uint64_t osprey_config_size(const struct osprey_config *cfg, const char *key);    /* bytes */
double osprey_config_seconds(const struct osprey_config *cfg, const char *key);   /* durations */
const char *osprey_config_str(const struct osprey_config *cfg, const char *key);
/* osprey_config_str also reads enums (the canonical word), lists (joined as "[a, b]") and map
 * entries ("vars.address-groups.HOME_NET"); it returns NULL for an absent entry. */

/* The canonical text of any key or map entry, whatever its type (what --dump-config prints);
 * NULL for a name the schema does not have or an absent entry. Unlike the getters it never
 * aborts: for names from outside, as the control socket's conf-get. */
const char *osprey_config_text(const struct osprey_config *cfg, const char *key);

/* Items of a list key or list-valued map entry ("host-os-policy.windows"); *count = 0 and an
 * empty array for an absent entry. Valid until osprey_config_free. */
const char *const *osprey_config_list(const struct osprey_config *cfg, const char *key,
                                      size_t *count);

/* Free-form maps (e.g. "vars.address-groups", "host-os-policy"): calls cb for each entry in
 * file order with the entry's key and scalar value (a sequence value is joined as "[a, b]").
 * Built-in default entries come first (file values replace them in place), then the file's
 * new entries, then --set's; file/line are "default"/0 or "--set"/0 for those. Fixed keys
 * beside the entries (host-os-policy.default) are not entries. Returns the number of entries. */
typedef void (*osprey_config_entry_cb)(const char *key, const char *value, const char *file,
                                       int line, void *arg);
size_t osprey_config_each(const struct osprey_config *cfg, const char *key,
                          osprey_config_entry_cb cb, void *arg);

/* Where a key's value came from, for messages: "FILE:LINE", "--set" or "default" (written
 * into buf, which is returned; NULL for an absent map entry). */
const char *osprey_config_origin(const struct osprey_config *cfg, const char *key, char *buf,
                                 size_t len);

/* File names (classification-file, default-rule-path, ...). A relative value written in the
 * config file is resolved against that file's directory, a relative built-in default against
 * osprey_config_home(); a --set value, an absolute one, or a file in the working directory is
 * returned as it is (osprey_config_str's string).
 * Otherwise the joined name is written into buf and returned; NULL if it does not fit. */
const char *osprey_config_path(const struct osprey_config *cfg, const char *key, char *buf,
                               size_t len);
/* The directory of the config file that set a fixed key ("" for a file in the working
 * directory), written into buf; NULL when the value is a built-in default or from --set. */
const char *osprey_config_dir(const struct osprey_config *cfg, const char *key, char *buf,
                              size_t len);

/* The directory of this program's shipped configuration (config_home.c): the source tree's
 * etc/ for a build tree's program, SYSCONFDIR/osprey of its install otherwise. Built-in
 * default file names (classification-file …) are relative to it. NULL if it does not fit. */
const char *osprey_config_home(char *buf, size_t len);
/* HOME/osprey.yaml of an installed program when that file exists (what runs without -c, as
 * Suricata reads SYSCONFDIR/suricata/suricata.yaml); NULL otherwise and in a build tree. */
const char *osprey_config_default_file(char *buf, size_t len);
/* A companion program installed beside this one (BINDIR/name; a build tree's bin/ holds a copy
 * of each script companion, e.g. osprey-report): its path in buf, or NULL when it is not there
 * or not executable. */
const char *osprey_config_companion(const char *name, char *buf, size_t len);

/* Print the effective configuration as YAML (osprey --dump-config). */
void osprey_config_dump(const struct osprey_config *cfg, FILE *out);
/* The same as Suricata's --dump-config prints it: "dotted.key = value" lines (list items as
 * "key.N = item"), what suricata-update reads (config_dump_flat.c). */
void osprey_config_dump_flat(const struct osprey_config *cfg, FILE *out);

#endif
