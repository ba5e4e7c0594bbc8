/* opt_file.c — files seen in flows (Suricata) and Snort 3 file identification.
 *
 *   filestore[:to_server|to_client|both[,file|tx|ssn|flow]]
 *   filemagic:[!]"…"  filename:[!]"…"  fileext:[!]"…"
 *   filemd5|filesha1|filesha256:[!]LISTFILE     filesize:CMP
 *   file_meta:type NAME, id N[, category "…"][, group "…"][, version "…"]   (Snort 3)
 *   file_type:NAME[,VERSION] | "NAME" …                                      (Snort 3)
 */
#include <string.h>

#include "opt_params.h"
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

/* file_meta: nothing is kept (Snort 3's file identification is not run) */
static const struct opt_param FILE_META[] = {
    {.name = "type", .type = PT_NAME, .flags = P_REQUIRED, .what = "a name"},
    {.name = "id", .type = PT_NUM, .flags = P_REQUIRED, .lo = 1, .hi = UINT32_MAX},
    {.name = "category", .type = PT_STRING},
    {.name = "group", .type = PT_STRING},
    {.name = "version", .type = PT_STRING},
};

static int parse_file_meta(struct rule_ctx *c, char *val)
{
    static const struct opt_params SPEC = {OPT_PARAMS(FILE_META), .item = "field",
                                           .missing = "needs type and id"};
    return opt_params_parse(c, val, &SPEC, NULL, NULL);
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
