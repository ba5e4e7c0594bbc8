/* bytes.c — bounded, growable byte buffers: every copy the parsers keep goes through here,
 * so every copy has a limit. */
#include <stdlib.h>
#include <string.h>

#include "parsers_int.h"

bool pbuf_reserve(struct pbuf *b, size_t want)
{
    if (want <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < want)
        cap *= 2;
    if (cap > UINT32_MAX)
        cap = UINT32_MAX;
    uint8_t *p = realloc(b->p, cap);
    if (!p)
        return false;
    b->p = p;
    b->cap = (uint32_t)cap;
    return true;
}

uint32_t pbuf_add(struct pbuf *b, const void *d, size_t n, uint32_t max)
{
    size_t room = (max ? max : UINT32_MAX) - (size_t)b->len;
    if (b->len >= (max ? max : UINT32_MAX))
        return 0;
    if (n > room)
        n = room;
    if (!n)
        return 0;
    if ((size_t)b->len + n > b->cap && !pbuf_reserve(b, (size_t)b->len + n))
        return 0;
    memcpy(b->p + b->len, d, n);
    b->len += (uint32_t)n;
    return (uint32_t)n;
}

void pbuf_consume(struct pbuf *b, uint32_t n)
{
    if (n >= b->len) {
        b->len = 0;
        return;
    }
    memmove(b->p, b->p + n, b->len - n);
    b->len -= n;
}

void pbuf_free(struct pbuf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}
