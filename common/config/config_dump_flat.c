/* config_dump_flat.c — the effective configuration as Suricata's `--dump-config` prints it:
 * one "dotted.key = value" line per value, list items as "key.N = item".
 *
 * suricata-update runs `ENGINE -c FILE --dump-config` and reads these lines for the rule
 * variables (vars.address-groups.*) and the enabled app-layer protocols; osprey prints this form
 * when it runs under Suricata's tools (engine/main.c decides), YAML otherwise (config_dump.c).
 */
#include "config_internal.h"
#include "osprey_config.h"

#include <string.h>

static void value(FILE *out, const char *key, const struct cfg_value *v, enum cfg_type type)
{
    if (type == CT_LIST) {
        for (size_t i = 0; i < v->nitems; i++)
            fprintf(out, "%s.%zu = %s\n", key, i, v->items[i]);
        return;
    }
    fprintf(out, "%s = %s\n", key, v->text ? v->text : "");
}

void osprey_config_dump_flat(const struct osprey_config *cfg, FILE *out)
{
    for (size_t i = 0; i < cfg->nkeys; i++) {
        const struct cfg_key *row = &cfg->schema[i];
        const struct cfg_slot *s = &cfg->slot[i];
        if (row->kind == CK_KEY) {
            value(out, row->path, &s->value, row->type);
        } else if (row->kind == CK_MAP) {
            size_t n = strlen(row->path) - 1; /* "prefix.*" → "prefix." */
            for (size_t j = 0; j < s->nentries; j++) {
                char key[512];
                snprintf(key, sizeof key, "%.*s%s", (int)n, row->path, s->entry[j].name);
                value(out, key, &s->entry[j].value, row->type);
            }
        }
    }
}
