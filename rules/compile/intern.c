/* intern.c — see intern.h. */
#include "intern.h"
#include "osprey_hash.h"

#include <stdlib.h>
#include <string.h>

static struct ient *intern_slot(struct intern *in, const uint8_t *k, size_t n, uint64_t h)
{
    size_t i = h & (in->cap - 1);
    while (in->t[i].key && !(in->t[i].h == h && in->t[i].len == n && !memcmp(in->t[i].key, k, n)))
        i = (i + 1) & (in->cap - 1);
    return &in->t[i];
}

static int intern_grow(struct intern *in)
{
    size_t cap = in->cap ? in->cap * 2 : 1024;
    struct intern big = {calloc(cap, sizeof *big.t), 0, cap};
    if (!big.t)
        return -1;
    for (size_t i = 0; i < in->cap; i++)
        if (in->t[i].key)
            *intern_slot(&big, in->t[i].key, in->t[i].len, in->t[i].h) = in->t[i];
    big.n = in->n;
    free(in->t);
    *in = big;
    return 0;
}

/* The value stored under key, or NULL (then *slot_h is what intern_put needs). */
void *intern_get(struct intern *in, const uint8_t *k, size_t n)
{
    if (!in->cap)
        return NULL;
    struct ient *e = intern_slot(in, k, n, osprey_hash_bytes(k, n));
    return e->key ? e->val : NULL;
}

int intern_put(struct intern *in, const uint8_t *k, size_t n, void *val)
{
    if ((in->n + 1) * 2 > in->cap && intern_grow(in) < 0)
        return -1;
    uint64_t h = osprey_hash_bytes(k, n);
    struct ient *e = intern_slot(in, k, n, h);
    if (!(e->key = malloc(n ? n : 1)))
        return -1;
    memcpy(e->key, k, n);
    e->h = h;
    e->len = n;
    e->val = val;
    in->n++;
    return 0;
}

void intern_free(struct intern *in)
{
    for (size_t i = 0; i < in->cap; i++)
        free(in->t[i].key);
    free(in->t);
}


void buf_put(struct buf *b, const void *v, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        if (cap < 256)
            cap = 256; /* a key is a few hundred bytes: one allocation, not five */
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, v, n);
    b->n += n;
    b->p[b->n] = 0;
}

void buf_puts(struct buf *b, const char *s)
{
    buf_put(b, s, strlen(s));
}

