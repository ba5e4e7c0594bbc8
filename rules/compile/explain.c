/* explain.c — `osprey --explain SID` without traffic: how the rule was compiled (its header,
 * kind and base event, buffers, fast pattern and why, its chain of UDEs step by step, flowbits
 * and thresholds) or why it was not (the loader's or the compiler's diagnostic line). The
 * chain is read back from the nodes --dump-chains prints, so what is shown is what was
 * defined. The trace on traffic is explain_trace.c. */
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "header.h"
#include "pkt_units.h"
#include "registry.h"
#include "ruleset.h"

int det_explain_open(struct osprey_detect *d, uint32_t sid, FILE *out)
{
    struct det_explain *ex = calloc(1, sizeof *ex);
    if (!ex)
        return -1;
    ex->sid = sid;
    ex->out = out ? out : stdout;
    d->explain = ex;
    return 0;
}

void det_explain_free(struct det_explain *ex)
{
    if (!ex)
        return;
    for (uint32_t c = 0; c < ex->nchains; c++)
        free(ex->chain[c].node);
    free(ex->not_compiled);
    free(ex->on);
    free(ex->step);
    free(ex);
}

void det_explain_not_compiled(struct osprey_detect *d, const struct osprey_rule *r,
                              const char *line)
{
    struct det_explain *ex = d->explain;
    if (!ex || r->sid != ex->sid || ex->not_compiled)
        return;
    ex->not_compiled = strdup(line); /* (out of memory: the report says less) */
}

static int32_t node_of(const struct osprey_detect *d, mon_event_t ev)
{
    for (uint32_t i = 0; i < d->nnodes; i++)
        if (d->nodes[i].ev == ev)
            return (int32_t)i;
    return -1;
}

/* One chain: from the leaf up to the base event, then reversed. */
static int index_chain(struct osprey_detect *d, const struct det_rule *dr)
{
    struct det_explain *ex = d->explain;
    struct det_explain_chain *ch = &ex->chain[ex->nchains];
    if (!(ch->node = malloc((dr->chain_len + 2) * sizeof *ch->node)))
        return -1;
    ch->dr = dr;
    mon_event_t base = d->base_ev[dr->base];
    for (mon_event_t ev = dr->leaf; ev != base && ch->n < dr->chain_len + 2;) {
        int32_t i = node_of(d, ev);
        if (i < 0)
            break;
        ch->node[ch->n++] = (uint32_t)i;
        ev = d->nodes[i].parent;
    }
    for (uint32_t a = 0, b = ch->n; a + 1 < b; a++, b--) {
        uint32_t t = ch->node[a];
        ch->node[a] = ch->node[b - 1];
        ch->node[b - 1] = t;
    }
    ex->nchains++;
    return 0;
}

int det_explain_index(struct osprey_detect *d)
{
    struct det_explain *ex = d->explain;
    if (!ex)
        return 0;
    for (uint32_t r = 0; r < d->nrules && ex->nchains < DET_EXPLAIN_CHAINS; r++)
        if (d->rules[r].rule->sid == ex->sid && index_chain(d, &d->rules[r]) < 0)
            return -1;
    for (uint32_t i = 0; i < d->nnodes; i++)
        if (d->nodes[i].ev >= ex->nev)
            ex->nev = d->nodes[i].ev + 1;
    if (!(ex->on = calloc(ex->nev ? ex->nev : 1, 1)) ||
        !(ex->step = calloc(ex->nev ? ex->nev : 1, sizeof *ex->step)))
        return -1;
    for (uint32_t c = 0; c < ex->nchains; c++)
        for (uint32_t s = 0; s < ex->chain[c].n; s++) {
            mon_event_t ev = d->nodes[ex->chain[c].node[s]].ev;
            ex->on[ev] |= (uint8_t)(1u << c);
            ex->step[ev] = (uint16_t)(s + 1);
        }
    return 0;
}

/* ---- the report ---- */

static void print_header(const struct osprey_rule *r, FILE *out)
{
    fprintf(out, "  rule: %s %s %s %s %s %s %s (%s:%u, gid %u, rev %u)\n",
            header_action_name(r->action), r->proto, r->src.addr_text ? r->src.addr_text : "any",
            r->src.port_text ? r->src.port_text : "any",
            r->dir == OSPREY_DIR_BOTH ? "<>" : r->dir == OSPREY_DIR_TX ? "=>" : "->",
            r->dst.addr_text ? r->dst.addr_text : "any",
            r->dst.port_text ? r->dst.port_text : "any", r->file, r->line, r->gid, r->rev);
    if (r->msg)
        fprintf(out, "  msg: %s\n", r->msg);
}

static const char *kind_text(uint8_t kind)
{
    return kind == DK_PKT ? "packet" : kind == DK_STREAM ? "stream" : "application";
}

/* What a unit reads, for the buffer list and its step: "http.uri", "stream" … */
static void unit_buffer(const struct det_unit *u, char *b, size_t n)
{
    if (u->kind == DK_APP && u->ob != DET_OB_RAW)
        snprintf(b, n, "%s%s", det_ob_name(u->ob), u->xf ? " (transformed)" : "");
    else if (det_ob_is_hdr(u->ob))
        snprintf(b, n, "%s", det_ob_name(u->ob));
    else
        snprintf(b, n, "%s", u->kind == DK_PKT ? "packet payload" : "stream");
}

static bool reads_buffer(const struct det_unit *u)
{
    return u->ops == &det_unit_payload || u->ops == &det_unit_buflen ||
           u->ops == &det_unit_absent || u->ops == &det_unit_dataset;
}

static void print_buffers(const struct osprey_detect *d, const struct det_explain_chain *ch,
                          FILE *out)
{
    char seen[512] = "";
    for (uint32_t s = 0; s < ch->n; s++) {
        const struct det_node *nd = &d->nodes[ch->node[s]];
        char b[96] = "";
        if (nd->fn == det_unit_filter && reads_buffer(nd->arg))
            unit_buffer(nd->arg, b, sizeof b);
        if (!b[0] || strstr(seen, b))
            continue;
        size_t l = strlen(seen);
        snprintf(seen + l, sizeof seen - l, "%s%s", l ? ", " : "", b);
    }
    fprintf(out, "  buffers: %s\n", seen[0] ? seen : "none (header and packet options only)");
}

static void print_fast_pattern(const struct osprey_detect *d, const struct det_explain_chain *ch,
                               FILE *out)
{
    for (uint32_t s = 0; s + 1 < ch->n; s++) {
        const struct det_node *nd = &d->nodes[ch->node[s]];
        if (nd->fn != det_mpm_filter)
            continue;
        const struct det_mpm *m = nd->arg;
        const char *label = d->nodes[ch->node[s + 1]].label; /* `fast pattern "…"` */
        fprintf(out, "  %s on %s: %s\n", label,
                m->kind == DK_APP ? det_ob_name(m->ob)
                : m->kind == DK_PKT ? "the packet payload"
                                    : "the stream",
                ch->dr->fp_why ? ch->dr->fp_why : "chosen by the compiler");
        return;
    }
    fprintf(out, "  fast pattern: none (no positive content it could use): the rule hangs "
                 "under the header dispatcher, its headers checked once per flow direction\n");
}

static void print_chain(const struct osprey_detect *d, const struct det_explain *ex, uint32_t c,
                        FILE *out)
{
    const struct det_explain_chain *ch = &ex->chain[c];
    const struct det_rule *dr = ch->dr;
    fprintf(out, "  chain %u of %u: %s rule, base event %s%s%s\n", c + 1, ex->nchains,
            kind_text(dr->kind), det_base_name(dr->base),
            det_base_is_app(dr->base) ? " (parsers)" : "",
            dr->twin == DET_TWIN_PACKET   ? "; each packet's payload"
            : dr->twin == DET_TWIN_STREAM ? "; the reassembled stream"
                                          : "");
    for (uint32_t s = 0; s < ch->n; s++) {
        const struct det_node *nd = &d->nodes[ch->node[s]];
        fprintf(out, "    %u. %s", s + 1, nd->label);
        if (nd->fn == det_unit_filter) {
            const struct det_unit *u = nd->arg;
            char b[96] = "";
            if (reads_buffer(u))
                unit_buffer(u, b, sizeof b);
            fprintf(out, "  [unit %s%s%s]", u->ops->name, b[0] ? " on " : "", b);
        }
        fputc('\n', out);
    }
}

static void print_state(const struct det_rule *dr, FILE *out)
{
    static const char *const KW[] = {"flowbits", "xbits", "hostbits", "flowint", "threshold",
                                     "detection_filter"};
    const struct osprey_rule *r = dr->rule;
    bool any = false;
    fprintf(out, "  flowbits, xbits, flowint, thresholds:");
    for (uint32_t i = 0; i < r->nopts; i++)
        for (size_t k = 0; k < sizeof KW / sizeof KW[0]; k++)
            if (!strcmp(opt_def_by_id(r->opts[i].kw)->name, KW[k])) {
                fprintf(out, " %s%s%s;", r->opts[i].keyword, r->opts[i].value ? ":" : "",
                        r->opts[i].value ? r->opts[i].value : "");
                any = true;
            }
    if (dr->suppressed || dr->nsup)
        fprintf(out, " threshold.config suppress;"), any = true;
    if (dr->rate)
        fprintf(out, " threshold.config rate_filter;"), any = true;
    fprintf(out, "%s\n", any ? "" : " none");
    fprintf(out, "  on a match: committed with the phase's other matches in Suricata's order "
                 "(pass, drop, reject, alert; flowbit setters first), then: %s%s\n",
            header_action_name(r->action), dr->noalert ? " (noalert: no alert record)" : "");
}

/* The loader's diagnostics about sid (rejected, or a duplicate of it). */
static uint32_t print_rejected(const struct osprey_ruleset *rs, uint32_t sid, FILE *out)
{
    uint32_t n = 0;
    for (size_t i = 0; i < osprey_ruleset_diag_count(rs); i++) {
        const struct osprey_rules_diag *g = osprey_ruleset_diag(rs, i);
        if (g->sid != sid || g->kind != OSPREY_DIAG_REJECTED)
            continue;
        fprintf(out, "sid %u: rejected, not loaded\n  %s:%u: sid %u: %s\n", sid, g->file, g->line,
                sid, g->text);
        n++;
    }
    return n;
}

int osprey_detect_explain(const struct osprey_detect *d, FILE *out)
{
    const struct det_explain *ex = d->explain;
    if (!ex)
        return -1;
    uint32_t found = print_rejected(d->rs, ex->sid, out);
    if (ex->not_compiled) {
        fprintf(out, "sid %u: accepted, not compiled\n  %s\n", ex->sid, ex->not_compiled);
        found++;
    }
    for (uint32_t c = 0; c < ex->nchains; c++) {
        const struct det_rule *dr = ex->chain[c].dr;
        if (c == 0 || ex->chain[c - 1].dr->rule != dr->rule) { /* a rule's first chain */
            fprintf(out, "sid %u: compiled\n", ex->sid);
            print_header(dr->rule, out);
            print_buffers(d, &ex->chain[c], out);
            print_fast_pattern(d, &ex->chain[c], out);
            found++;
        }
        print_chain(d, ex, c, out);
        if (c + 1 == ex->nchains || ex->chain[c + 1].dr->rule != dr->rule)
            print_state(dr, out);
    }
    if (!found)
        fprintf(out, "sid %u: no rule with this sid was read (a commented-out rule is not "
                     "loaded)\n", ex->sid);
    return found ? 0 : 1;
}
