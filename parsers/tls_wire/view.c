/* view.c — a handshake's buffers: one bounded copy (1 MiB) with a span per buffer, and the
 * multi-buffers' elements (certificates, names, ALPNs: at most TLS_MULTI_MAX each, their span
 * arrays grown as they come); read back element by element. */
#include <stdlib.h>

#include "tls_wire.h"

void tls_wire_put(struct tls_wire *t, enum tls_buf b, const void *d, size_t n)
{
    uint32_t off = t->copy.len;
    if (pbuf_add(&t->copy, d, n, 1u << 20) == n)
        t->sp[b] = (struct span){off, (uint32_t)n, true};
}

void tls_wire_put_el(struct tls_wire *t, enum tls_buf b, const void *d, size_t n)
{
    unsigned m = (unsigned)(b - TB_CERTS);
    uint32_t off = t->copy.len;
    if (t->nel[m] == TLS_MULTI_MAX)
        return;
    if (t->nel[m] == t->cap_el[m]) {
        uint32_t cap = t->cap_el[m] ? t->cap_el[m] * 2 : 4;
        struct span *el = realloc(t->el[m], cap * sizeof *el);
        if (!el)
            return; /* out of memory: the element is left out */
        t->el[m] = el;
        t->cap_el[m] = cap;
    }
    if (pbuf_add(&t->copy, d, n, 1u << 20) == n)
        t->el[m][t->nel[m]++] = (struct span){off, (uint32_t)n, true};
}

void tls_wire_clear_el(struct tls_wire *t, enum tls_buf b)
{
    t->nel[b - TB_CERTS] = 0;
}

const uint8_t *tls_wire_at(const struct tls_wire *t, enum tls_buf b, uint32_t i, uint32_t *len)
{
    const struct span *sp = NULL;
    if (t && tls_buf_is_multi(b))
        sp = i < t->nel[b - TB_CERTS] ? &t->el[b - TB_CERTS][i] : NULL;
    else if (t && i == 0)
        sp = &t->sp[b];
    if (!sp || !sp->set)
        return NULL;
    *len = sp->len;
    /* an empty buffer set before any byte was copied (an empty SNI first): present and
     * empty, as when the copy holds other bytes, without arithmetic on a null pointer */
    static const uint8_t empty[1];
    return t->copy.p ? t->copy.p + sp->off : empty;
}

void tls_wire_release(struct tls_wire *t)
{
    pbuf_free(&t->copy);
    for (int m = 0; m < TM__COUNT; m++)
        free(t->el[m]);
}

void tls_wire_free(struct tls_wire *t)
{
    if (t)
        tls_wire_release(t);
    free(t);
}
