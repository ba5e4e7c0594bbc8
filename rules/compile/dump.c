/* dump.c — `osprey -T --dump-chains`: the UDE forest the rules built, and how much of it is
 * shared (UDE nodes against the sum of the rules' chain lengths). */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"

struct tree {
    uint32_t *first, *next, *leaves; /* first child by event id; next sibling by node */
};

static void walk(const struct osprey_detect *d, const struct tree *t, mon_event_t parent,
                 int depth, FILE *out)
{
    for (uint32_t i = t->first[parent]; i != UINT32_MAX; i = t->next[i]) {
        mon_event_t ev = d->nodes[i].ev;
        fprintf(out, "%*s%s", 2 * depth, "", d->nodes[i].label ? d->nodes[i].label : "?");
        if (t->leaves[ev])
            fprintf(out, "  => %u rule%s", t->leaves[ev], t->leaves[ev] == 1 ? "" : "s");
        fputc('\n', out);
        walk(d, t, ev, depth + 1, out);
    }
}

void osprey_detect_dump_chains(const struct osprey_detect *d, FILE *out)
{
    mon_event_t max = MON_EV_BUILTIN_COUNT;
    for (uint32_t i = 0; i < d->nnodes; i++)
        if (d->nodes[i].ev >= max)
            max = d->nodes[i].ev + 1;
    struct tree t = {malloc(max * sizeof *t.first), malloc((d->nnodes + 1) * sizeof *t.next),
                     calloc(max, sizeof *t.leaves)};
    if (t.first && t.next && t.leaves) {
        memset(t.first, 0xff, max * sizeof *t.first);
        for (uint32_t i = d->nnodes; i > 0; i--) { /* prepend backwards: definition order */
            t.next[i - 1] = t.first[d->nodes[i - 1].parent];
            t.first[d->nodes[i - 1].parent] = i - 1;
        }
        for (uint32_t r = 0; r < d->nrules; r++)
            t.leaves[d->rules[r].leaf]++;
        fprintf(out, "PKT_IN\n");
        walk(d, &t, MON_ON_PKT_IN, 1, out);
        fprintf(out, "CONN_NEW_DATA\n");
        walk(d, &t, MON_ON_CONN_NEW_DATA, 1, out);
        for (uint16_t i = 0; i < d->nbases; i++) { /* the parsers' events, then DECODE_EVENT */
            uint16_t b = det_base_order(i);
            bool parsers = det_base_is_app(b) || b == DB_APP_EVENT || b == DB_APP_DETECTED;
            if ((!parsers && b != DB_DECODE) || !d->base_rules[b] || d->base_ev[b] >= max)
                continue; /* PKT_IN (DB_PKT_RCV's too) and CONN_NEW_DATA are above */
            fprintf(out, "%s%s\n", det_base_name(b), parsers ? " (parsers)" : "");
            walk(d, &t, d->base_ev[b], 1, out);
        }
    }
    const struct osprey_detect_stats *s = &d->stats;
    fprintf(out, "rules compiled %u (packet %u, stream %u, app-layer %u), not compiled %u\n",
            s->compiled, s->packet_rules, s->stream_rules, s->app_rules, s->not_compiled);
    fprintf(out, "UDE nodes %u for %u chain steps (sharing saves %u), fast patterns %u\n",
            s->ude_nodes, s->option_nodes,
            s->option_nodes > s->ude_nodes ? s->option_nodes - s->ude_nodes : 0,
            s->fast_patterns);
    free(t.first);
    free(t.next);
    free(t.leaves);
}
