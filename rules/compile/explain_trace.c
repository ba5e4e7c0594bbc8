/* explain_trace.c — `osprey --explain SID -r CAPTURE`: where the explained rule's chains stopped
 * on each packet or application event, and what became of each match at its commit.
 *
 * A build that explains defines its header, unit and gate UDEs with the wrappers below: they
 * call the real filter and, when it refused an event of the explained rule's chains, print
 * one line: the packet (pcap_cnt) and flow (flow_id), the base event and direction, the step
 * that failed and, for a payload unit, the start of the buffer it read. A chain that reached
 * its leaf is reported at the commit (det_explain_commit), with the outcome: the action, or
 * why there was none (flowbits, threshold …). The multi-event filters are not wrapped: a fast
 * pattern that is not found stops the walk before the rule's own steps, so it prints nothing.
 */
#include <arpa/inet.h>
#include <string.h>

#include "explain.h"
#include "header.h"
#include "pkt_units.h"

/* "packet 4 (flow 1)": the packet's pcap_cnt and the flow's flow_id, as in EVE; "flow end"
 * for the pseudo packet that ends a flow. */
static void where(FILE *out, const struct mon_packet *p, const struct mon_flow *f)
{
    if (!p || (p->flags & MON_PKT_PSEUDO))
        fprintf(out, "flow end");
    else
        fprintf(out, "packet %llu", (unsigned long long)p->num);
    if (f)
        fprintf(out, " (flow %llu)", (unsigned long long)f->id);
}

/* The chains (1-based, joined by ',') event ev is on, and the first of them. */
static uint32_t chains_of(const struct det_explain *ex, mon_event_t ev, char *b, size_t n)
{
    uint32_t first = UINT32_MAX;
    size_t l = 0;
    b[0] = 0;
    for (uint32_t c = 0; c < ex->nchains; c++)
        if (ex->on[ev] & (1u << c)) {
            if (first == UINT32_MAX)
                first = c;
            l += (size_t)snprintf(b + l, l < n ? n - l : 0, "%s%u", l ? "," : "", c + 1);
        }
    return first;
}

static void addr(FILE *out, const struct mon_addr *a, uint8_t ipver, uint16_t port)
{
    char t[INET6_ADDRSTRLEN] = "?";
    inet_ntop(ipver == 4 ? AF_INET : AF_INET6, a->b, t, sizeof t);
    fprintf(out, ipver == 4 ? "%s:%u" : "[%s]:%u", t, port);
}

/* What a header step compared: the flow in the direction of the inspected data (stream and
 * application rules), or the packet's own addresses (packet rules), as det_header_filter. */
static void header_seen(FILE *out, struct mon_ctx *ctx, const struct mon_flow *f, int side,
                        const struct det_header *h)
{
    const struct mon_packet *p = mon_getlastpkt(ctx);
    fprintf(out, " (addresses, ports or protocol: ");
    if (h->kind != DK_PKT && f) {
        bool ts = det_to_server(side, h->base);
        addr(out, ts ? &f->cli : &f->srv, f->ipver, ts ? f->cport : f->sport);
        fprintf(out, " -> ");
        addr(out, ts ? &f->srv : &f->cli, f->ipver, ts ? f->sport : f->cport);
    } else if (p && p->ipver) {
        addr(out, &p->src, p->ipver, p->sport);
        fprintf(out, " -> ");
        addr(out, &p->dst, p->ipver, p->dport);
    } else {
        fprintf(out, "no IP header");
    }
    fprintf(out, ", IP protocol %u)", p ? p->proto : 0);
}

/* Up to 48 bytes of what a payload unit read, printable ASCII as is, the rest as |xx|. */
static void excerpt(FILE *out, const uint8_t *b, uint32_t len)
{
    fputc('"', out);
    for (uint32_t i = 0; i < len && i < 48; i++)
        fprintf(out, b[i] >= 32 && b[i] < 127 && b[i] != '"' && b[i] != '|' ? "%c" : "|%02x|",
                b[i]);
    fprintf(out, "\"%s (%u bytes)", len > 48 ? "…" : "", len);
}

static void unit_read(FILE *out, struct osprey_detect_worker *w, struct mon_ctx *ctx,
                      struct mon_flow *f, int side, const struct det_unit *u)
{
    if (u->ops != &det_unit_payload || det_ob_is_hdr(u->ob))
        return;
    uint32_t len = 0;
    uint64_t origin = 0;
    const uint8_t *b;
    if (u->kind == DK_APP && u->ob != DET_OB_RAW) {
        /* slot 1: the units' own; the next unit to run fetches its buffer again */
        b = det_app_buffer(w, ctx, f, u->base, u->ob, u->xf, 1, &len, &origin);
        fprintf(out, " on %s: ", det_ob_name(u->ob));
    } else {
        b = det_buffer(ctx, f, side, u->kind == DK_APP ? DK_STREAM : u->kind, &len, &origin);
        fprintf(out, " on the %s: ", u->kind == DK_PKT ? "packet payload" : "stream");
    }
    if (b)
        excerpt(out, b, len);
    else
        fprintf(out, "(none)");
}

/* After a wrapped filter said no: one line if the event is on the explained rule's chains. */
static void refused(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                    const void *arg, mon_filter_fn fn)
{
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    if (!df)
        return; /* no flow state: nothing was evaluated for a flow */
    struct det_explain *ex = df->w->d->explain; /* (one worker traces: engine/run) */
    if (!ex || ev >= ex->nev || !ex->on[ev])
        return;
    ex->stopped++;
    char list[32];
    uint32_t c = chains_of(ex, ev, list, sizeof list);
    const struct det_explain_chain *ch = &ex->chain[c];
    const struct det_node *nd = &df->w->d->nodes[ch->node[ex->step[ev] - 1]];
    FILE *out = ex->out;
    where(out, mon_getlastpkt(ctx), f);
    fprintf(out, ": %s to %s", det_base_name(ch->dr->base),
            det_to_server(side, ch->dr->base) ? "server" : "client");
    if (ex->nchains > 1)
        fprintf(out, ", chain %s", list);
    fprintf(out, ": stopped at step %u", ex->step[ev]);
    if (!strchr(list, ','))
        fprintf(out, " of %u", ch->n);
    fprintf(out, ", %s", nd->label);
    if (fn == det_unit_filter) {
        const struct det_unit *u = arg;
        fprintf(out, " [unit %s]", u->ops->name);
        unit_read(out, df->w, ctx, f, side, u);
    } else if (fn == det_gate_filter) {
        fprintf(out, " (a bit is unset now: the rule is decided at the commit)");
    } else if (fn == det_header_filter) {
        header_seen(out, ctx, f, side, arg);
    }
    fputc('\n', out);
}

#define WRAP(name, real)                                                                         \
    static bool name(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,         \
                     void *arg)                                                                  \
    {                                                                                            \
        bool pass = real(ctx, f, side, ev, arg);                                                 \
        if (!pass)                                                                               \
            refused(ctx, f, side, ev, arg, real);                                                \
        return pass;                                                                             \
    }
WRAP(trace_header, det_header_filter)
WRAP(trace_unit, det_unit_filter)
WRAP(trace_gate, det_gate_filter)

mon_filter_fn det_explain_filter(const struct osprey_detect *d, mon_filter_fn fn)
{
    if (!d->explain)
        return fn;
    if (fn == det_header_filter)
        return trace_header;
    if (fn == det_unit_filter)
        return trace_unit;
    if (fn == det_gate_filter)
        return trace_gate;
    return fn;
}

void det_explain_commit(const struct osprey_detect_worker *w, const struct det_pending *pm,
                        const struct mon_packet *p, const char *outcome)
{
    struct det_explain *ex = w->d->explain;
    if (!ex || pm->dr->rule->sid != ex->sid)
        return;
    uint32_t c = 0;
    while (c < ex->nchains && ex->chain[c].dr != pm->dr)
        c++;
    if (c == ex->nchains)
        return;
    ex->matched++;
    ex->acted += !outcome;
    FILE *out = ex->out;
    where(out, p, pm->f);
    fprintf(out, ": %s to %s", det_base_name(pm->dr->base),
            det_to_server(pm->side, pm->dr->base) ? "server" : "client");
    if (ex->nchains > 1)
        fprintf(out, ", chain %u", c + 1);
    const char *act = header_action_name(pm->dr->rule->action);
    if (pm->deferred) /* its units ran at the commit, after the flowbits */
        fprintf(out, ": at the commit (deferred at the flowbits gate)");
    else
        fprintf(out, ": matched (all %u steps)", ex->chain[c].n);
    if (outcome)
        fprintf(out, ", no %s: %s\n", act, outcome);
    else
        fprintf(out, ": %s\n", act);
}

int osprey_detect_explain_summary(const struct osprey_detect *d, FILE *out)
{
    const struct det_explain *ex = d->explain;
    if (!ex)
        return -1;
    fprintf(out, "sid %u on the traffic: stopped %llu times, matched %llu times, took its "
                 "action %llu times\n", ex->sid, (unsigned long long)ex->stopped,
            (unsigned long long)ex->matched, (unsigned long long)ex->acted);
    if (ex->nchains && !ex->stopped && !ex->matched)
        fprintf(out, "sid %u: none of its steps was tried: its fast pattern was never found on "
                     "the protocol and ports its header takes (the prefilter raises a pattern "
                     "only there), or no packet reached its header\n", ex->sid);
    return 0;
}
