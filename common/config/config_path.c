/* config_path.c — file names in the configuration, resolved the way users expect.
 *
 * A relative name written in a config file means "next to that file" (so an installed
 * /etc/osprey/osprey.yaml can say `classification-file: classification.config` and work from
 * any directory); a built-in default is relative to the program's shipped configuration
 * (osprey_config_home: the installed SYSCONFDIR/osprey, or the source etc/ of a build tree);
 * a --set value stays relative to the working directory.
 */
#include "config_internal.h"
#include "osprey_config.h"

#include <stdlib.h>
#include <string.h>

/* The value of a fixed key; any other name is a bug in the caller, as for the getters. */
static const struct cfg_value *value_of(const struct osprey_config *cfg, const char *key)
{
    long i = cfg_find_key(cfg, key);
    if (i < 0) {
        fprintf(stderr, "osprey_config_path(\"%s\"): no such key in the schema\n", key);
        abort();
    }
    return &cfg->slot[i].value;
}

const char *osprey_config_dir(const struct osprey_config *cfg, const char *key, char *buf,
                              size_t len)
{
    const struct cfg_value *v = value_of(cfg, key);
    if (!v || !cfg->path || v->origin.file != cfg->path || len == 0)
        return NULL;
    const char *slash = strrchr(cfg->path, '/');
    size_t n = slash ? (size_t)(slash - cfg->path) : 0;
    if (slash && n == 0)
        n = 1; /* "/osprey.yaml": the root directory */
    if (n >= len)
        return NULL;
    memcpy(buf, cfg->path, n);
    buf[n] = '\0';
    return buf;
}

const char *osprey_config_path(const struct osprey_config *cfg, const char *key, char *buf,
                               size_t len)
{
    const char *text = osprey_config_str(cfg, key);
    char dir[4096];
    const struct cfg_value *v = value_of(cfg, key);
    if (text && text[0] && text[0] != '/' && v->origin.file == CFG_ORIGIN_DEFAULT) {
        if (!osprey_config_home(dir, sizeof dir) ||
            (size_t)snprintf(buf, len, "%s/%s", dir, text) >= len)
            return NULL;
        return buf;
    }
    if (!text || !text[0] || text[0] == '/' ||
        !osprey_config_dir(cfg, key, dir, sizeof dir) || !dir[0])
        return text;
    const char *sep = dir[strlen(dir) - 1] == '/' ? "" : "/";
    if ((size_t)snprintf(buf, len, "%s%s%s", dir, sep, text) >= len)
        return NULL;
    return buf;
}
