/* opt_file.c — files seen in flows (Suricata) and Snort 3 file identification.
 *
 *   filestore[:to_server|to_client|both[,file|tx|ssn|flow]]
 *   filemagic:[!]"…"  filename:[!]"…"  fileext:[!]"…"
 *   filemd5|filesha1|filesha256:[!]LISTFILE     filesize:CMP
 *   file_meta:type NAME, id N[, category "…"][, group "…"][, version "…"]   (Snort 3)
 *   file_type:NAME[,VERSION] | "NAME" …                                      (Snort 3)
 */
#include <string.h>

#include "opt_util.h"
#include "registry.h"
#include "text.h"

static int parse_filestore(struct rule_ctx *c, char *val)
{
    static const char *const DIRS[] = {"request", "response", "to_server", "to_client", "both",
                                       NULL};
    static const char *const SCOPES[] = {"file", "tx", "ssn", "flow", NULL};
    if (val == NULL)
        return 0;
    const char *f[3];
    size_t fl[3];
    int k = list_split(val, strlen(val), ',', f, fl, 3);
    if (k > 2)
        return opt_error(c, f[2], "expected 'DIRECTION[,SCOPE]'");
    if (parse_choice(c, f[0], fl[0], DIRS, "direction") < 0)
        return -1;
    return k == 2 && parse_choice(c, f[1], fl[1], SCOPES, "scope") < 0 ? -1 : 0;
}

static int parse_neg_str(struct rule_ctx *c, char *val)
{
    struct opt_str *s = opt_arg_new(c, sizeof *s);
    return s ? parse_neg_string(c, val, true, 0, s) : -1;
}

static int parse_hash_list(struct rule_ctx *c, char *val)
{
    const char *p = val;
    if (*p == '!')
        p = skip_ws(p + 1, p + 1 + strlen(p + 1));
    return is_name(p, strlen(p), "/") ? 0
                                      : opt_error(c, p, "expected a list file name, got '%s'", p);
}

static int parse_filesize(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    return cm ? parse_cmp(c, val, strlen(val), 0, INT64_MAX, CMP_DASH, cm) : -1;
}

static int parse_file_meta(struct rule_ctx *c, char *val)
{
    unsigned seen = 0;
    struct list_iter it;
    const char *item;
    size_t n;
    list_init(&it, val, strlen(val), ',');
    while (list_next(&it, &item, &n)) {
        const char *w, *v;
        size_t wn, vn;
        split_word(item, n, &w, &wn, &v, &vn);
        unsigned bit = slice_eq(w, wn, "type")       ? 1
                     : slice_eq(w, wn, "id")         ? 2
                     : slice_eq(w, wn, "category")   ? 4
                     : slice_eq(w, wn, "group")      ? 8
                     : slice_eq(w, wn, "version")    ? 16 : 0;
        if (bit == 0)
            return opt_error(c, item, "unknown field '%.*s'", (int)wn, w);
        if (seen & bit)
            return opt_error(c, w, "'%.*s' given twice", (int)wn, w);
        seen |= bit;
        int64_t x;
        const uint8_t *s;
        uint32_t sl;
        const char *after;
        if (bit == 1) {
            if (!is_name(v, vn, NULL))
                return opt_error(c, w, "type needs a name");
        } else if (bit == 2) {
            if (parse_num(c, v, vn, 1, UINT32_MAX, false, &x, "id") < 0)
                return -1;
        } else if (parse_quoted(c, v, v + vn, 0, &s, &sl, &after) < 0) {
            return -1;
        } else if (after != v + vn) {
            return opt_error(c, after, "unexpected text after the string");
        }
    }
    return (seen & 3) == 3 ? 0 : opt_error(c, val, "needs type and id");
}

static int parse_file_type(struct rule_ctx *c, char *val)
{
    struct list_iter it;
    const char *item;
    size_t n;
    list_init(&it, val, strlen(val), '|');
    while (list_next(&it, &item, &n))
        if (n == 0)
            return opt_error(c, item, "empty file type");
    return 0;
}

static const struct opt_def DEFS[] = {
    {"filestore", OPT_MATCH, D_SURI, ARG_OPTIONAL, 0, parse_filestore, false, NULL},
    {"filemagic", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_neg_str, false, NULL},
    {"filename", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_neg_str, false, NULL},
    {"fileext", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_neg_str, false, NULL},
    {"filemd5", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_hash_list, false, NULL},
    {"filesha1", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_hash_list, false, NULL},
    {"filesha256", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_hash_list, false, NULL},
    {"filesize", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_filesize, false, NULL},
    {"file_meta", OPT_META, D_S3, ARG_REQUIRED, 0, parse_file_meta, false, NULL},
    {"file_type", OPT_MATCH, D_S3, ARG_REQUIRED, 0, parse_file_type, false, NULL},
};
OPT_TABLE(opt_table_file, DEFS);
