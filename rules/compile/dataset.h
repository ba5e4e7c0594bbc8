/* dataset.h — Suricata's datasets: named sets of values (strings, md5, sha256, IPv4, IPv6)
 * with an optional reputation each, shared by every worker, that dataset/datarep rules look
 * the sticky buffer up in, add it to or remove it from. Private to rules/compile/. */
#ifndef RULES_DATASET_H
#define RULES_DATASET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "opt_args.h"
#include "osprey_detect.h"

#define DATASET_DEFAULT_MEMCAP (16u * 1024u * 1024u)
#define DATASET_DEFAULT_HASHSIZE 4096u

struct det_dataset;  /* one set */
struct det_datasets; /* every set of a detect object, by name */

/* memcap, hashsize: a set's when its rule gives none (0: the defaults above). */
struct det_datasets *det_datasets_create(uint64_t memcap, uint32_t hashsize);
/* Write the sets that have a save or state file, report each set's values dropped for its
 * memcap on diag (may be NULL), free everything. */
void det_datasets_free(struct det_datasets *all, FILE *diag);

/* The set a dataset/datarep option names, created on first use (and its load or state file
 * read; a relative file name is taken from the rule file's directory). A later option naming
 * the same set must agree on its type. NULL with why[] filled when the set cannot be used (no
 * type, a type conflict, a file that cannot be read or holds a bad value: "FILE:LINE: …"). */
struct det_dataset *det_dataset_open(struct det_datasets *all, const struct opt_dataset *o,
                                     const char *rule_file, char *why, size_t whylen);

/* The option on the buffer's bytes: set (match when the value was added), unset (when it was
 * removed), isset, isnotset, datarep (present and its reputation compares). Thread-safe. */
bool det_dataset_match(struct det_dataset *s, const struct opt_dataset *o, const uint8_t *buf,
                       uint32_t len);

/* dataset-add/-remove/-lookup of a set some rule opened, by name and Suricata's type word
 * (string values in base64, as in dataset files): 1 added/removed/found, 0 present already/not
 * there, -1 with why[] filled (no such set, another type, a bad value, memcap). Thread-safe. */
int det_dataset_edit(struct det_datasets *all, enum osprey_dataset_op op, const char *name,
                     const char *type, const char *value, char *why, size_t whylen);

/* dataset_json.c: each value of a `format json` document (its array, or the array at the
 * dotted array_key of its root object) or `ndjson` text (an object a line): the member at
 * the dotted value_key of each object, a string unescaped, a number or literal as written;
 * objects without it are skipped. fn returns 0, or -1 to stop. 0, or -1 (malformed, or fn
 * stopped). */
typedef int (*ds_json_value_fn)(void *arg, const char *v, size_t n);
int ds_json_values(const char *text, size_t n, bool ndjson, const char *array_key,
                   const char *value_key, ds_json_value_fn fn, void *arg);

#endif
