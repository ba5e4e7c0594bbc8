/* scratch.c — the room derived buffers are built in (struct osprey_scratch, the caller's). */
#include <stdlib.h>
#include <string.h>

#include "parsers_int.h"

bool scratch_put(struct osprey_scratch *s, const void *d, size_t n)
{
    if ((uint64_t)s->len + n > UINT32_MAX)
        return false;
    if (s->len + n > s->cap) {
        uint32_t cap = s->cap ? s->cap : 256;
        while (cap < s->len + n)
            cap = cap > UINT32_MAX / 2 ? UINT32_MAX : cap * 2;
        uint8_t *b = realloc(s->p, cap);
        if (!b)
            return false;
        s->p = b;
        s->cap = cap;
    }
    if (n)
        memcpy(s->p + s->len, d, n);
    s->len += (uint32_t)n;
    return true;
}

const uint8_t *scratch_bytes(const struct osprey_scratch *s, uint32_t *len)
{
    *len = s->len;
    return s->p ? s->p : (const uint8_t *)"";
}

void osprey_scratch_free(struct osprey_scratch *s)
{
    free(s->p);
    *s = (struct osprey_scratch){0};
}
