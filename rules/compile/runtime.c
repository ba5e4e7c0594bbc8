/* runtime.c — a worker's side of detection: per-flow state, the handlers on the base events
 * (they run before the chains below them: libmon runs a node's handlers, then its children),
 * and the action handler at each chain's leaf. */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"
#include "opt_eval.h"

/* PKT_IN root handler: the flow's detection state exists before any chain filter looks. */
static void on_pkt(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)side, (void)ev;
    if (!f || mon_get_uctx(ctx, f))
        return;
    const struct osprey_detect_worker *w = arg;
    size_t words = (w->d->nbit_names + 63) / 64;
    /* once per flow, not per packet */
    struct det_flow *df = calloc(1, sizeof *df + words * sizeof df->bits[0]);
    if (!df)
        return; /* the flow goes uninspected; filters treat a missing state as no match */
    df->w = arg;
    mon_set_uctx(ctx, f, df);
}

/* CONN_NEW_DATA root handler: append the side's new in-order bytes to its inspection copy
 * (and, with detect.stream-mpm: stream, feed the same bytes to the side's Hyperscan stream;
 * the multi-event filter below then only raises what it found).
 * Stream positions (offset, depth) count from the side's first byte, as Suricata's do. */
static void on_data(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                    void *arg)
{
    (void)ev;
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    if (!df || df->pass)
        return;
    const struct osprey_detect_worker *w = arg;
    const struct det_mpm *m = &w->d->mpm[DK_STREAM];
    struct det_side *s = &df->side[side];
    for (;;) {
        if (s->len == s->cap && !s->full) {
            uint32_t cap = s->cap ? s->cap * 2 : 4096;
            if (cap > DET_STREAM_MAX)
                cap = DET_STREAM_MAX;
            uint8_t *b = cap > s->cap ? realloc(s->buf, cap) : NULL;
            if (!b) {
                s->full = true; /* at the inspection cap (or out of memory): stop copying */
            } else {
                s->buf = b;
                s->cap = cap;
            }
        }
        uint8_t sink[4096];
        uint8_t *to = s->full ? sink : s->buf + s->len;
        size_t room = s->full ? sizeof sink : s->cap - s->len;
        ssize_t n = mon_peek(ctx, f, side, to, room);
        if (n == MON_EOVERWRITTEN)
            continue; /* bytes were lost; what follows is still this side's stream */
        if (n <= 0)
            break;
        if (!s->full) {
            if (m->streaming) /* the bytes just appended, nothing before them */
                det_mpm_feed(m, s, w->scratch, s->buf + s->len, (size_t)n);
            s->len += (uint32_t)n;
        }
    }
}

static bool fired_before(struct det_side *s, uint32_t idx)
{
    for (uint32_t i = 0; i < s->nfired; i++)
        if (s->fired[i] == idx)
            return true;
    if (s->nfired == s->cap_fired) {
        uint32_t cap = s->cap_fired ? s->cap_fired * 2 : 4;
        uint32_t *n = realloc(s->fired, cap * sizeof *n);
        if (!n)
            return false;
        s->fired = n;
        s->cap_fired = cap;
    }
    s->fired[s->nfired++] = idx;
    return false;
}

/* The leaf: every option held. Stream rules alert once per flow side (the stream is
 * re-inspected as it grows); packet rules once per packet. pass ends inspection of the flow. */
static void on_match(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                     void *arg)
{
    (void)ev;
    const struct det_rule *dr = arg;
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    if (!df || df->pass)
        return;
    if (dr->kind == DK_STREAM && fired_before(&df->side[side], dr->idx))
        return;
    /* the rule matched: its flowbits change now, whether or not it alerts */
    for (uint32_t i = 0; i < dr->nbits; i++)
        flowbits_apply(dr->bits[i].b, dr->bits[i].ids, df->bits);
    if (dr->rule->action == OSPREY_ACTION_PASS) {
        df->pass = true;
        return;
    }
    struct osprey_detect_worker *w = df->w;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    if (dr->noalert || det_suppressed(dr, p) || !det_thr_allow(w->thr, dr, p, f))
        return;
    struct osprey_alert a = {
        .rule = dr->rule,
        .category = dr->category,
        .severity = dr->severity,
        .nmeta = dr->nmeta,
        .meta = dr->meta,
        .pkt = mon_getlastpkt(ctx),
        .flow = f,
        .to_server = det_to_server(side, dr->kind),
        .from_stream = dr->kind == DK_STREAM,
    };
    w->alerts++;
    if (w->cb)
        w->cb(&a, w->arg);
}

struct osprey_detect_worker *osprey_detect_attach(const struct osprey_detect *d,
                                                  struct mon_ctx *ctx, osprey_alert_fn cb,
                                                  void *arg)
{
    struct osprey_detect_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    *w = (struct osprey_detect_worker){d, ctx, NULL, NULL, NULL, cb, arg, 0, NULL};
    if (!(w->md = pcre_match_data_new()))
        goto fail;
    if (d->has_thresholds && !(w->thr = det_thr_create()))
        goto fail;
    for (int k = 0; k < DK__COUNT; k++)
        if (d->mpm[k].db && hs_alloc_scratch(d->mpm[k].db, &w->scratch) != HS_SUCCESS)
            goto fail;
    if (!(w->sock = mon_socket(ctx, MON_SOCK_STREAM, NULL)))
        goto fail;
    if (mon_register(ctx, w->sock, MON_ON_PKT_IN, MON_HK_SND, on_pkt, w) != MON_OK)
        goto fail;
    if (d->stats.stream_rules &&
        mon_register(ctx, w->sock, MON_ON_CONN_NEW_DATA, MON_HK_RCV, on_data, w) != MON_OK)
        goto fail;
    for (uint32_t i = 0; i < d->nrules; i++) {
        const struct det_rule *dr = &d->rules[i];
        enum mon_hook hk = dr->kind == DK_PKT ? MON_HK_SND : MON_HK_RCV;
        if (mon_register(ctx, w->sock, dr->leaf, hk, on_match, (void *)dr) != MON_OK)
            goto fail;
    }
    return w;
fail:
    osprey_detect_worker_free(w);
    return NULL;
}

void osprey_detect_flow_end(struct osprey_detect_worker *w, struct mon_flow *f)
{
    (void)w;
    struct det_flow *df = f->uctx;
    if (!df)
        return;
    for (int k = 0; k < DK__COUNT; k++)
        for (int dir = 0; dir < 2; dir++)
            free(df->hc[k][dir].ids);
    for (int s = 0; s < 2; s++) {
        det_mpm_close(&df->side[s], df->w->scratch);
        free(df->side[s].buf);
        free(df->side[s].seen);
        free(df->side[s].fired);
    }
    free(df);
    f->uctx = NULL;
}

void osprey_detect_worker_free(struct osprey_detect_worker *w)
{
    if (!w)
        return;
    hs_free_scratch(w->scratch);
    pcre_match_data_free(w->md);
    det_thr_free(w->thr);
    free(w);
}

uint64_t osprey_detect_worker_alerts(const struct osprey_detect_worker *w)
{
    return w->alerts;
}
