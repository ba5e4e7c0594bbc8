/* opt_metadata.c — metadata:KEY VALUE[, KEY VALUE]… (implemented).
 *
 * ET writes `created_at 2019_04_15, updated_at …`; Snort `policy balanced-ips drop, ruleset
 * community, service http`. A key alone is allowed; an empty entry (",,") is not. */
#include <string.h>

#include "opt_util.h"
#include "registry.h"
#include "text.h"

static int parse_metadata(struct rule_ctx *c, char *val)
{
    size_t len = strlen(val), count = 1;
    for (size_t i = 0; i < len; i++)
        count += val[i] == ',';
    struct opt_metadata *m = opt_arg_new(c, sizeof *m);
    struct opt_metadata_entry *e = arena_alloc(c->ar, count * sizeof *e);
    if (m == NULL || e == NULL)
        return rule_oom(c);
    struct list_iter it;
    const char *item;
    size_t n;
    uint32_t k = 0;
    list_init(&it, val, len, ',');
    while (list_next(&it, &item, &n)) {
        if (n == 0)
            return opt_error(c, item, "empty entry");
        const char *key, *v;
        size_t kn, vn;
        split_word(item, n, &key, &kn, &v, &vn);
        if (!is_name(key, kn, ":/"))
            return opt_error(c, key, "invalid key '%.*s'", (int)kn, key);
        e[k].key = opt_strdup(c, key, kn);
        e[k].value = opt_strdup(c, v, vn);
        if (e[k].key == NULL || e[k].value == NULL)
            return -1;
        k++;
    }
    m->n = k;
    m->e = e;
    return 0;
}

static const struct opt_def DEFS[] = {
    {"metadata", OPT_META, D_ALL, ARG_REQUIRED, 0, parse_metadata, true, NULL},
};
OPT_TABLE(opt_table_metadata, DEFS);
