/* firewall_plan.c — where a firewall rule runs (its table, its base event) and what the
 * ruleset's firewall holds (which tables have rules), for firewall.c's commit step. */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"
#include "firewall.h"

const char *det_fw_plan(const struct osprey_rule *r, uint16_t app, uint8_t *table,
                        uint16_t *base, uint8_t *dir, uint8_t *rank)
{
    *dir = *rank = 0;
    if (!app) { /* the packet hooks: one table each, `flow_start` is filter's first packets */
        static const struct {
            const char *hook;
            uint8_t table;
        } PKT[] = {{"pre_flow", FW_PRE_FLOW}, {"pre_stream", FW_PRE_STREAM},
                   {"all", FW_FILTER},        {"flow_start", FW_FILTER}};
        if (r->scope == OSPREY_SCOPE_TX)
            return "accept:tx on a packet hook (a transaction is an application state's)";
        for (size_t i = 0; i < sizeof PKT / sizeof PKT[0]; i++)
            if (!strcmp(r->hook, PKT[i].hook)) {
                *table = PKT[i].table;
                *base = DB_PKT;
                return NULL;
            }
        return "a packet hook Osprey does not know (pre_flow, pre_stream, all, flow_start)";
    }
    struct osprey_hook h;
    if (osprey_hook_find(app, r->hook, &h) < 0)
        return "a rule hook this protocol does not have";
    if (h.event < 0)
        return "a protocol state Osprey raises no event at or after (its rules never run)";
    *table = FW_APP;
    *base = det_app_base((uint16_t)h.event);
    *dir = h.dir;
    *rank = h.rank;
    return NULL;
}

int det_fw_note(struct osprey_detect *d, const struct det_rule *dr)
{
    if (!d->fw) {
        if (!(d->fw = calloc(1, sizeof *d->fw)))
            return -1;
        for (int t = 0; t < FW__COUNT; t++) /* the packet tables' default: drop:packet */
            d->fw->packet_policy[t] =
                (struct det_fw_verdict){OSPREY_ACTION_DROP, OSPREY_SCOPE_PACKET};
    }
    d->fw->table_rules[dr->fw_table] = true;
    return 0;
}

void det_fw_free(struct det_fw *fw)
{
    if (!fw)
        return;
    free(fw->policies);
    free(fw);
}
