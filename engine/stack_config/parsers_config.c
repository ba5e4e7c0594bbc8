/* parsers_config.c — app-layer.protocols.* → struct osprey_parsers_cfg: the keys each
 * protocol's descriptor lists (osprey_parsers_cfg_key), read by kind. */
#include "parsers_config.h"

static int limit(const struct osprey_config *c, const char *key, uint32_t *out, FILE *diag)
{
    uint64_t v = osprey_config_size(c, key);
    if (v > UINT32_MAX) {
        char where[256];
        fprintf(diag, "%s: %s: must be under 4gb\n", osprey_config_origin(c, key, where, sizeof where),
                key);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

int osprey_parsers_cfg_load(const struct osprey_config *c, struct osprey_parsers_cfg *out,
                            FILE *diag)
{
    osprey_parsers_cfg_defaults(out);
    int rc = 0;
    /* every key a protocol reads, from its descriptor (the parsers' registry) */
    size_t n = osprey_parsers_cfg_key_count();
    for (size_t i = 0; i < n; i++) {
        const struct osprey_parsers_cfg_key *k = osprey_parsers_cfg_key(i);
        void *at = (char *)out + k->offset;
        if (k->kind == OSPREY_CFG_SIZE)
            rc |= limit(c, k->key, at, diag);
        else if (k->kind == OSPREY_CFG_BOOL)
            *(bool *)at = osprey_config_bool(c, k->key);
        else
            *(uint32_t *)at = (uint32_t)osprey_config_int(c, k->key);
    }
    for (size_t i = 0; i < n && !rc; i++) {
        const struct osprey_parsers_cfg_key *k = osprey_parsers_cfg_key(i);
        if (k->kind == OSPREY_CFG_SIZE && *(uint32_t *)((char *)out + k->offset) < k->min) {
            char where[256];
            fprintf(diag, "%s: %s: at least %u bytes\n",
                    osprey_config_origin(c, k->key, where, sizeof where), k->key, k->min);
            rc = -1;
        }
    }
    return rc ? -1 : 0;
}
