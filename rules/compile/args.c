/* args.c — interning of the arguments the compiler defines UDEs with: two rules' identical
 * headers or option units become one pointer, so mon_define_event shares their prefix. Each
 * key holds everything evaluation reads, and nothing else. */
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "opt_eval.h"

/* Intern an argument: key describes it completely; make() builds it when new. */
void *intern_arg(struct compiler *c, struct buf *key, void *fresh, size_t size)
{
    if (key->oom)
        return NULL;
    void *v = intern_get(&c->args, key->p, key->n);
    if (v)
        return v;
    void *copy = malloc(size);
    if (!copy || det_own(c->d, copy) < 0)
        return NULL;
    memcpy(copy, fresh, size);
    if (intern_put(&c->args, key->p, key->n, copy) < 0)
        return NULL;
    return copy;
}

static void key_set(struct buf *k, const void *ranges, uint32_t n, size_t each)
{
    buf_put(k, &n, sizeof n);
    buf_put(k, ranges, (size_t)n * each);
}

const struct det_header *header_arg(struct compiler *c, const struct osprey_rule *r,
                                           const struct plan *pl)
{
    uint8_t proto = pl->proto;
    struct det_header h = {pl->kind, pl->base, proto, r->dir != OSPREY_DIR_TO,
                           proto == 6 || proto == 17 || proto == 132 || pl->app,
                           r->src.addr, r->dst.addr, r->src.port, r->dst.port,
                           !strcmp(r->proto, "pkthdr")};
    struct buf k = {0};
    buf_put(&k, "H", 1);
    buf_put(&k, &h.kind, 1);
    buf_put(&k, &h.base, sizeof h.base);
    buf_put(&k, &h.proto, 1);
    buf_put(&k, &h.both, 1);
    buf_put(&k, &h.any_packet, 1);
    key_set(&k, h.src->r, h.src->n, sizeof *h.src->r);
    key_set(&k, h.dst->r, h.dst->n, sizeof *h.dst->r);
    if (h.ports) {
        key_set(&k, h.sp->r, h.sp->n, sizeof *h.sp->r);
        key_set(&k, h.dp->r, h.dp->n, sizeof *h.dp->r);
    }
    const struct det_header *v = intern_arg(c, &k, &h, sizeof h);
    free(k.p);
    return v;
}

const struct det_unit *unit_arg(struct compiler *c, const struct det_unit *u)
{
    struct buf k = {0};
    buf_put(&k, "U", 1);
    buf_put(&k, &u->ops, sizeof u->ops); /* the type: one const ops per type */
    buf_put(&k, &u->kind, 1);
    buf_put(&k, &u->base, sizeof u->base);
    buf_put(&k, &u->ob, sizeof u->ob);
    buf_put(&k, &u->xf, sizeof u->xf); /* interned: the pointer is the identity */
    buf_put(&k, &u->or_absent, 1);
    u->ops->key(&k, u); /* the type's own fields (unit_*.c …) */
    const struct det_unit *a = NULL;
    if (k.oom || (a = intern_get(&c->args, k.p, k.n))) {
        free(k.p);
        return a;
    }
    struct det_unit v = *u;
    if (u->ops->own && u->ops->own(c->d, &v) < 0)
        goto out;
    a = intern_arg(c, &k, &v, sizeof v);
out:
    free(k.p);
    return a;
}

/* The dispatcher's child event for header h (one per distinct header). */
