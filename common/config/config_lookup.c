/* config_lookup.c — finding schema rows and map entries by dotted path.
 *
 * Linear scans: the schema has tens of rows and lookups happen at start-up, never per packet.
 */
#include "config_internal.h"

#include <string.h>

long cfg_find_key(const struct osprey_config *cfg, const char *path)
{
    for (size_t i = 0; i < cfg->nkeys; i++)
        if (cfg->schema[i].kind == CK_KEY && !strcmp(cfg->schema[i].path, path))
            return (long)i;
    return -1;
}

long cfg_find_map(const struct osprey_config *cfg, const char *path)
{
    size_t len = strlen(path);
    for (size_t i = 0; i < cfg->nkeys; i++) {
        const char *p = cfg->schema[i].path;
        if (cfg->schema[i].kind == CK_MAP && !strncmp(p, path, len) && !strcmp(p + len, ".*"))
            return (long)i;
    }
    return -1;
}

struct cfg_entry *cfg_find_entry(const struct cfg_slot *slot, const char *name)
{
    for (size_t i = 0; i < slot->nentries; i++)
        if (!strcmp(slot->entry[i].name, name))
            return &slot->entry[i];
    return NULL;
}

bool cfg_is_section(const struct osprey_config *cfg, const char *path)
{
    size_t len = strlen(path);
    for (size_t i = 0; i < cfg->nkeys; i++) {
        const char *p = cfg->schema[i].path;
        if (!strncmp(p, path, len) && p[len] == '.')
            return true;
    }
    return false;
}

long cfg_find_map_of_entry(const struct osprey_config *cfg, const char *key, const char **name)
{
    for (size_t i = 0; i < cfg->nkeys; i++) {
        const char *p = cfg->schema[i].path;
        size_t plen = strlen(p) - 1; /* keeps the '.' before '*' */
        if (cfg->schema[i].kind == CK_MAP && !strncmp(p, key, plen) && key[plen]) {
            *name = key + plen;
            return (long)i;
        }
    }
    return -1;
}
