/* events.c — decode-event and stream-event units, and the decoder-event rules' leaves.
 *
 * A decoder event is libmon's anomaly on the packet (mon_packet.anomaly), a stream event a
 * bit of mon_packet.tcp_events set by the TCP sender-side update before PKT_IN runs; both are
 * per packet, so their rules are packet rules and alert once per packet that carries the
 * event. A packet with a decoder anomaly has mostly no flow (decoding stopped, or a held
 * fragment): libmon raises DECODE_EVENT for it, flow or not, before PKT_IN, and decoder-event
 * rules hang under it (DB_DECODE). Their leaves cannot find the worker through flow state, so
 * each worker registers them with an argument of its own. */
#include <stdlib.h>

#include "detect_int.h"
#include "intern.h"
#include "osprey_parsers.h"

const char *det_event_unit(const struct opt_event *ev, struct det_unit *u, uint16_t *base)
{
    *u = (struct det_unit){.ops = &det_unit_event, .event = ev};
    if (ev->not_raised) /* (the ruleset refuses such rules before they get here) */
        return ev->not_raised;
    *base = ev->kind == EV_DECODE ? DB_DECODE : ev->kind == EV_APP ? DB_APP_EVENT : DB_PKT_RCV;
    if (ev->negated)
        return "a negated application-layer event";
    return NULL;
}

const char *det_event_base_check(const struct osprey_detect *d, uint16_t base, uint32_t nitems,
                                 uint16_t app_base, bool packet_only)
{
    if (base == DB_PKT_RCV)
        return NULL; /* a stream event: a packet rule like any other */
    if (base == DB_APP_EVENT && !d->parsers)
        return "application-layer events need the parsers";
    if (det_base_is_app(app_base) && base == DB_DECODE)
        return "a decoder event beside application-layer buffers";
    if (det_base_is_app(app_base))
        return NULL; /* the rule runs under the buffers' event: the unit asks the transaction */
    if (nitems)
        return base == DB_DECODE ? "payload options beside a decoder event"
                                 : "payload options beside an application-layer event";
    if (base == DB_APP_EVENT && packet_only)
        return "packet-only options beside an application-layer event";
    return NULL;
}

bool det_event_match(struct mon_ctx *ctx, struct mon_flow *f, const struct det_unit *u)
{
    const struct mon_packet *p = mon_getlastpkt(ctx);
    const struct opt_event *ev = u->event;
    if (ev->kind == EV_APP) /* the event the parsers are raising now; in a rule on the
                               transaction's buffers, one its transaction raised */
        return u->base == DB_APP_EVENT ? osprey_parsers_anomaly(ctx, f) == (int)ev->code
                                       : osprey_parsers_tx_anomaly(ctx, f, (int)ev->code);
    if (!p)
        return false;
    if (ev->kind == EV_DECODE) {
        bool on = ev->note ? (p->decode_notes >> ev->code) & 1 : p->anomaly == ev->code + 1;
        return on && (!ev->ipver || p->ipver == ev->ipver);
    }
    if (ev->kind == EV_STREAM)
        return (p->tcp_events >> ev->code) & 1;
    return false;
}

struct det_decode_leaf {
    struct osprey_detect_worker *w;
    const struct det_rule *dr;
};

/* The leaf of a decoder-event rule: the match waits for the DECODE_EVENT commit. */
static void on_decode_match(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                            void *arg)
{
    (void)ctx, (void)ev;
    const struct det_decode_leaf *l = arg;
    det_add_pending(l->w, l->dr, f, side, false);
}

/* DECODE_EVENT root handler: the packet's verdict starts clean here, before PKT_IN. */
static void on_decode_pkt(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                          void *arg)
{
    (void)ctx, (void)f, (void)side, (void)ev;
    det_new_packet(arg);
}

int det_events_attach(struct osprey_detect_worker *w)
{
    const struct osprey_detect *d = w->d;
    uint32_t n = d->base_rules[DB_DECODE];
    if (!n)
        return 0;
    if (!(w->oleaf = calloc(n, sizeof *w->oleaf)))
        return -1;
    if (mon_register(w->ctx, w->sock, MON_ON_DECODE_EVENT, MON_HK_SND, on_decode_pkt, w) !=
        MON_OK)
        return -1;
    uint32_t k = 0;
    for (uint32_t i = 0; i < d->nrules && k < n; i++) {
        const struct det_rule *dr = &d->rules[i];
        if (dr->base != DB_DECODE)
            continue;
        w->oleaf[k] = (struct det_decode_leaf){w, dr};
        if (mon_register(w->ctx, w->sock, dr->leaf, MON_HK_SND, on_decode_match,
                         &w->oleaf[k]) != MON_OK)
            return -1;
        k++;
    }
    return 0;
}

void det_events_detach(struct osprey_detect_worker *w)
{
    free(w->oleaf);
    w->oleaf = NULL;
}

/* ---- the unit (struct det_unit_ops) ---- */

static bool event_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                       int side)
{
    (void)side;
    return det_event_match(ctx, f, u);
}

static void event_key(struct buf *k, const struct det_unit *u)
{
    /* what det_event_match reads */
    buf_put(k, &u->event->kind, sizeof u->event->kind);
    buf_put(k, &u->event->ipver, sizeof u->event->ipver);
    buf_put(k, &u->event->code, sizeof u->event->code);
    buf_put(k, &u->event->note, sizeof u->event->note);
}

/* (decoder and stream events make a rule a packet rule: plan_events.c says so, as an
 * application-layer event does not) */
const struct det_unit_ops det_unit_event = {
    .name = "event", .eval = event_eval, .key = event_key};
