/* registry.c — the d-forest: every event, built-in or user-defined, with its base, filter,
 * argument, root built-in and depth. Ids are dense (an array index), so everything else can
 * index by event. Defining the same (base, filter, arg) again returns the same event: this is
 * what makes rule chains with a common prefix share nodes. */
#include <stdlib.h>
#include <string.h>

#include "event_internal.h"

/* The inputs are the application's own definitions, not traffic, so there is nothing to
 * flood and no key is needed: a fixed mix of the three words (SipHash here was 3 % of the
 * startup with ET Open, 300,000 definitions) keeps layouts identical from run to run. */
static uint32_t dedup_hash(mon_event_t base, mon_filter_fn filter, void *arg)
{
    uint64_t f = 0, a = 0;
    memcpy(&f, &filter, sizeof filter < sizeof f ? sizeof filter : sizeof f); /* object bytes */
    memcpy(&a, &arg, sizeof arg < sizeof a ? sizeof arg : sizeof a);
    uint64_t h = ((uint64_t)base + 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ f ^ (h >> 31)) * 0x94d049bb133111ebull;
    h = (h ^ a ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull;
    return (uint32_t)(h ^ (h >> 32));
}

struct ev_registry *ev_registry_create(void)
{
    struct ev_registry *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->cap = 64;
    r->def = calloc(r->cap, sizeof *r->def);
    r->slot_mask = 63;
    r->slot = calloc(r->slot_mask + 1, sizeof *r->slot);
    if (!r->def || !r->slot) {
        ev_registry_destroy(r);
        return NULL;
    }
    for (mon_event_t b = 0; b < MON_EV_BUILTIN_COUNT; b++)
        r->def[b] = (struct ev_def){.base = b, .root = b, .kind = EV_KIND_BUILTIN};
    r->n = MON_EV_BUILTIN_COUNT;
    return r;
}

void ev_registry_destroy(struct ev_registry *r)
{
    if (!r)
        return;
    free(r->def);
    free(r->slot);
    free(r);
}

void ev_registry_freeze(struct ev_registry *r)
{
    r->frozen = true;
}

bool ev_registry_frozen(const struct ev_registry *r)
{
    return r->frozen;
}

size_t ev_count(const struct ev_registry *r)
{
    return r->n;
}

bool ev_exists(const struct ev_registry *r, mon_event_t ev)
{
    return r && ev < r->n;
}

mon_event_t ev_root(const struct ev_registry *r, mon_event_t ev)
{
    return ev < r->n ? r->def[ev].root : ev;
}

mon_event_t ev_base(const struct ev_registry *r, mon_event_t ev)
{
    return ev < r->n ? r->def[ev].base : ev;
}

uint32_t ev_depth(const struct ev_registry *r, mon_event_t ev)
{
    return ev < r->n ? r->def[ev].depth : 0;
}

bool ev_is_child(const struct ev_registry *r, mon_event_t ev)
{
    return ev < r->n && r->def[ev].kind == EV_KIND_CHILD;
}

/* Room for one more definition: the array, and the dedup table kept at most half full. */
static int reserve_one(struct ev_registry *r)
{
    if (r->n == UINT32_MAX - 1)
        return MON_ENOMEM;  /* ids must stay below EV_NONE */
    if (r->n == r->cap) {
        uint32_t cap = r->cap > UINT32_MAX / 2 ? UINT32_MAX : r->cap * 2;
        struct ev_def *d = realloc(r->def, (size_t)cap * sizeof *d);
        if (!d)
            return MON_ENOMEM;
        r->def = d;
        r->cap = cap;
    }
    if ((r->nslots_used + 1) * 2 > r->slot_mask + 1) {
        uint32_t nmask = r->slot_mask * 2 + 1;
        uint32_t *ns = calloc((size_t)nmask + 1, sizeof *ns);
        if (!ns)
            return MON_ENOMEM;
        for (uint32_t i = 0; i <= r->slot_mask; i++) {
            uint32_t ev = r->slot[i];
            if (!ev)
                continue;
            const struct ev_def *d = &r->def[ev];
            uint32_t j = dedup_hash(d->base, d->filter, d->arg) & nmask;
            while (ns[j])
                j = (j + 1) & nmask;
            ns[j] = ev;
        }
        free(r->slot);
        r->slot = ns;
        r->slot_mask = nmask;
    }
    return MON_OK;
}

static int64_t define(struct ev_registry *r, mon_event_t base, mon_filter_fn filter, void *arg,
                      bool last)
{
    if (!r || !filter)
        return MON_EINVAL;
    if (base >= r->n)
        return MON_ENOENT;
    if (r->frozen)
        return MON_EFROZEN;  /* even for a definition that exists: one simple rule */
    uint32_t j = dedup_hash(base, filter, arg) & r->slot_mask;
    for (; r->slot[j]; j = (j + 1) & r->slot_mask) {
        const struct ev_def *d = &r->def[r->slot[j]];
        if (d->base == base && d->filter == filter && d->arg == arg)
            return d->last == last ? (int64_t)r->slot[j] : MON_EINVAL;
    }
    int err = reserve_one(r);
    if (err)
        return err;
    j = dedup_hash(base, filter, arg) & r->slot_mask;  /* the table may have grown */
    while (r->slot[j])
        j = (j + 1) & r->slot_mask;
    mon_event_t ev = r->n++;
    const struct ev_def *b = &r->def[base];
    r->def[ev] = (struct ev_def){.filter = filter, .arg = arg, .base = base, .root = b->root,
                                 .depth = b->depth + 1, .kind = EV_KIND_UDE,
                                 .last = last};
    r->slot[j] = ev;
    r->nslots_used++;
    return ev;
}

int64_t ev_define(struct ev_registry *r, mon_event_t base, mon_filter_fn filter, void *arg)
{
    return define(r, base, filter, arg, false);
}

int64_t ev_define_last(struct ev_registry *r, mon_event_t base, mon_filter_fn filter,
                       void *arg)
{
    return define(r, base, filter, arg, true);
}

int64_t ev_alloc(struct ev_registry *r, mon_event_t parent)
{
    if (!r)
        return MON_EINVAL;
    if (parent >= r->n)
        return MON_ENOENT;
    /* Only a filter can raise: a parent without one (built-in, or another child) would
     * make a child that can never fire. */
    if (r->def[parent].kind != EV_KIND_UDE)
        return MON_EINVAL;
    if (r->frozen)
        return MON_EFROZEN;
    int err = reserve_one(r);
    if (err)
        return err;
    mon_event_t ev = r->n++;
    const struct ev_def *p = &r->def[parent];
    r->def[ev] = (struct ev_def){.base = parent, .root = p->root, .depth = p->depth + 1,
                                 .kind = EV_KIND_CHILD};
    return ev;
}
