/* config_get.c — typed read access to a loaded configuration.
 *
 * Asking for a key the schema does not have, or with the wrong getter, is a bug in the caller
 * (not in the user's file), so it aborts at once with the key's name instead of returning a
 * value that would be silently wrong.
 */
#include "config_internal.h"
#include "osprey_config.h"

#include <stdlib.h>

static const char *const TYPE_NAMES[] = {
    [CT_BOOL] = "bool", [CT_INT] = "int",   [CT_SIZE] = "size", [CT_SECONDS] = "seconds",
    [CT_STRING] = "string", [CT_ENUM] = "enum", [CT_LIST] = "list",
};

static _Noreturn void misuse(const char *getter, const char *key, const char *why)
{
    fprintf(stderr, "osprey_config_%s(\"%s\"): %s\n", getter, key, why);
    abort();
}

/* The value of a fixed key or map entry (NULL for an absent entry); aborts on misuse. When
 * `types` is non-zero the key's type must be one of its bits. */
static const struct cfg_value *lookup(const struct osprey_config *cfg, const char *key,
                                      unsigned types, const char *getter)
{
    const struct cfg_value *v = NULL;
    const char *name;
    long i = cfg_find_key(cfg, key);
    if (i >= 0) {
        v = &cfg->slot[i].value;
    } else if ((i = cfg_find_map_of_entry(cfg, key, &name)) >= 0) {
        const struct cfg_entry *e = cfg_find_entry(&cfg->slot[i], name);
        v = e ? &e->value : NULL;
    } else {
        misuse(getter, key, "no such key in the schema");
    }
    enum cfg_type t = cfg->schema[i].type;
    if (types && !(types & (1u << t))) {
        char why[64];
        snprintf(why, sizeof why, "the key is a %s", TYPE_NAMES[t]);
        misuse(getter, key, why);
    }
    return v;
}

/* Fixed keys always have a value after a load; entries may be absent. */
static const struct cfg_value *fixed(const struct osprey_config *cfg, const char *key,
                                     enum cfg_type type, const char *getter)
{
    const struct cfg_value *v = lookup(cfg, key, 1u << type, getter);
    if (!v)
        misuse(getter, key, "no such entry");
    return v;
}

bool osprey_config_bool(const struct osprey_config *cfg, const char *key)
{
    return fixed(cfg, key, CT_BOOL, "bool")->b;
}

int64_t osprey_config_int(const struct osprey_config *cfg, const char *key)
{
    return fixed(cfg, key, CT_INT, "int")->i;
}

uint64_t osprey_config_size(const struct osprey_config *cfg, const char *key)
{
    return fixed(cfg, key, CT_SIZE, "size")->u;
}

double osprey_config_seconds(const struct osprey_config *cfg, const char *key)
{
    return (double)fixed(cfg, key, CT_SECONDS, "seconds")->u;
}

const char *osprey_config_str(const struct osprey_config *cfg, const char *key)
{
    const struct cfg_value *v =
        lookup(cfg, key, 1u << CT_STRING | 1u << CT_ENUM | 1u << CT_LIST, "str");
    return v ? v->text : NULL;
}

const char *const *osprey_config_list(const struct osprey_config *cfg, const char *key,
                                      size_t *count)
{
    static const char *const none[1] = {NULL};
    const struct cfg_value *v = lookup(cfg, key, 1u << CT_LIST, "list");
    *count = v ? v->nitems : 0;
    return v && v->nitems ? (const char *const *)v->items : none;
}

size_t osprey_config_each(const struct osprey_config *cfg, const char *key,
                          osprey_config_entry_cb cb, void *arg)
{
    long m = cfg_find_map(cfg, key);
    if (m < 0)
        misuse("each", key, "not a map in the schema");
    const struct cfg_slot *s = &cfg->slot[m];
    for (size_t i = 0; i < s->nentries; i++)
        cb(s->entry[i].name, s->entry[i].value.text, s->entry[i].value.origin.file,
           s->entry[i].value.origin.line, arg);
    return s->nentries;
}

const char *osprey_config_origin(const struct osprey_config *cfg, const char *key, char *buf,
                                 size_t len)
{
    const struct cfg_value *v = lookup(cfg, key, 0, "origin");
    if (!v)
        return NULL;
    if (v->origin.line > 0)
        snprintf(buf, len, "%s:%d", v->origin.file, v->origin.line);
    else
        snprintf(buf, len, "%s", v->origin.file);
    return buf;
}

const char *osprey_config_text(const struct osprey_config *cfg, const char *key)
{
    const char *name;
    long i = cfg_find_key(cfg, key);
    if (i >= 0)
        return cfg->slot[i].value.text;
    if ((i = cfg_find_map_of_entry(cfg, key, &name)) < 0)
        return NULL;
    const struct cfg_entry *e = cfg_find_entry(&cfg->slot[i], name);
    return e ? e->value.text : NULL;
}
