/* alert_defer.c — alerts kept for the next packet of their direction (see alert_defer.h).
 * A flat array in the order found: it holds a few entries at a time (those of the flows
 * between an ACK and the next packet the other way), so a linear scan per packet is the
 * cheapest structure; an empty queue costs one comparison. */
#include "alert_defer.h"

#include <stdlib.h>
#include <string.h>

struct kept {
    struct osprey_alert a;          /* pkt is replaced when it goes */
    struct osprey_detect_var *vars; /* a copy (the callback's are valid during it only) */
    char *app;                      /* its transaction's EVE object when kept (snap) */
};

struct osprey_defer {
    struct kept *k;
    size_t n, cap;
    osprey_defer_emit_fn emit;
    osprey_defer_snap_fn snap;
    void *arg;
};

struct osprey_defer *osprey_defer_new(osprey_defer_emit_fn emit, osprey_defer_snap_fn snap,
                                      void *arg)
{
    struct osprey_defer *d = calloc(1, sizeof *d);
    if (d) {
        d->emit = emit;
        d->snap = snap;
        d->arg = arg;
    }
    return d;
}

static void kept_free(struct kept *k)
{
    free(k->vars); /* one block: the vars, then their names and values */
    free(k->app);
}

void osprey_defer_free(struct osprey_defer *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n; i++)
        kept_free(&d->k[i]);
    free(d->k);
    free(d);
}

static bool same_addr(const struct mon_addr *a, const struct mon_addr *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* 1: p goes client -> server on f, 0: server -> client, -1: not f's packet. */
static int dir_of(const struct mon_flow *f, const struct mon_packet *p)
{
    if (p->proto != f->proto || p->ipver != f->ipver)
        return -1;
    if (p->sport == f->cport && p->dport == f->sport && same_addr(&p->src, &f->cli) &&
        same_addr(&p->dst, &f->srv))
        return 1;
    if (p->sport == f->sport && p->dport == f->cport && same_addr(&p->src, &f->srv) &&
        same_addr(&p->dst, &f->cli))
        return 0;
    return -1;
}

/* A copy of the alert's variables in one block. */
static bool copy_vars(struct kept *k, const struct osprey_alert *a)
{
    k->vars = NULL;
    if (!a->nvars)
        return true;
    size_t bytes = a->nvars * sizeof *a->vars;
    for (uint32_t i = 0; i < a->nvars; i++)
        bytes += (a->vars[i].name ? strlen(a->vars[i].name) + 1 : 0) + a->vars[i].len;
    struct osprey_detect_var *v = malloc(bytes);
    if (!v)
        return false;
    char *at = (char *)(v + a->nvars);
    for (uint32_t i = 0; i < a->nvars; i++) {
        v[i] = a->vars[i];
        if (a->vars[i].name) {
            size_t nl = strlen(a->vars[i].name) + 1;
            memcpy(at, a->vars[i].name, nl);
            v[i].name = at;
            at += nl;
        }
        if (a->vars[i].len)
            memcpy(at, a->vars[i].value, a->vars[i].len);
        v[i].value = (const uint8_t *)at;
        at += a->vars[i].len;
    }
    k->vars = v;
    k->a.vars = v;
    return true;
}

bool osprey_defer_take(struct osprey_defer *d, const struct osprey_alert *a)
{
    const struct mon_flow *f = a->flow;
    if (!d || !f || f->proto != 6 || !a->pkt || (a->pkt->flags & MON_PKT_PSEUDO))
        return false;
    /* found while the bytes an ACK covered were parsed (mon_ack_view), or on a packet of
     * the other direction */
    int dir = dir_of(f, a->pkt);
    if (!(a->pkt->flags & MON_PKT_ACK_VIEW) && (dir < 0 || dir == (a->to_server ? 1 : 0)))
        return false; /* its own direction's packet (or not the flow's): now */
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 8;
        struct kept *k = realloc(d->k, cap * sizeof *k);
        if (!k)
            return false; /* out of memory: given now rather than lost */
        d->k = k;
        d->cap = cap;
    }
    struct kept *k = &d->k[d->n];
    k->a = *a;
    if (!copy_vars(k, a))
        return false;
    k->app = d->snap ? d->snap(a, d->arg) : NULL;
    k->a.pkt = NULL;
    d->n++;
    return true;
}

/* Give the kept alerts that `pick` selects, with packet p; keep the others in order. */
static void give(struct osprey_defer *d, const struct mon_flow *f, int dir,
                 const struct mon_packet *p)
{
    size_t w = 0;
    for (size_t i = 0; i < d->n; i++) {
        struct kept k = d->k[i];
        bool go = !f || (k.a.flow == f && (dir < 0 || dir == (k.a.to_server ? 1 : 0)));
        if (!go) {
            d->k[w++] = k;
            continue;
        }
        k.a.pkt = p;
        d->emit(&k.a, k.app, d->arg);
        kept_free(&k);
    }
    d->n = w;
}

void osprey_defer_packet(struct osprey_defer *d, const struct mon_packet *p)
{
    if (!d || !d->n || !p || (p->flags & MON_PKT_PSEUDO))
        return;
    for (size_t i = 0; i < d->n; i++) {
        const struct mon_flow *f = d->k[i].a.flow;
        int dir = dir_of(f, p);
        if (dir >= 0 && dir == (d->k[i].a.to_server ? 1 : 0)) {
            give(d, f, dir, p);
            return; /* a packet belongs to one flow */
        }
    }
}

void osprey_defer_flow_end(struct osprey_defer *d, struct mon_flow *f,
                           const struct mon_packet *end_pkt)
{
    if (!d || !d->n)
        return;
    give(d, f, -1, end_pkt);
}

void osprey_defer_flush(struct osprey_defer *d, const struct mon_packet *p)
{
    if (!d || !d->n)
        return;
    give(d, NULL, -1, p);
}
