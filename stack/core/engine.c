/* engine.c — the process-wide engine: configuration and event definitions. */
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

void mon_engine_cfg_defaults(struct mon_engine_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    mon_decode_cfg_defaults(&cfg->decode);
    mon_defrag_cfg_defaults(&cfg->defrag);
    mon_flow_cfg_defaults(&cfg->flow);
    mon_tcp_cfg_defaults(&cfg->tcp);
}

static struct mon_host_policy *copy_hosts(const struct mon_policy_table *t)
{
    if (!t->n)
        return NULL;
    struct mon_host_policy *h = malloc(t->n * sizeof *h);
    if (h)
        memcpy(h, t->entries, t->n * sizeof *h);
    return h;
}

struct mon_engine *mon_engine_create(const struct mon_engine_cfg *cfg)
{
    struct mon_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->cfg = *cfg;
    e->hosts_defrag = copy_hosts(&cfg->defrag.policy);
    e->hosts_tcp = copy_hosts(&cfg->tcp.policy);
    e->reg = ev_registry_create();
    if ((cfg->defrag.policy.n && !e->hosts_defrag) || (cfg->tcp.policy.n && !e->hosts_tcp) ||
        !e->reg) {
        mon_engine_destroy(e);
        return NULL;
    }
    e->cfg.defrag.policy.entries = e->hosts_defrag;
    e->cfg.tcp.policy.entries = e->hosts_tcp;
    return e;
}

int mon_engine_freeze(struct mon_engine *eng)
{
    if (!eng)
        return MON_EINVAL;
    ev_registry_freeze(eng->reg);
    return MON_OK;
}

void mon_engine_destroy(struct mon_engine *eng)
{
    if (!eng)
        return;
    ev_registry_destroy(eng->reg);
    free(eng->hosts_defrag);
    free(eng->hosts_tcp);
    free(eng);
}

int64_t mon_define_event(struct mon_engine *eng, mon_event_t base, mon_filter_fn filter, void *arg)
{
    if (!eng || !filter)
        return MON_EINVAL;
    return ev_define(eng->reg, base, filter, arg);
}

int64_t mon_define_last_event(struct mon_engine *eng, mon_event_t base, mon_filter_fn filter,
                              void *arg)
{
    if (!eng || !filter)
        return MON_EINVAL;
    return ev_define_last(eng->reg, base, filter, arg);
}

int64_t mon_alloc_event(struct mon_engine *eng, mon_event_t parent)
{
    if (!eng)
        return MON_EINVAL;
    return ev_alloc(eng->reg, parent);
}

size_t mon_engine_event_count(const struct mon_engine *eng)
{
    return ev_count(eng->reg);
}

const char *mon_strerror(int err)
{
    switch (err) {
    case MON_OK: return "success";
    case MON_EINVAL: return "invalid argument";
    case MON_ENOMEM: return "out of memory";
    case MON_ENOENT: return "no such event, socket, registration or data";
    case MON_EFROZEN: return "the engine is frozen";
    case MON_ENOTFROZEN: return "the engine is not frozen yet";
    case MON_EBPF: return "scope expression does not compile";
    case MON_EOVERWRITTEN: return "data was overwritten since the last read";
    case MON_ENOBUF: return "no reassembly buffer on this side";
    case MON_ESTATE: return "not allowed in this phase";
    case MON_ERANGE: return "offset or length out of range";
    default: return "unknown error";
    }
}

const char *mon_event_name(mon_event_t ev)
{
    static const char *const names[MON_EV_BUILTIN_COUNT] = {
        [MON_ON_PKT_IN] = "PKT_IN",
        [MON_ON_CONN_START] = "CONN_START",
        [MON_ON_REXMIT] = "REXMIT",
        [MON_ON_TCP_STATE_CHANGE] = "TCP_STATE_CHANGE",
        [MON_ON_CONN_NEW_DATA] = "CONN_NEW_DATA",
        [MON_ON_CONN_END] = "CONN_END",
        [MON_ON_ORPHAN] = "ORPHAN",
        [MON_ON_ERROR] = "ERROR",
        [MON_ON_DEPTH] = "DEPTH",
        [MON_ON_ONE_SIDED] = "ONE_SIDED",
        [MON_ON_TIMEOUT] = "TIMEOUT",
        [MON_ON_DECODE_EVENT] = "DECODE_EVENT",
    };
    return ev < MON_EV_BUILTIN_COUNT ? names[ev] : "UDE";
}
