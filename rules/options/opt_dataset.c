/* opt_dataset.c — dataset and datarep: the sticky buffer (after its transforms) looked up in,
 * added to or removed from a named set of values (Suricata's datasets).
 *
 *   dataset:set|isset|isnotset|unset,NAME[,type string|md5|sha256|ipv4|ipv6|ip]
 *           [,load FILE][,save FILE][,state FILE][,memcap SIZE][,hashsize N]
 *           [,format csv|json|ndjson][,value_key K][,array_key K][,context_key K][,remove_key];
 *   datarep:NAME,>|<|>=|<=|==,VALUE[,type …][,load FILE][,memcap SIZE][,hashsize N];
 *
 * The store is rules/compile/dataset.c. SIZE is a number with an optional kb/mb/gb suffix.
 */
#include <stdio.h>
#include <string.h>

#include "opt_eval.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

/* A set's name: Suricata takes letters, digits and - _ . (names are also file stems). */
#define SET_NAME_EXTRA "-."

/* "10mb" → bytes; -1 after reporting. */
static int parse_size(struct rule_ctx *c, const char *s, size_t n, uint64_t *out)
{
    size_t d = 0;
    while (d < n && s[d] >= '0' && s[d] <= '9')
        d++;
    static const struct { const char *sfx; uint64_t mul; } U[] = {
        {"", 1}, {"b", 1}, {"kb", 1024}, {"mb", 1024 * 1024}, {"gb", 1024ull * 1024 * 1024}};
    for (size_t i = 0; d > 0 && i < sizeof U / sizeof U[0]; i++) {
        if (n - d != strlen(U[i].sfx) || strncasecmp(s + d, U[i].sfx, n - d))
            continue;
        int64_t v;
        if (parse_num(c, s, d, 1, INT64_MAX / (int64_t)U[i].mul, false, &v, "memcap") < 0)
            return -1;
        *out = (uint64_t)v * U[i].mul;
        return 0;
    }
    return opt_error(c, s, "invalid size '%.*s' (a number, optionally kb, mb or gb)", (int)n, s);
}

/* The "word value" fields after the ones a keyword fixes. datarep takes no save/state. */
static int parse_fields(struct rule_ctx *c, struct opt_dataset *ds, const char **f, size_t *fl,
                        int from, int k, bool rep)
{
    static const char *const TYPES[] = {"string", "md5", "sha256", "ipv4", "ipv6", "ip", NULL};
    static const uint8_t TMAP[] = {DST_STRING, DST_MD5, DST_SHA256, DST_IPV4, DST_IPV6,
                                   DST_IPV6};
    for (int i = from; i < k; i++) {
        const char *w, *v;
        size_t wn, vn;
        split_word(f[i], fl[i], &w, &wn, &v, &vn);
        if (!rep && vn == 0 && slice_eq(w, wn, "remove_key")) {
            ds->remove_key = true;
            continue;
        }
        if (vn == 0)
            return opt_error(c, f[i], "'%.*s' needs a value", (int)wn, w);
        if (slice_eq(w, wn, "type")) {
            int t = parse_choice(c, v, vn, TYPES, "dataset type");
            if (t < 0)
                return -1;
            ds->type = TMAP[t];
        } else if (slice_eq(w, wn, "load")) {
            ds->load = opt_strdup(c, v, vn);
        } else if (!rep && slice_eq(w, wn, "save")) {
            ds->save = opt_strdup(c, v, vn);
        } else if (!rep && slice_eq(w, wn, "state")) {
            ds->state = opt_strdup(c, v, vn);
        } else if (!rep && slice_eq(w, wn, "format")) {
            static const char *const FORMATS[] = {"csv", "json", "ndjson", NULL};
            int fm = parse_choice(c, v, vn, FORMATS, "dataset format");
            if (fm < 0)
                return -1;
            ds->format = (uint8_t)fm;
        } else if (!rep && slice_eq(w, wn, "context_key")) {
            ds->context_key = opt_strdup(c, v, vn);
        } else if (!rep && slice_eq(w, wn, "value_key")) {
            ds->value_key = opt_strdup(c, v, vn);
        } else if (!rep && slice_eq(w, wn, "array_key")) {
            ds->array_key = opt_strdup(c, v, vn);
        } else if (slice_eq(w, wn, "memcap")) {
            if (parse_size(c, v, vn, &ds->memcap) < 0)
                return -1;
        } else if (slice_eq(w, wn, "hashsize")) {
            int64_t h;
            if (parse_num(c, v, vn, 1, 1 << 24, false, &h, "hashsize") < 0)
                return -1;
            ds->hashsize = (uint32_t)h;
        } else {
            return opt_error(c, f[i], "unknown %s field '%.*s'", rep ? "datarep" : "dataset",
                             (int)wn, w);
        }
    }
    if (ds->state && (ds->load || ds->save))
        return opt_error(c, f[0], "state cannot be combined with load or save");
    if (ds->format != DSF_CSV && !ds->value_key)
        return opt_error(c, f[0], "format %s needs value_key",
                         ds->format == DSF_JSON ? "json" : "ndjson");
    if (ds->format != DSF_CSV && (ds->save || ds->state))
        return opt_error(c, f[0], "a json set is read only (no save or state)");
    if (ds->array_key && ds->format != DSF_JSON)
        return opt_error(c, f[0], "array_key needs format json");
    return 0;
}

static int parse_set_name(struct rule_ctx *c, struct opt_dataset *ds, const char *s, size_t n)
{
    if (!is_name(s, n, SET_NAME_EXTRA))
        return opt_error(c, s, n ? "invalid set name '%.*s'" : "missing set name%.*s", (int)n,
                         s);
    ds->name = opt_strdup(c, s, n);
    return ds->name ? 0 : -1;
}

static int parse_dataset(struct rule_ctx *c, char *val)
{
    static const char *const CMDS[] = {"set", "isset", "isnotset", "unset", NULL};
    struct opt_dataset *ds = opt_arg_new(c, sizeof *ds);
    if (ds == NULL)
        return -1;
    const char *f[16];
    size_t fl[16];
    int k = list_split(val, strlen(val), ',', f, fl, 16);
    if (k > 14)
        return opt_error(c, f[14], "too many fields");
    int cmd = parse_choice(c, f[0], fl[0], CMDS, "dataset command");
    if (cmd < 0)
        return -1;
    ds->cmd = (uint8_t)cmd;
    if (k < 2)
        return opt_error(c, val, "expected 'CMD,NAME[,type T][,load F]…'");
    if (parse_set_name(c, ds, f[1], fl[1]) < 0)
        return -1;
    return parse_fields(c, ds, f, fl, 2, k, false);
}

static int parse_datarep(struct rule_ctx *c, char *val)
{
    static const char *const OPS[] = {">", "<", ">=", "<=", "==", NULL};
    struct opt_dataset *ds = opt_arg_new(c, sizeof *ds);
    if (ds == NULL)
        return -1;
    const char *f[10];
    size_t fl[10];
    int k = list_split(val, strlen(val), ',', f, fl, 10);
    if (k > 8)
        return opt_error(c, f[8], "too many fields");
    if (k < 3)
        return opt_error(c, val, "expected 'NAME,OP,VALUE[,type T][,load F]…'");
    ds->cmd = DS_REP;
    if (parse_set_name(c, ds, f[0], fl[0]) < 0)
        return -1;
    int op = parse_choice(c, f[1], fl[1], OPS, "datarep operator");
    if (op < 0)
        return -1;
    ds->rep_op = (uint8_t)op;
    int64_t v;
    if (parse_num(c, f[2], fl[2], 0, 65535, false, &v, "reputation value") < 0)
        return -1;
    ds->rep_value = (uint16_t)v;
    return parse_fields(c, ds, f, fl, 3, k, true);
}

static const struct opt_def DEFS[] = {
    {"dataset", OPT_PAYLOAD, D_SURI, ARG_REQUIRED, 0, parse_dataset, true, NULL},
    {"datarep", OPT_PAYLOAD, D_SURI, ARG_REQUIRED, 0, parse_datarep, true, NULL},
};
OPT_TABLE(opt_table_dataset, DEFS);
