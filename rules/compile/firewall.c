/* firewall.c — the firewall's commit step (Suricata 8's firewall mode, docs/rules.md).
 *
 * Firewall rules are compiled into chains like any rule; their matches wait in the worker's
 * pending list with the others. At a commit, before the threat-detection (TD) matches, the
 * firewall matches decide, table by table, in the order the rules are in their files:
 *   - the packet's commit (PKT_IN) runs the packet tables pre_flow, pre_stream (each only
 *     when it holds rules) and filter (`all`, `flow_start`);
 *   - an application event that is a protocol state (a hook) runs the state's table, after
 *     the states of the same direction and transaction that have no event of their own.
 * In a table the first matching rule decides (its detection_filter / threshold and flowbits
 * conditions are part of matching); no match is the table's default policy. accept:hook goes
 * on to the next table, accept:tx accepts the transaction's remaining states, accept:packet
 * and accept:flow end the firewall for the packet or the flow, drop:packet and drop:flow drop
 * them. A packet the firewall dropped is not shown to the TD rules. */
#include <stdlib.h>

#include "detect_int.h"
#include "firewall.h"
#include "opt_eval.h"

static bool fw_rule(const struct det_pending *pm)
{
    return pm->dr->fw_table != FW_NONE;
}

/* Does this match count as the rule matching: its flowbits conditions and its thresholds
 * (detection_filter makes the rule match from the count on, as in Suricata). */
static bool fw_holds(struct osprey_detect_worker *w, const struct det_pending *pm,
                     struct det_flow *df, const struct mon_packet *p)
{
    const struct det_rule *dr = pm->dr;
    for (uint32_t i = 0; i < dr->nconds; i++)
        if (!df || !flowbits_test(dr->conds[i].b, dr->conds[i].ids, df->bits))
            return false;
    if ((dr->thr[0] || dr->thr[1]) && !det_thr_allow(w->thr, dr, p, pm->f))
        return false;
    if (df)
        for (uint32_t i = 0; i < dr->nbits; i++)
            flowbits_apply(dr->bits[i].b, dr->bits[i].ids, df->bits);
    return true;
}

static void fw_alert(struct osprey_detect_worker *w, const struct det_pending *pm,
                     const struct mon_packet *p)
{
    const struct det_rule *dr = pm->dr;
    if (!dr->pass_alerts || dr->noalert || !p) /* firewall rules alert with `alert` only */
        return;
    struct osprey_alert a = {
        .rule = dr->rule,
        .category = dr->category,
        .severity = dr->severity,
        .nmeta = dr->nmeta,
        .meta = dr->meta,
        .pkt = p,
        .flow = pm->f,
        .to_server = pm->f ? det_to_server(pm->side, dr->base) : true,
        .from_stream = dr->kind == DK_APP && pm->f && pm->f->proto == 6,
        .action = dr->rule->action,
        .firewall = true,
    };
    det_alert(w, &a);
}

static void fw_drop(struct osprey_detect_worker *w, struct det_flow *df, bool flow,
                    uint8_t reason)
{
    if (!w->pkt_dropped)
        w->verdicts.dropped++;
    w->pkt_dropped = true;
    if (!w->fw.reason)
        w->fw.reason = reason;
    if (flow && df && !df->dropped) { /* (not w->drop_df: no pass rule takes it back) */
        df->dropped = true;
        df->fw.dropped = true;
        df->dropped_on = w->verdict_of;
    }
}

/* The reason a table's drop gives: a rule's, a pre_* table's, or its default's. */
static uint8_t drop_reason(uint8_t table, bool by_rule)
{
    if (table == FW_PRE_FLOW)
        return FWR_PRE_FLOW;
    if (table == FW_PRE_STREAM)
        return FWR_PRE_STREAM;
    if (by_rule)
        return FWR_RULES;
    return table == FW_APP ? FWR_DEFAULT_APP : FWR_DEFAULT_PACKET;
}

void det_fw_packet_end(struct osprey_detect_worker *w)
{
    if (!w->d->fw || w->fw_counted == w->verdict_of || !w->verdict_of)
        return;
    w->fw_counted = w->verdict_of;
    struct osprey_detect_verdicts *v = &w->verdicts;
    if (!w->fw.reason) { /* (a TD drop of a packet the firewall accepted is the TD's) */
        v->fw_accepted++;
        return;
    }
    v->fw_blocked++;
    uint64_t *by[] = {[FWR_RULES] = &v->fw_drop_rules,
                      [FWR_DEFAULT_PACKET] = &v->fw_drop_default_packet,
                      [FWR_DEFAULT_APP] = &v->fw_drop_default_app,
                      [FWR_PRE_FLOW] = &v->fw_drop_pre_flow,
                      [FWR_PRE_STREAM] = &v->fw_drop_pre_stream,
                      [FWR_FLOW_DROP] = &v->fw_drop_flow};
    (*by[w->fw.reason])++;
}

enum fw_next { FW_NEXT_TABLE, FW_STOP };

/* Apply a verdict (a rule's or a default). */
static enum fw_next fw_apply(struct osprey_detect_worker *w, struct det_flow *df,
                             struct det_fw_verdict v, bool app, uint32_t tx, uint8_t reason)
{
    if (v.action == OSPREY_ACTION_DROP) {
        fw_drop(w, df, v.scope == OSPREY_SCOPE_FLOW || app, reason);
        if (app)
            w->fw.dropped_app = true;
        else
            w->fw.dropped_pkt = true;
        return FW_STOP;
    }
    switch (v.scope) {
    case OSPREY_SCOPE_PACKET:
        w->fw.accepted = true;
        return FW_STOP;
    case OSPREY_SCOPE_FLOW:
        if (df)
            df->fw.accepted = true;
        return FW_STOP;
    case OSPREY_SCOPE_TX:
        if (df && app)
            df->fw.tx_accepted = tx + 1;
        return FW_STOP;
    default: /* accept:hook */
        return FW_NEXT_TABLE;
    }
}

/* One table: the first firewall match in file order that holds decides, else the default. */
static enum fw_next fw_table(struct osprey_detect_worker *w, struct det_flow *df,
                             const struct mon_packet *p, uint8_t table, uint16_t proto,
                             uint8_t dir, uint8_t rank, struct det_fw_verdict dflt, uint32_t tx)
{
    struct det_pending *best = NULL;
    for (;;) {
        best = NULL;
        for (uint32_t i = 0; i < w->nfw; i++) {
            struct det_pending *pm = &w->fwp[i];
            const struct det_rule *dr = pm->dr;
            /* (retried: this match was tried in its table already and did not hold) */
            if (dr->fw_table != table || pm->retried ||
                (table == FW_APP && (dr->fw_proto != proto || dr->fw_dir != dir ||
                                     dr->fw_rank != rank)))
                continue;
            if (!best || dr->rule_idx < best->dr->rule_idx)
                best = pm;
        }
        if (!best)
            return fw_apply(w, df, dflt, table == FW_APP, tx, drop_reason(table, false));
        best->retried = true;
        if (fw_holds(w, best, df, p))
            break;
    }
    fw_alert(w, best, p);
    struct det_fw_verdict v = {(uint8_t)best->dr->rule->action, (uint8_t)best->dr->rule->scope};
    return fw_apply(w, df, v, table == FW_APP, tx, drop_reason(table, true));
}

static void fw_packet_tables(struct osprey_detect_worker *w, struct det_flow *df,
                             const struct mon_packet *p)
{
    const struct det_fw *fw = w->d->fw;
    w->fw.done = true;
    for (uint8_t t = FW_PRE_FLOW; t <= FW_FILTER; t++) {
        /* pre_flow and pre_stream filter only when they hold rules; filter always does */
        if (t != FW_FILTER && !fw->table_rules[t])
            continue;
        if (fw_table(w, df, p, t, 0, 0, 0, fw->packet_policy[t], 0) == FW_STOP)
            return;
    }
}

/* The default of an application state: configured, else accept:hook for the start state
 * (nothing of the message is parsed there yet) and drop:flow for the others. */
static struct det_fw_verdict app_default(const struct det_fw *fw, uint16_t proto, uint8_t dir,
                                         uint8_t rank)
{
    for (uint32_t i = 0; i < fw->npolicies; i++) {
        const struct det_fw_state *s = &fw->policies[i];
        if (s->proto == proto && s->dir == dir && s->rank == rank)
            return s->policy;
    }
    if (rank == 0)
        return (struct det_fw_verdict){OSPREY_ACTION_ACCEPT, OSPREY_SCOPE_HOOK};
    return (struct det_fw_verdict){OSPREY_ACTION_DROP, OSPREY_SCOPE_FLOW};
}

static void fw_app_tables(struct osprey_detect_worker *w, struct det_flow *df,
                          struct mon_flow *f, uint16_t ev, const struct mon_packet *p)
{
    struct osprey_hook h;
    if (!df || osprey_event_hook(ev, &h) < 0)
        return; /* not a protocol state: nothing to filter */
    uint32_t tx = osprey_parsers_tx_id(w->ctx, f);
    struct det_fw_flow *ff = &df->fw;
    if (!ff->tx_seen[h.dir] || ff->tx[h.dir] != tx) { /* a new transaction starts at state 0 */
        ff->tx_seen[h.dir] = true;
        ff->tx[h.dir] = tx;
        ff->rank[h.dir] = -1;
    }
    if (ff->tx_accepted == tx + 1)
        return; /* accept:tx */
    for (int k = ff->rank[h.dir] + 1; k <= h.rank; k++) {
        struct osprey_hook s;
        const char *name = osprey_hook_name(h.proto, h.dir, (uint8_t)k);
        /* a state with an event of its own that did not come (no body) is not evaluated;
         * the states without one are, at the next state's event */
        if (k < h.rank && name && osprey_hook_find(h.proto, name, &s) == 0 && s.own_event)
            continue;
        struct det_fw_verdict dflt = app_default(w->d->fw, h.proto, h.dir, (uint8_t)k);
        if (fw_table(w, df, p, FW_APP, h.proto, h.dir, (uint8_t)k, dflt, tx) == FW_STOP) {
            ff->rank[h.dir] = (int16_t)h.rank;
            return;
        }
    }
    ff->rank[h.dir] = (int16_t)h.rank;
}

bool det_fw_commit(struct osprey_detect_worker *w, uint16_t base, struct mon_flow *f,
                   const struct mon_packet *p)
{
    /* the firewall's matches out of the pending list, in arrival order */
    w->nfw = 0;
    uint32_t k = 0;
    for (uint32_t i = 0; i < w->npending; i++) {
        if (!fw_rule(&w->pending[i])) {
            w->pending[k++] = w->pending[i];
            continue;
        }
        struct det_pending pm = w->pending[i];
        pm.retried = false;
        det_pending_push(&w->fwp, &w->nfw, &w->cap_fwp, pm);
    }
    w->npending = k;
    struct det_flow *df = f ? mon_get_uctx(w->ctx, f) : NULL;
    /* accept:flow, a dropped flow, or one an exception policy passed (midstream pass-flow):
     * the firewall has nothing more to decide there */
    bool flow_over = df && (df->fw.accepted || df->pass ||
                            (df->dropped && df->dropped_on != w->verdict_of));
    if (base == DB_PKT && !w->fw.done && !flow_over)
        fw_packet_tables(w, df, p);
    else if (det_base_is_app(base) && !flow_over && !w->fw.accepted && !w->fw.dropped_pkt)
        fw_app_tables(w, df, f, det_base_event(base), p);
    w->nfw = 0;
    return !w->fw.dropped_pkt && !w->fw.dropped_app;
}
