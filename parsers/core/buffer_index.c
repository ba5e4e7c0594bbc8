/* buffer_index.c — buffer names (and aliases) to buffer ids, sorted once.
 *
 * Rule compilation asks for buffers by name several times per rule (find, two-sided, record
 * rows); walking every protocol's rows with strcmp each time cost about 8% of the startup with
 * ten protocols, and grows with each one added. The table is constant, so one sorted index,
 * built on first use, answers by binary search; entries of one name keep ascending buffer ids,
 * so the callers see buffers in the table's order as before. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "parsers_int.h"

static struct buffer_name *idx;
static uint32_t nidx;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int cmp(const void *a, const void *b)
{
    const struct buffer_name *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->b < y->b ? -1 : x->b > y->b;
}

static void build(void)
{
    uint16_t n = osprey_buffer_count(), p;
    uint32_t total = 0;
    for (uint16_t b = 0; b < n; b++) {
        const struct proto_buffer *r = reg_buffer(b, &p);
        total++;
        for (size_t a = 0; a < PROTO_N(r->alias) && r->alias[a]; a++)
            total++;
    }
    struct buffer_name *v = malloc((total ? total : 1) * sizeof *v);
    if (!v)
        return; /* out of memory at startup: no buffer is found, rules on them not compiled */
    uint32_t k = 0;
    for (uint16_t b = 0; b < n; b++) {
        const struct proto_buffer *r = reg_buffer(b, &p);
        v[k++] = (struct buffer_name){r->name, b, p, false, r};
        for (size_t a = 0; a < PROTO_N(r->alias) && r->alias[a]; a++)
            v[k++] = (struct buffer_name){r->alias[a], b, p, true, r};
    }
    qsort(v, k, sizeof *v, cmp);
    idx = v;
    nidx = k;
}

uint32_t buffer_names(const char *name, const struct buffer_name **out)
{
    pthread_once(&once, build);
    uint32_t lo = 0, hi = nidx;
    while (lo < hi) { /* the first entry not below name */
        uint32_t mid = (lo + hi) / 2;
        if (strcmp(idx[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t end = lo;
    while (end < nidx && !strcmp(idx[end].name, name))
        end++;
    *out = idx ? idx + lo : NULL;
    return end - lo;
}
