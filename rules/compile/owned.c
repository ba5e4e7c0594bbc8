/* owned.c — what the detect object keeps until it is freed (det_own): the compiler's and the
 * unit builders' allocations. A leaf, so that every builder may call it without calling back
 * into the compiler. */
#include <stdlib.h>

#include "detect_int.h"

int det_own(struct osprey_detect *d, void *p)
{
    if (!p)
        return -1;
    if (d->nowned == d->cap_owned) {
        uint32_t cap = d->cap_owned ? d->cap_owned * 2 : 256;
        void **o = realloc(d->owned, cap * sizeof *o);
        if (!o) {
            free(p);
            return -1;
        }
        d->owned = o;
        d->cap_owned = cap;
    }
    d->owned[d->nowned++] = p;
    return 0;
}
