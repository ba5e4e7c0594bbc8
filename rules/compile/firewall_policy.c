/* firewall_policy.c — firewall mode's default policies from the configuration, as
 * suricata.yaml writes them:
 *
 *   firewall:
 *     policies:
 *       packet:  { filter: ["accept:hook"] }             # pre-flow, pre-stream, filter
 *       app:     { http1: { request-complete: ["accept:tx"] }, tls: { … } }
 *
 * A state's name takes '-' or '_'. A bad name or verdict is an error (the build fails with
 * the key in the message), never a policy silently ignored. */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"
#include "firewall.h"
#include "osprey_config.h"

/* "accept:hook" … → a verdict; false when it is none. Every table takes drop:packet,
 * drop:flow, accept:hook and accept:flow; packet tables accept:packet, states accept:tx. */
static bool verdict_of(const char *s, bool app, struct det_fw_verdict *v)
{
    static const struct {
        const char *word;
        uint8_t action, scope;
        bool pkt, app;
    } V[] = {
        {"drop:packet", OSPREY_ACTION_DROP, OSPREY_SCOPE_PACKET, true, true},
        {"drop:flow", OSPREY_ACTION_DROP, OSPREY_SCOPE_FLOW, true, true},
        {"accept:hook", OSPREY_ACTION_ACCEPT, OSPREY_SCOPE_HOOK, true, true},
        {"accept:flow", OSPREY_ACTION_ACCEPT, OSPREY_SCOPE_FLOW, true, true},
        {"accept:packet", OSPREY_ACTION_ACCEPT, OSPREY_SCOPE_PACKET, true, false},
        {"accept:tx", OSPREY_ACTION_ACCEPT, OSPREY_SCOPE_TX, false, true},
    };
    for (size_t i = 0; i < sizeof V / sizeof V[0]; i++)
        if (!strcmp(s, V[i].word) && (app ? V[i].app : V[i].pkt)) {
            *v = (struct det_fw_verdict){V[i].action, V[i].scope};
            return true;
        }
    return false;
}

struct pol_walk {
    struct det_fw *fw;
    const struct osprey_config *cfg;
    const char *map;   /* "firewall.policies.packet" or ".app.<proto>" */
    uint16_t proto;    /* 0: the packet tables */
    FILE *diag;
    int errors;
};

static void one(const char *key, const char *value, const char *file, int line, void *arg)
{
    (void)value, (void)file, (void)line;
    struct pol_walk *pw = arg;
    char full[256], name[64];
    snprintf(full, sizeof full, "%s.%s", pw->map, key);
    size_t n;
    const char *const *items = osprey_config_list(pw->cfg, full, &n);
    struct det_fw_verdict v;
    if (n != 1 || !verdict_of(items[0], pw->proto != 0, &v)) {
        if (pw->diag)
            fprintf(pw->diag, "osprey: %s: not a firewall policy (one of drop:packet, "
                              "drop:flow, accept:hook, accept:flow, %s)\n",
                    full, pw->proto ? "accept:tx" : "accept:packet");
        pw->errors++;
        return;
    }
    snprintf(name, sizeof name, "%s", key);
    for (char *c = name; *c; c++)
        if (*c == '-')
            *c = '_';
    if (!pw->proto) {
        static const char *const T[] = {[FW_PRE_FLOW] = "pre_flow",
                                        [FW_PRE_STREAM] = "pre_stream", [FW_FILTER] = "filter"};
        for (int t = FW_PRE_FLOW; t <= FW_FILTER; t++)
            if (!strcmp(name, T[t]))
                pw->fw->packet_policy[t] = v;
        return;
    }
    struct osprey_hook h;
    if (osprey_hook_find(pw->proto, name, &h) < 0) {
        if (pw->diag)
            fprintf(pw->diag, "osprey: %s: the protocol has no such state\n", full);
        pw->errors++;
        return;
    }
    struct det_fw_state *s = realloc(pw->fw->policies, (pw->fw->npolicies + 1) * sizeof *s);
    if (!s) {
        pw->errors++;
        return;
    }
    pw->fw->policies = s;
    s[pw->fw->npolicies++] =
        (struct det_fw_state){.proto = h.proto, .dir = h.dir, .rank = h.rank, .policy = v};
}

int det_fw_policies(struct det_fw *fw, const struct osprey_config *cfg, FILE *diag)
{
    /* the protocols whose states the configuration names (config_schema.c) */
    static const char *const APPS[] = {"http1", "tls"};
    struct pol_walk pw = {fw, cfg, "firewall.policies.packet", 0, diag, 0};
    osprey_config_each(cfg, pw.map, one, &pw);
    for (size_t i = 0; i < sizeof APPS / sizeof APPS[0]; i++) {
        char map[64];
        snprintf(map, sizeof map, "firewall.policies.app.%s", APPS[i]);
        int p = osprey_app_proto_find(APPS[i]);
        if (p <= OSPREY_APP_PROTO_FAILED)
            continue;
        pw.map = map;
        pw.proto = (uint16_t)p;
        osprey_config_each(cfg, map, one, &pw);
    }
    return pw.errors ? -1 : 0;
}
