/* ips_policy.c — IPS or IDS and the midstream exception policy (see ips_policy.h);
 * stream.inline follows IPS mode in engine/stack_config (osprey_stack_cfg_delivery). */
#include "ips_policy.h"

#include <string.h>

bool osprey_ips_mode(const struct osprey_options *opts, const struct osprey_config *cfg)
{
    if (opts->read_path)
        return opts->simulate_ips;
    if (opts->inline_pair)
        return true;
    return opts->dpdk && strcmp(osprey_config_str(cfg, "dpdk.copy-mode"), "ips") == 0;
}

static bool is_set(const struct osprey_config *cfg, const char *key)
{
    char where[256];
    return strcmp(osprey_config_origin(cfg, key, where, sizeof where), "default") != 0;
}

/* Suricata takes these with a warning and applies them as written; so do we. */
static void warn(const struct osprey_config *cfg, const char *value, const char *why, FILE *diag)
{
    char where[256];
    fprintf(diag, "warning: %s: stream.midstream-policy: '%s' %s\n",
            osprey_config_origin(cfg, "stream.midstream-policy", where, sizeof where), value, why);
}

/* The policy word in force, Suricata's way: the key itself, else the master switch, else
 * auto; *direct tells whether the key itself was set (only then does a misfit warn). */
static const char *midstream_word(const struct osprey_config *cfg, bool ips, bool midstream,
                                  bool *direct)
{
    *direct = is_set(cfg, "stream.midstream-policy");
    if (*direct)
        return osprey_config_str(cfg, "stream.midstream-policy");
    if (!is_set(cfg, "exception-policy"))
        return "auto";
    const char *m = osprey_config_str(cfg, "exception-policy");
    if (!ips && (!strcmp(m, "drop-flow") || !strcmp(m, "drop-packet")))
        return "ignore";
    if (midstream)
        return !strcmp(m, "pass-flow") || !strcmp(m, "pass-packet") ? "pass-flow" : "ignore";
    if (!strcmp(m, "drop-packet"))
        return "drop-flow";
    if (!strcmp(m, "pass-packet"))
        return "pass-flow";
    return m;
}

/* A flow exception policy (today stream.reassembly.memcap-policy): the key, else the master
 * switch (whose drop-flow/drop-packet mean ignore in IDS mode), else auto: drop-flow in IPS
 * mode, ignore in IDS mode. */
static enum osprey_exception_policy flow_policy(const struct osprey_config *cfg, const char *key,
                                               bool ips)
{
    const char *v = "auto";
    if (is_set(cfg, key)) {
        v = osprey_config_str(cfg, key);
    } else if (is_set(cfg, "exception-policy")) {
        v = osprey_config_str(cfg, "exception-policy");
        if (!ips && (!strcmp(v, "drop-flow") || !strcmp(v, "drop-packet")))
            v = "ignore";
    }
    if (!strcmp(v, "auto"))
        v = ips ? "drop-flow" : "ignore";
    static const struct { const char *word; enum osprey_exception_policy p; } map[] = {
        {"drop-flow", OSPREY_EXCEPTION_DROP_FLOW}, {"drop-packet", OSPREY_EXCEPTION_DROP_PACKET},
        {"reject", OSPREY_EXCEPTION_REJECT},       {"bypass", OSPREY_EXCEPTION_BYPASS},
        {"pass-flow", OSPREY_EXCEPTION_PASS_FLOW}, {"pass-packet", OSPREY_EXCEPTION_PASS_PACKET},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(v, map[i].word))
            return map[i].p;
    return OSPREY_EXCEPTION_IGNORE;
}

void osprey_detect_policy_load(const struct osprey_config *cfg, bool ips,
                               struct osprey_detect_policy *out, FILE *diag)
{
    memset(out, 0, sizeof *out);
    out->ips = ips;
    out->reassembly_memcap = flow_policy(cfg, "stream.reassembly.memcap-policy", ips);
    bool midstream = osprey_config_bool(cfg, "stream.midstream");
    bool direct;
    const char *v = midstream_word(cfg, ips, midstream, &direct);
    if (!strcmp(v, "auto"))
        v = !midstream && ips ? "drop-flow" : "ignore";
    if (direct && midstream && strcmp(v, "ignore") && strcmp(v, "pass-flow"))
        warn(cfg, v, "with stream.midstream on: only ignore and pass-flow let such sessions "
                     "be picked up; they are not", diag);
    else if (direct && !ips && !strcmp(v, "drop-flow"))
        warn(cfg, v, "in IDS mode: the flows are marked dropped, nothing is enforced", diag);
    if (direct && (!strcmp(v, "drop-packet") || !strcmp(v, "pass-packet")))
        warn(cfg, v, "is a packet action: it applies to every packet of such a session", diag);
    /* pass-flow: with midstream on, the sessions picked up midstream are not inspected;
     * with it off, the sessions the stack never picks up (whose packets the packet rules
     * inspect otherwise, as Suricata's do); bypass and pass-packet mean the same here (with
     * midstream on they stop the pick-up, above: such sessions are then not inspected) */
    if (!strcmp(v, "pass-flow") || !strcmp(v, "bypass") || !strcmp(v, "pass-packet"))
        out->midstream = OSPREY_MIDSTREAM_PASS_FLOW;
    else if (!strcmp(v, "drop-flow") || !strcmp(v, "drop-packet"))
        out->midstream = OSPREY_MIDSTREAM_DROP_FLOW;
    else if (!strcmp(v, "reject"))
        out->midstream = OSPREY_MIDSTREAM_REJECT;
}
