/* parsers_config.c — app-layer.protocols.* → struct osprey_parsers_cfg: every registered
 * protocol's app-layer.protocols.<name>.enabled (yes / no / detection-only, Suricata's
 * switch), the detection ports of those whose probes read a port, and the keys each protocol's descriptor lists (osprey_parsers_cfg_key), read by
 * kind into its settings. No protocol is named here. */
#include "parsers_config.h"

#include <string.h>
#include <strings.h>

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

/* app-layer.protocols.<name>.enabled of every protocol the schema documents (a protocol
 * without that row stays enabled) */
static void modes(const struct osprey_config *c, struct osprey_parsers_cfg *out)
{
    for (uint16_t id = 2; id < osprey_app_proto_count() && id < OSPREY_APP_PROTO_MAX; id++) {
        char key[128];
        snprintf(key, sizeof key, "app-layer.protocols.%s.enabled", osprey_app_proto_name(id));
        const char *v = osprey_config_text(c, key);
        if (!v)
            continue;
        if (!strcasecmp(v, "detection-only"))
            out->mode[id] = OSPREY_APP_DETECTION_ONLY;
        else if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcasecmp(v, "off") ||
                 !strcmp(v, "0"))
            out->mode[id] = OSPREY_APP_DISABLED;
        else
            out->mode[id] = OSPREY_APP_ENABLED;
    }
}

/* app-layer.protocols.<name>.detection-ports.dp (both transports) and its .tcp. / .udp.
 * forms of every protocol whose probes read a port (osprey_app_proto_home_port) */
static int detect_ports(const struct osprey_config *c, struct osprey_parsers_cfg *out,
                        FILE *diag)
{
    static const char *const L4[] = {"tcp.", "udp."};
    int rc = 0;
    for (uint16_t id = 2; id < osprey_app_proto_count() && id < OSPREY_APP_PROTO_MAX; id++) {
        if (!osprey_app_proto_home_port(id))
            continue;
        for (int t = 0; t < 2; t++) {
            char key[160];
            snprintf(key, sizeof key, "app-layer.protocols.%s.%sdetection-ports.dp",
                     osprey_app_proto_name(id), L4[t]);
            const char *v = osprey_config_text(c, key);
            if (!v || !*v) { /* the key without the transport: both ("" : not set) */
                snprintf(key, sizeof key, "app-layer.protocols.%s.detection-ports.dp",
                         osprey_app_proto_name(id));
                v = osprey_config_text(c, key);
            }
            if (v && *v && osprey_port_ranges_parse(v, out->detect_ports[id][t]) != 0) {
                char where[256];
                fprintf(diag, "%s: %s: not a list of ports ('%s')\n",
                        osprey_config_origin(c, key, where, sizeof where), key, v);
                rc = -1;
            }
        }
    }
    return rc;
}

/* An ENUM key's value as its index among the key's names (the schema has checked it). */
static int enum_value(const struct osprey_config *c, const struct osprey_parsers_cfg_key *k,
                      uint32_t *out, FILE *diag)
{
    const char *v = osprey_config_str(c, k->key);
    for (uint32_t i = 0; v && k->names && k->names[i]; i++)
        if (!strcmp(v, k->names[i])) {
            *out = i;
            return 0;
        }
    char where[256];
    fprintf(diag, "%s: %s: unknown value '%s'\n", osprey_config_origin(c, k->key, where, sizeof where),
            k->key, v ? v : "");
    return -1;
}

int osprey_parsers_cfg_load(const struct osprey_config *c, struct osprey_parsers_cfg *out,
                            FILE *diag)
{
    osprey_parsers_cfg_defaults(out);
    modes(c, out);
    int rc = detect_ports(c, out, diag);
    /* every key a protocol reads, from its descriptor (the parsers' registry) */
    size_t n = osprey_parsers_cfg_key_count();
    for (size_t i = 0; i < n; i++) {
        const struct osprey_parsers_cfg_key *k = osprey_parsers_cfg_key(i);
        void *at = osprey_parsers_cfg_at(out, i);
        char where[256];
        uint8_t kind = k->kind & (uint8_t)~OSPREY_CFG_IF_SET;
        if ((k->kind & OSPREY_CFG_IF_SET) &&
            !strcmp(osprey_config_origin(c, k->key, where, sizeof where), "default"))
            continue;
        if (kind == OSPREY_CFG_SIZE)
            rc |= limit(c, k->key, at, diag);
        else if (kind == OSPREY_CFG_BOOL)
            *(bool *)at = osprey_config_bool(c, k->key);
        else if (kind == OSPREY_CFG_ENUM)
            rc |= enum_value(c, k, at, diag);
        else
            *(uint32_t *)at = (uint32_t)osprey_config_int(c, k->key);
    }
    for (size_t i = 0; i < n && !rc; i++) {
        const struct osprey_parsers_cfg_key *k = osprey_parsers_cfg_key(i);
        if ((k->kind & (uint8_t)~OSPREY_CFG_IF_SET) == OSPREY_CFG_SIZE &&
            *(uint32_t *)osprey_parsers_cfg_at(out, i) < k->min) {
            char where[256];
            fprintf(diag, "%s: %s: at least %u bytes\n",
                    osprey_config_origin(c, k->key, where, sizeof where), k->key, k->min);
            rc = -1;
        }
    }
    return rc ? -1 : 0;
}
