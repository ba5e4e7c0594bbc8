/* buffer_index.c — buffer names (and aliases) to buffer ids, sorted once.
 *
 * Rule compilation asks for buffers by name several times per rule (find, two-sided, record
 * rows); walking every protocol's rows with strcmp each time cost about 8% of the startup with
 * ten protocols, and grows with each one added. The table is constant, so one sorted index,
 * built on first use, keeps each name's entries together in ascending buffer ids (the callers
 * see buffers in the table's order as before), and a hash of the distinct names finds a
 * name's run with one string compare (a binary search over the 33 protocols' names was still
 * 7 % of the startup: half a million lookups, a dozen compares each). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "osprey_hash.h"
#include "parsers_int.h"

static struct buffer_name *idx;
static uint32_t nidx;
static pthread_once_t once = PTHREAD_ONCE_INIT;
/* distinct names: the first entry of each run (+ 1, 0 empty) and the run's length */
static struct run {
    uint32_t at1, n;
} *runs;
static uint32_t nruns_cap;

static void runs_build(void)
{
    uint32_t cap = 64;
    while (cap < nidx * 2)
        cap *= 2;
    struct run *t = calloc(cap, sizeof *t);
    if (!t)
        return; /* out of memory at startup: no buffer is found, as without the index */
    for (uint32_t i = 0; i < nidx;) {
        uint32_t e = i + 1;
        while (e < nidx && !strcmp(idx[e].name, idx[i].name))
            e++;
        uint32_t s = (uint32_t)osprey_hash_bytes(idx[i].name, strlen(idx[i].name)) & (cap - 1);
        while (t[s].at1)
            s = (s + 1) & (cap - 1);
        t[s] = (struct run){i + 1, e - i};
        i = e;
    }
    runs = t;
    nruns_cap = cap;
}

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
    runs_build();
}

uint32_t buffer_names(const char *name, const struct buffer_name **out)
{
    pthread_once(&once, build);
    *out = idx;
    uint32_t s = runs ? (uint32_t)osprey_hash_bytes(name, strlen(name)) & (nruns_cap - 1) : 0;
    for (; runs && runs[s].at1; s = (s + 1) & (nruns_cap - 1))
        if (!strcmp(idx[runs[s].at1 - 1].name, name)) {
            *out = idx + runs[s].at1 - 1;
            return runs[s].n;
        }
    return 0;
}
