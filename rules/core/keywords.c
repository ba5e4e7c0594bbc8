/* keywords.c — reading the keyword table (rules/options/registry.c lists the options files'
 * tables; a keyword's id is its position in their concatenation): id → row, the public
 * keyword queries, implemented-or-not, the row's check, and the per-ruleset name index. The
 * core reaches the options only through these rows (data), so no call runs from here up
 * into an options file. */
#include "registry.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "osprey_hash.h"
#include "osprey_rules.h"

/* id → row in one load: compiling a ruleset asks millions of times (every option of every
 * plan), and walking the tables each time was 4.6 % of the startup. The tables are constant,
 * so the flat index is built once. */
static const struct opt_def **flat;
static size_t nflat;
static pthread_once_t flat_once = PTHREAD_ONCE_INIT;

static void flat_build(void)
{
    size_t n = 0;
    for (size_t t = 0; t < opt_ntables; t++)
        n += opt_tables[t]->n;
    const struct opt_def **v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return; /* out of memory at startup: the slow walk below answers */
    size_t k = 0;
    for (size_t t = 0; t < opt_ntables; t++)
        for (size_t i = 0; i < opt_tables[t]->n; i++)
            v[k++] = &opt_tables[t]->defs[i];
    flat = v;
    nflat = n;
}

size_t opt_def_count(void)
{
    pthread_once(&flat_once, flat_build);
    if (flat)
        return nflat;
    size_t n = 0;
    for (size_t t = 0; t < opt_ntables; t++)
        n += opt_tables[t]->n;
    return n;
}

const char *opt_compile_check(const struct opt_def *def, const void *arg)
{
    return arg && def->check ? def->check(arg) : NULL;
}

const struct opt_def *opt_def_by_id(size_t kw)
{
    pthread_once(&flat_once, flat_build);
    if (flat)
        return kw < nflat ? flat[kw] : NULL;
    for (size_t t = 0; t < opt_ntables; t++) {
        if (kw < opt_tables[t]->n)
            return &opt_tables[t]->defs[kw];
        kw -= opt_tables[t]->n;
    }
    return NULL;
}

size_t osprey_rules_keyword_count(void)
{
    return opt_def_count();
}

const char *osprey_rules_keyword_name(size_t kw)
{
    const struct opt_def *d = opt_def_by_id(kw);
    return d ? d->name : NULL;
}

bool opt_def_implemented(const struct opt_def *d)
{
    if (d->implemented)
        return true;
    return (d->kind == OPT_STICKY || d->kind == OPT_HTTP_LEGACY) && buffer_parsed(d->buffer);
}

bool osprey_rules_keyword_implemented(size_t kw)
{
    const struct opt_def *d = opt_def_by_id(kw);
    return d && opt_def_implemented(d);
}

_Static_assert((int)D_S2 == (int)OSPREY_KW_SNORT2 && (int)D_S3 == (int)OSPREY_KW_SNORT3 &&
                   (int)D_SURI == (int)OSPREY_KW_SURICATA,
               "the public dialect bits are the registry's");

unsigned osprey_rules_keyword_dialects(size_t kw)
{
    const struct opt_def *d = opt_def_by_id(kw);
    return d ? d->dialects : 0;
}

const char *osprey_rules_keyword_kind(size_t kw)
{
    static const char *const KINDS[] = {
        [OPT_META] = "meta",         [OPT_MATCH] = "match",
        [OPT_PAYLOAD] = "payload",   [OPT_MODIFIER] = "modifier",
        [OPT_STICKY] = "sticky",     [OPT_HTTP_LEGACY] = "http-legacy",
        [OPT_TRANSFORM] = "transform",
    };
    const struct opt_def *d = opt_def_by_id(kw);
    if (d == NULL || d->kind >= sizeof KINDS / sizeof KINDS[0] || KINDS[d->kind] == NULL)
        return NULL;
    return KINDS[d->kind];
}

const char *osprey_rules_keyword_buffer(size_t kw)
{
    const struct opt_def *d = opt_def_by_id(kw);
    if (d == NULL || (d->kind != OPT_STICKY && d->kind != OPT_HTTP_LEGACY))
        return NULL;
    return osprey_rules_buffer_name(d->buffer);
}

int opt_index_build(struct opt_index *ix)
{
    /* every option of every rule is looked up by name: a hash finds it with one compare,
     * where a binary search over the sorted names made eight (3 % of the startup); the rows
     * by id are opt_def_by_id's */
    size_t n = opt_def_count(), cap = 64;
    while (cap < n * 2)
        cap *= 2;
    if (!(ix->hash = calloc(cap, sizeof *ix->hash)))
        return -1;
    ix->hmask = cap - 1;
    for (size_t i = 0; i < n; i++) {
        const char *name = opt_def_by_id(i)->name;
        size_t h = osprey_hash_bytes(name, strlen(name)) & ix->hmask;
        while (ix->hash[h])
            h = (h + 1) & ix->hmask;
        ix->hash[h] = (uint16_t)(i + 1);
    }
    ix->n = n;
    return 0;
}

void opt_index_free(struct opt_index *ix)
{
    free(ix->hash);
    ix->hash = NULL;
    ix->n = 0;
}

int opt_index_find(const struct opt_index *ix, const char *s, size_t n)
{
    for (size_t h = osprey_hash_bytes(s, n) & ix->hmask; ix->hash[h]; h = (h + 1) & ix->hmask) {
        const char *name = opt_def_by_id(ix->hash[h] - 1u)->name;
        if (strncmp(name, s, n) == 0 && name[n] == '\0')
            return ix->hash[h] - 1;
    }
    return -1;
}
