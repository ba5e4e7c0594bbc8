/* run.c — walking a forest: the built-in trees a packet raised, in priority order, each
 * breadth-first (mOS §4.2).
 *
 * A walk touches only what can fire: a node whose filter fails costs one filter call and its
 * subtree is never looked at. With 20,000 rules under CONN_NEW_DATA, a packet costs the
 * filters of the passing nodes' direct children, nothing more — which is why rules hang
 * below a multi-event filter (one scan raising the few rules that matched) rather than
 * directly below the built-in.
 *
 * Multi-event filters (mOS's mtcp_alloc_event / mtcp_raise_event): a UDE M whose filter F
 * calls ev_raise(child) for children allocated with ev_alloc(M). Raised children are
 * collected while F runs; if F returns true, M's handlers run, then M's UDE children are
 * queued, then the raised children in the order F raised them (a child raised twice is
 * queued once). If F returns false, M is pruned with everything F raised. A raised child has
 * no filter: it runs its handlers and queues its own UDE children. Children nobody in this
 * forest waits for are accepted and ignored.
 *
 * A UDE defined with ev_define_last (a commit point: rules/compile's barrier) is not walked
 * where breadth-first order meets it but after every other node the walk queues, at any
 * depth; several such nodes run in the order they were met, and their own children are then
 * walked as usual (a deferred node met among those is deferred again, behind them).
 *
 * The walk allocates nothing: the queue, the deferred list, the raise list and the raise
 * stamps are the runner's, sized from the registry (a hook's trees hold each event at most once, so
 * ev_count bounds any forest of a frozen registry). Handlers may change the current flow's
 * forest; the walk keeps the forest it started with, which the caller keeps referenced. */
#include <stdlib.h>
#include <string.h>

#include "event_internal.h"

/* mon.h's priority order. REXMIT is normally run alone by the core (its own phase, before
 * the receiver update); mixed with others it goes before new data, as a retransmission is
 * judged before the stream moves on. */
static const uint8_t priority[MON_EV_BUILTIN_COUNT] = {
    MON_ON_DECODE_EVENT,  MON_ON_PKT_IN,        MON_ON_ORPHAN, MON_ON_CONN_START, MON_ON_TCP_STATE_CHANGE,
    MON_ON_REXMIT,        MON_ON_CONN_NEW_DATA, MON_ON_ERROR, MON_ON_DEPTH,
    MON_ON_ONE_SIDED,     MON_ON_TIMEOUT, MON_ON_CONN_END,
};

static int runner_reserve(struct ev_runner *rn, uint32_t cap)
{
    if (cap <= rn->cap)
        return MON_OK;
    uint32_t *q = malloc((size_t)cap * 2 * sizeof *q);
    uint32_t *p = malloc((size_t)cap * sizeof *p);
    uint32_t *s = calloc(cap, sizeof *s);
    uint32_t *l = malloc((size_t)cap * sizeof *l);
    if (!q || !p || !s || !l) {
        free(q);
        free(p);
        free(s);
        free(l);
        return MON_ENOMEM;
    }
    free(rn->queue);
    free(rn->pending);
    free(rn->stamp);
    free(rn->later);
    rn->later = l;
    rn->queue = q;
    rn->pending = p;
    rn->stamp = s;
    rn->cap = cap;
    rn->gen = 0;
    return MON_OK;
}

struct ev_runner *ev_runner_create(const struct ev_registry *r)
{
    if (!r)
        return NULL;
    struct ev_runner *rn = calloc(1, sizeof *rn);
    if (!rn)
        return NULL;
    rn->reg = r;
    if (runner_reserve(rn, (uint32_t)ev_count(r))) {
        free(rn);
        return NULL;
    }
    return rn;
}

void ev_runner_destroy(struct ev_runner *rn)
{
    if (!rn)
        return;
    free(rn->queue);
    free(rn->pending);
    free(rn->stamp);
    free(rn->later);
    free(rn);
}

/* A new raise generation: O(1) instead of clearing the stamps for every walk. */
static void next_gen(struct ev_runner *rn)
{
    if (++rn->gen == 0) {
        memset(rn->stamp, 0, (size_t)rn->cap * sizeof *rn->stamp);
        rn->gen = 1;
    }
}

/* Breadth-first from root. fired: the root's own filter has already said yes (ev_run_event
 * runs an event its caller decided fired), so only its handlers and children run. */
static void walk(struct ev_runner *rn, const struct ev_forest *f, uint32_t root, bool fired,
                 struct mon_ctx *ctx, struct mon_flow *flow, int side,
                 struct mon_event_stats *st)
{
    uint32_t *q = rn->queue;
    uint32_t head = 0, tail = 0;
    uint32_t rel_lo = 0, rel_hi = 0; /* queue positions of the deferred nodes released now */
    q[tail++] = root;
    rn->nlater = 0;
    next_gen(rn);
    for (;;) {
        if (head == tail) {
            if (!rn->nlater)
                break;
            rel_lo = tail; /* everything else is walked: the deferred nodes now */
            rel_hi = tail + rn->nlater;
            for (uint32_t i = 0; i < rn->nlater; i++)
                q[tail++] = rn->later[i];
            rn->nlater = 0;
        }
        uint32_t pos = head++;
        uint32_t at = q[pos];
        const struct ev_node *n = &f->node[at];
        if (n->last && !(pos >= rel_lo && pos < rel_hi) && !(fired && at == root)) {
            rn->later[rn->nlater++] = at;
            continue;
        }
        if (n->filter && !(fired && at == root)) {
            rn->npending = 0;
            rn->cur = n;
            rn->cur_f = f;
            st->filters_run++;
            bool pass = n->filter(ctx, flow, side, n->ev, n->arg);
            rn->cur = NULL;
            rn->cur_f = NULL;
            if (!pass)
                continue;
        }
        for (uint32_t h = n->handler; h < n->handler + n->nhandler; h++) {
            st->handlers_run++;
            f->handler[h].fn(ctx, flow, side, n->ev, f->handler[h].arg);
        }
        for (uint32_t c = n->child; c < n->child + n->nfilt; c++)
            q[tail++] = c;
        if (n->filter) {
            for (uint32_t i = 0; i < rn->npending; i++)
                q[tail++] = rn->pending[i];
            rn->npending = 0;
        }
    }
}

void ev_run(struct ev_runner *rn, const struct ev_forest *f, int hook, uint32_t raised,
            struct mon_ctx *ctx, struct mon_flow *flow, int side, struct mon_event_stats *stats)
{
    if (!rn || !f || (hook != MON_HK_SND && hook != MON_HK_RCV) || rn->busy)
        return;
    uint32_t todo = raised & f->roots[hook];
    if (!todo)
        return;
    /* Only an unfrozen registry (tests) can outgrow the scratch: grow before walking. */
    if (f->hook_nodes[hook] > rn->cap && runner_reserve(rn, f->hook_nodes[hook]))
        return;
    struct mon_event_stats dummy = {0};
    struct mon_event_stats *st = stats ? stats : &dummy;
    rn->busy = true;
    rn->hook_base = f->hook_base[hook];
    for (int i = 0; i < MON_EV_BUILTIN_COUNT && todo; i++) {
        uint32_t b = priority[i];
        if (!(todo & (1u << b)))
            continue;
        todo &= ~(1u << b);
        walk(rn, f, f->root[hook][b], false, ctx, flow, side, st);
    }
    rn->busy = false;
}

/* The node of ev among node's children (UDE children, then raise-only children, each range
 * sorted by event id), or EV_NONE. */
static uint32_t find_child(const struct ev_forest *f, const struct ev_node *n, mon_event_t ev)
{
    uint32_t ranges[2][2] = {{n->child, n->child + n->nfilt},
                             {n->child + n->nfilt, n->child + n->nfilt + n->nraise}};
    for (int r = 0; r < 2; r++) {
        uint32_t lo = ranges[r][0], hi = ranges[r][1];
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (f->node[mid].ev == ev)
                return mid;
            if (f->node[mid].ev < ev)
                lo = mid + 1;
            else
                hi = mid;
        }
    }
    return EV_NONE;
}

/* ev's node in hook's trees: descend from its built-in root along its d-tree ancestors. */
static uint32_t find_node(const struct ev_registry *r, const struct ev_forest *f, int hook,
                          mon_event_t ev)
{
    uint32_t at = f->root[hook][ev_root(r, ev)];
    uint32_t depth = ev_depth(r, ev);
    for (uint32_t k = 1; k <= depth && at != EV_NONE; k++) {
        mon_event_t anc = ev; /* ev's ancestor at depth k: d-trees are shallow */
        for (uint32_t up = depth; up > k; up--)
            anc = ev_base(r, anc);
        at = find_child(f, &f->node[at], anc);
    }
    return at;
}

int ev_run_event(struct ev_runner *rn, const struct ev_forest *f, int hook, mon_event_t ev,
                 struct mon_ctx *ctx, struct mon_flow *flow, int side,
                 struct mon_event_stats *stats)
{
    if (!rn || !f || (hook != MON_HK_SND && hook != MON_HK_RCV))
        return MON_EINVAL;
    if (!ev_exists(rn->reg, ev))
        return MON_ENOENT;
    if (rn->busy)
        return MON_ESTATE;
    uint32_t at = find_node(rn->reg, f, hook, ev);
    if (at == EV_NONE)
        return 0; /* nobody in this forest waits for ev on this hook */
    if (f->hook_nodes[hook] > rn->cap && runner_reserve(rn, f->hook_nodes[hook]))
        return MON_ENOMEM;
    struct mon_event_stats dummy = {0};
    rn->busy = true;
    rn->hook_base = f->hook_base[hook];
    walk(rn, f, at, true, ctx, flow, side, stats ? stats : &dummy);
    rn->busy = false;
    return 1;
}

int ev_raise(struct ev_runner *rn, mon_event_t child)
{
    if (!rn || !rn->cur)
        return MON_ESTATE;  /* only from inside a filter */
    const struct ev_node *n = rn->cur;
    /* the raise-only children follow the UDE children, sorted by event id */
    uint32_t lo = n->child + n->nfilt, hi = lo + n->nraise;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        mon_event_t ev = rn->cur_f->node[mid].ev;
        if (ev == child) {
            uint32_t *st = &rn->stamp[mid - rn->hook_base];
            if (*st != rn->gen) {
                *st = rn->gen;
                rn->pending[rn->npending++] = mid;
            }
            return MON_OK;
        }
        if (ev < child)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* not in this forest: fine if it is one of this event's children nobody waits for */
    if (ev_is_child(rn->reg, child) && ev_base(rn->reg, child) == n->ev)
        return MON_OK;
    return MON_EINVAL;
}
