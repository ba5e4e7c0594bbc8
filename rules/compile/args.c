/* args.c — interning of the arguments the compiler defines UDEs with: two rules' identical
 * headers or option units become one pointer, so mon_define_event shares their prefix. Each
 * key holds everything evaluation reads, and nothing else. */
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "tls_units.h"
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
    buf_put(&k, &h.base, 1);
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

static void key_content(struct buf *k, const struct opt_content *ct)
{
    /* everything evaluation reads, nothing it does not (fast_pattern is the mpm's business) */
    uint8_t fl[5] = {ct->negated, ct->nocase, ct->startswith, ct->endswith, ct->has};
    buf_put(k, fl, sizeof fl);
    int32_t pos[4] = {ct->depth, ct->offset, ct->distance, ct->within};
    buf_put(k, pos, sizeof pos);
    buf_put(k, &ct->len, sizeof ct->len);
    buf_put(k, ct->pattern, ct->len);
}

static void key_pitem(struct buf *k, const struct det_pitem *pi)
{
    buf_put(k, &pi->type, 1);
    buf_put(k, &pi->decoded, 1);
    if (pi->type == PI_BASE64) {
        const struct opt_base64 *b = pi->arg;
        buf_put(k, b, sizeof *b);
    } else if (pi->type == PI_ENTROPY) {
        const struct opt_entropy *e = pi->arg;
        buf_put(k, &e->bytes, sizeof e->bytes);
        buf_put(k, &e->offset, sizeof e->offset);
        buf_put(k, &e->op, 1);
        buf_put(k, &e->negated, 1);
        buf_put(k, &e->lo, sizeof e->lo);
        buf_put(k, &e->hi, sizeof e->hi);
    } else if (pi->type == PI_CONTENT) {
        key_content(k, pi->arg);
    } else if (pi->type == PI_PCRE) {
        const struct opt_pcre *pc = pi->arg;
        uint8_t fl[2] = {pc->negated, pc->relative};
        buf_put(k, fl, sizeof fl);
        buf_put(k, &pc->pcre2_options, sizeof pc->pcre2_options);
        buf_put(k, &pc->len, sizeof pc->len);
        buf_put(k, pc->regex, pc->len);
    } else if (pi->type == PI_ISDATAAT) {
        const struct opt_isdataat *d = pi->arg;
        uint8_t fl[2] = {d->negated, d->relative};
        buf_put(k, fl, sizeof fl);
        buf_put(k, &d->n, sizeof d->n);
    } else if (pi->type == PI_ASN1) {
        const struct opt_asn1 *a = pi->arg;
        uint8_t fl[5] = {a->bitstring_overflow, a->double_overflow, a->has_oversize,
                         a->has_absolute, a->has_relative};
        buf_put(k, fl, sizeof fl);
        buf_put(k, &a->oversize_length, sizeof a->oversize_length);
        buf_put(k, &a->offset, sizeof a->offset);
    } else {
        /* byte_test/_jump/_extract/_math: every field evaluation reads */
        const struct opt_byte *b = pi->arg;
        buf_put(k, &b->bytes, sizeof b->bytes);
        buf_put(k, &b->flags, sizeof b->flags);
        buf_put(k, &b->base, sizeof b->base);
        buf_put(k, b->op, sizeof b->op);
        buf_put(k, &b->value, sizeof b->value);
        buf_put(k, &b->offset, sizeof b->offset);
        buf_put(k, &b->multiplier, sizeof b->multiplier);
        buf_put(k, &b->post_offset, sizeof b->post_offset);
        buf_put(k, &b->bitmask, sizeof b->bitmask);
        buf_put(k, &b->align, sizeof b->align);
        buf_put(k, &b->rvalue, sizeof b->rvalue);
    }
    buf_put(k, pi->var, sizeof pi->var);
    buf_put(k, &pi->def, sizeof pi->def);
}

static int keep_code(struct osprey_detect *d, void *code)
{
    if (d->ncodes == d->cap_codes) {
        uint32_t cap = d->cap_codes ? d->cap_codes * 2 : 64;
        void **c = realloc(d->codes, cap * sizeof *c);
        if (!c)
            return -1;
        d->codes = c;
        d->cap_codes = cap;
    }
    d->codes[d->ncodes++] = code;
    return 0;
}

const struct det_unit *unit_arg(struct compiler *c, const struct det_unit *u)
{
    struct buf k = {0};
    buf_put(&k, "U", 1);
    buf_put(&k, &u->type, 1);
    buf_put(&k, &u->kind, 1);
    buf_put(&k, &u->base, 1);
    buf_put(&k, &u->ob, 1);
    buf_put(&k, &u->xf, sizeof u->xf); /* interned: the pointer is the identity */
    buf_put(&k, &u->or_absent, 1);
    switch (u->type) {
    case DU_PAYLOAD:
        buf_put(&k, &u->n, sizeof u->n);
        for (uint32_t i = 0; i < u->n; i++)
            key_pitem(&k, &u->items[i]);
        break;
    case DU_FLOW:
        buf_put(&k, &u->flow->flags, sizeof u->flow->flags);
        break;
    case DU_DSIZE:
        buf_put(&k, &u->cmp->op, sizeof u->cmp->op);
        buf_put(&k, &u->cmp->lo, sizeof u->cmp->lo);
        buf_put(&k, &u->cmp->hi, sizeof u->cmp->hi);
        break;
    case DU_HDR:
        buf_put(&k, &u->field, sizeof u->field);
        buf_put(&k, &u->cmp->op, sizeof u->cmp->op);
        buf_put(&k, &u->cmp->lo, sizeof u->cmp->lo);
        buf_put(&k, &u->cmp->hi, sizeof u->cmp->hi);
        break;
    case DU_TCPFLAGS:
    case DU_FRAGBITS:
        buf_put(&k, &u->tf, sizeof u->tf);
        break;
    case DU_IPOPTS:
        buf_put(&k, &u->ipopt, sizeof u->ipopt);
        break;
    case DU_IPPROTO:
        buf_put(&k, &u->ipp, sizeof u->ipp);
        break;
    case DU_SAMEIP:
        break;
    case DU_GEOIP:
        buf_put(&k, u->geo, sizeof *u->geo);
        break;
    case DU_APPPROTO:
        buf_put(&k, &u->app, 1);
        buf_put(&k, &u->app_neg, 1);
        break;
    case DU_STREAMSIZE:
        buf_put(&k, &u->cmp->flags, sizeof u->cmp->flags);
        buf_put(&k, &u->cmp->op, sizeof u->cmp->op);
        buf_put(&k, &u->cmp->lo, sizeof u->cmp->lo);
        break;
    case DU_PKTPROP: {
        const struct opt_pktprop *pp = u->pp;
        uint8_t f[3] = {pp->kind, pp->dir, (uint8_t)pp->layer};
        buf_put(&k, f, sizeof f);
        buf_put(&k, &pp->cmp.op, sizeof pp->cmp.op);
        buf_put(&k, &pp->cmp.lo, sizeof pp->cmp.lo);
        buf_put(&k, &pp->cmp.hi, sizeof pp->cmp.hi);
        break;
    }
    case DU_TLS: { /* its fields, then the string it looks for */
        const struct det_tls *t = u->tls;
        uint8_t b[4] = {t->test, t->side, t->negated, t->ob};
        buf_put(&k, b, sizeof b);
        buf_put(&k, &t->set, sizeof t->set);
        buf_put(&k, &t->neg_set, sizeof t->neg_set);
        buf_put(&k, &t->cmp.op, sizeof t->cmp.op);
        buf_put(&k, &t->cmp.lo, sizeof t->cmp.lo);
        buf_put(&k, &t->cmp.hi, sizeof t->cmp.hi);
        buf_put(&k, &t->len, sizeof t->len);
        if (t->len)
            buf_put(&k, t->str, t->len);
        break;
    }
    case DU_DATASET: /* one unit per option: a set command changes the set each time */
        buf_put(&k, &u->ds, sizeof u->ds);
        break;
    case DU_DNSHDR:
    case DU_BUFLEN:
        buf_put(&k, &u->field, sizeof u->field); /* DU_DNSHDR's; 0 for DU_BUFLEN */
        buf_put(&k, &u->cmp->op, sizeof u->cmp->op);
        buf_put(&k, &u->cmp->lo, sizeof u->cmp->lo);
        buf_put(&k, &u->cmp->hi, sizeof u->cmp->hi);
        break;
    case DU_EVENT: /* what det_event_match reads */
        buf_put(&k, &u->event->kind, sizeof u->event->kind);
        buf_put(&k, &u->event->ipver, sizeof u->event->ipver);
        buf_put(&k, &u->event->code, sizeof u->event->code);
        buf_put(&k, &u->event->note, sizeof u->event->note);
        break;
    }
    const struct det_unit *a = NULL;
    if (k.oom || (a = intern_get(&c->args, k.p, k.n))) {
        free(k.p);
        return a;
    }
    struct det_unit v = *u;
    if (u->type == DU_PAYLOAD) {
        /* the items must outlive the plan; regexes are compiled once per distinct unit */
        struct det_pitem *items = malloc(u->n * sizeof *items);
        if (!items || det_own(c->d, items) < 0)
            goto out;
        memcpy(items, u->items, u->n * sizeof *items);
        for (uint32_t i = 0; i < u->n; i++)
            if (items[i].type == PI_PCRE) {
                if (!(items[i].code = pcre_compile_code(items[i].arg)) ||
                    keep_code(c->d, items[i].code) < 0) {
                    pcre_free_code(items[i].code);
                    goto out;
                }
            }
        v.items = items;
    }
    a = intern_arg(c, &k, &v, sizeof v);
out:
    free(k.p);
    return a;
}

/* The dispatcher's child event for header h (one per distinct header). */
