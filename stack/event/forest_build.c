/* forest_build.c — compile a set of pairs into an invocation forest ready for breadth-first
 * walks.
 *
 * A forest has one tree per (hook, built-in) that any pair needs. A tree holds every event a
 * pair names AND all its ancestors up to the built-in: an intermediate UDE without handlers
 * still needs its filter evaluated to reach its descendants. Each event is one node per hook
 * (the registry dedups definitions), so pairs under a common ancestor share its node.
 *
 * Layout: nodes are numbered in BFS order, tree by tree, hook SND first; so each node's
 * children are one contiguous range (UDE children by event id, then raise-only children by
 * event id, the latter binary-searchable for ev_raise) and each hook's trees are one range.
 * Handlers are one array in node order, a node's in pair order. Header, nodes,
 * handlers, pairs and the membership index are ONE allocation; the build itself costs
 * O(P·d + K log K) for P pairs of average depth d giving K nodes, with temporary arrays. */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "event_internal.h"

struct tmp {
    mon_event_t ev;
    uint32_t parent;       /* tmp index, EV_NONE for a root */
    uint32_t fin;          /* final node index */
    uint32_t cfirst;       /* first child, as a position in the sorted keys */
    uint32_t ccount, nfilt;
    uint32_t nh;           /* handlers on this node */
    uint8_t hook, kind;
};

struct key {
    uint32_t parent;
    uint32_t kind;         /* EV_KIND_UDE sorts before EV_KIND_CHILD */
    mon_event_t ev;
    uint32_t t;
};

static int key_cmp(const void *a, const void *b)
{
    const struct key *x = a, *y = b;
    if (x->parent != y->parent)
        return x->parent < y->parent ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* One stable counting pass of keys by 16 bits of a field (which: 0 ev, 1 kind, 2 parent). */
static void radix_pass(const struct key *in, struct key *out, uint32_t n, int which, int shift,
                       uint32_t *count)
{
    memset(count, 0, 65536 * sizeof *count);
#define FIELD(k) (((which == 0 ? (k).ev : which == 1 ? (k).kind : (k).parent) >> shift) & 0xffff)
    for (uint32_t i = 0; i < n; i++)
        count[FIELD(in[i])]++;
    uint32_t sum = 0;
    for (uint32_t d = 0; d < 65536; d++) {
        uint32_t c = count[d];
        count[d] = sum;
        sum += c;
    }
    for (uint32_t i = 0; i < n; i++)
        out[count[FIELD(in[i])]++] = in[i];
#undef FIELD
}

/* keys in key_cmp's order: least significant field first, each pass stable (a large forest
 * has hundreds of thousands of nodes: qsort's calls to key_cmp were most of its build) */
static void sort_keys(struct key *keys, uint32_t n)
{
    struct key *tmp = malloc((size_t)(n ? n : 1) * sizeof *tmp);
    uint32_t *count = malloc(65536 * sizeof *count);
    if (!tmp || !count) {
        free(tmp);
        free(count);
        qsort(keys, n, sizeof *keys, key_cmp);
        return;
    }
    radix_pass(keys, tmp, n, 0, 0, count);  /* ev, low half */
    radix_pass(tmp, keys, n, 0, 16, count); /* ev, high half */
    radix_pass(keys, tmp, n, 1, 0, count);  /* kind */
    radix_pass(tmp, keys, n, 2, 0, count);  /* parent, low half */
    radix_pass(keys, tmp, n, 2, 16, count); /* parent, high half */
    memcpy(keys, tmp, (size_t)n * sizeof *keys);
    free(tmp);
    free(count);
}

/* Temporary (hook, event) → tmp index map. */
struct map {
    uint32_t *slot;  /* tmp index + 1; 0 = free */
    uint32_t mask;
};

static uint32_t map_hash(uint8_t hook, mon_event_t ev)
{
    uint64_t k = ((uint64_t)ev << 1 | hook) * 0x9e3779b97f4a7c15ULL;
    return (uint32_t)(k >> 32);
}

static uint32_t map_get(const struct map *m, const struct tmp *t, uint8_t hook, mon_event_t ev)
{
    for (uint32_t j = map_hash(hook, ev) & m->mask; m->slot[j]; j = (j + 1) & m->mask) {
        const struct tmp *e = &t[m->slot[j] - 1];
        if (e->ev == ev && e->hook == hook)
            return m->slot[j] - 1;
    }
    return EV_NONE;
}

static void map_put(struct map *m, uint8_t hook, mon_event_t ev, uint32_t idx)
{
    uint32_t j = map_hash(hook, ev) & m->mask;
    while (m->slot[j])
        j = (j + 1) & m->mask;
    m->slot[j] = idx + 1;
}

static uint32_t pow2_at_least(uint64_t n)
{
    uint64_t v = 1;
    while (v < n)
        v <<= 1;
    return v > (1ull << 31) ? 0 : (uint32_t)v;
}

static size_t align_up(size_t n)
{
    const size_t a = alignof(max_align_t);
    return (n + a - 1) & ~(a - 1);
}

int32_t forest_find_pair(const struct ev_forest *f, const struct ev_pair *p, struct ev_id id)
{
    for (uint32_t j = (uint32_t)id.a & f->index_mask; f->index[j]; j = (j + 1) & f->index_mask) {
        const struct ev_fpair *fp = &f->pair[f->index[j] - 1];
        if (ev_id_eq(fp->id, id) && ev_pair_eq(&fp->p, p))
            return (int32_t)(f->index[j] - 1);
    }
    return -1;
}

/* Carve the one allocation; counts are known. */
static struct ev_forest *forest_alloc(uint32_t npairs, uint32_t nnodes, uint32_t nhandlers)
{
    uint32_t isize = pow2_at_least((uint64_t)npairs * 2 > 1 ? (uint64_t)npairs * 2 : 1);
    if (!isize)
        return NULL;
    size_t o_node = align_up(sizeof(struct ev_forest));
    size_t o_hand = o_node + align_up((size_t)nnodes * sizeof(struct ev_node));
    size_t o_pair = o_hand + align_up((size_t)nhandlers * sizeof(struct ev_handler));
    size_t o_index = o_pair + align_up((size_t)npairs * sizeof(struct ev_fpair));
    size_t total = o_index + (size_t)isize * sizeof(uint32_t);
    unsigned char *blk = calloc(1, total);
    if (!blk)
        return NULL;
    struct ev_forest *f = (struct ev_forest *)blk;
    f->node = (struct ev_node *)(blk + o_node);
    f->handler = (struct ev_handler *)(blk + o_hand);
    f->pair = (struct ev_fpair *)(blk + o_pair);
    f->index = (uint32_t *)(blk + o_index);
    f->index_mask = isize - 1;
    f->npairs = npairs;
    f->nnodes = nnodes;
    f->nhandlers = nhandlers;
    f->bytes = total;
    for (int h = 0; h < 2; h++)
        for (int b = 0; b < MON_EV_BUILTIN_COUNT; b++)
            f->root[h][b] = EV_NONE;
    return f;
}

int forest_build(const struct ev_registry *r, const struct ev_fpair *pairs, uint32_t n,
                 struct ev_id id, struct ev_forest **out)
{
    int err = MON_ENOMEM;
    /* bound on nodes: each pair adds at most its event and its ancestors */
    uint64_t bound = 0;
    for (uint32_t i = 0; i < n; i++)
        bound += (uint64_t)ev_def_of(r, pairs[i].p.ev)->depth + 1;
    if (bound >= (1ull << 30))
        return MON_ENOMEM;
    uint32_t msize = pow2_at_least(bound * 2 > 1 ? bound * 2 : 1);
    struct tmp *t = malloc((size_t)(bound ? bound : 1) * sizeof *t);
    struct key *keys = malloc((size_t)(bound ? bound : 1) * sizeof *keys);
    uint32_t *bfs = malloc((size_t)(bound ? bound : 1) * sizeof *bfs);
    uint32_t *fill = malloc((size_t)(bound ? bound : 1) * sizeof *fill);
    struct map m = {calloc(msize, sizeof(uint32_t)), msize - 1};
    struct ev_forest *f = NULL;
    if (!t || !keys || !bfs || !fill || !m.slot)
        goto out;

    /* 1. the nodes: every pair's event and its ancestors, once per hook */
    uint32_t nt = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t hook = pairs[i].p.hook;
        uint32_t below = EV_NONE;
        for (mon_event_t ev = pairs[i].p.ev;; ev = ev_def_of(r, ev)->base) {
            uint32_t k = map_get(&m, t, hook, ev);
            bool had = k != EV_NONE;
            if (!had) {
                const struct ev_def *d = ev_def_of(r, ev);
                k = nt++;
                t[k] = (struct tmp){.ev = ev, .parent = EV_NONE, .hook = hook, .kind = d->kind};
                map_put(&m, hook, ev, k);
            }
            if (below != EV_NONE)
                t[below].parent = k;
            if (had || t[k].kind == EV_KIND_BUILTIN)
                break;
            below = k;
        }
        t[map_get(&m, t, hook, pairs[i].p.ev)].nh++;
    }

    /* 2. children grouped by parent, UDEs before raise-only, each by event id */
    uint32_t nk = 0;
    for (uint32_t k = 0; k < nt; k++)
        if (t[k].parent != EV_NONE)
            keys[nk++] = (struct key){t[k].parent, t[k].kind == EV_KIND_CHILD, t[k].ev, k};
    sort_keys(keys, nk);
    for (uint32_t i = 0; i < nk; i++) {
        struct tmp *p = &t[keys[i].parent];
        if (!p->ccount)
            p->cfirst = i;
        p->ccount++;
        p->nfilt += !keys[i].kind;
    }

    /* 3. BFS numbering, tree by tree: children get consecutive numbers */
    uint32_t nn = 0, nh = 0;
    uint32_t hook_base[2], hook_nodes[2];
    for (uint8_t hook = 0; hook < 2; hook++) {
        hook_base[hook] = nn;
        for (mon_event_t b = 0; b < MON_EV_BUILTIN_COUNT; b++) {
            uint32_t k = map_get(&m, t, hook, b);
            if (k == EV_NONE)
                continue;
            uint32_t head = nn;
            t[k].fin = nn;
            bfs[nn++] = k;
            while (head < nn) {
                const struct tmp *p = &t[bfs[head++]];
                for (uint32_t c = 0; c < p->ccount; c++) {
                    uint32_t ck = keys[p->cfirst + c].t;
                    t[ck].fin = nn;
                    bfs[nn++] = ck;
                }
            }
        }
        hook_nodes[hook] = nn - hook_base[hook];
    }
    for (uint32_t k = 0; k < nt; k++)
        nh += t[k].nh;

    f = forest_alloc(n, nn, nh);
    if (!f)
        goto out;
    f->id = id;
    memcpy(f->hook_base, hook_base, sizeof hook_base);
    memcpy(f->hook_nodes, hook_nodes, sizeof hook_nodes);

    /* 4. nodes in final order; handler ranges by prefix sum */
    uint32_t hsum = 0;
    for (uint32_t i = 0; i < nn; i++) {
        const struct tmp *e = &t[bfs[i]];
        struct ev_node *nd = &f->node[i];
        const struct ev_def *d = ev_def_of(r, e->ev);
        nd->ev = e->ev;
        if (e->kind == EV_KIND_UDE) {
            nd->filter = d->filter;
            nd->arg = d->arg;
            nd->last = d->last;
        }
        nd->child = e->ccount ? t[keys[e->cfirst].t].fin : 0;
        nd->nfilt = e->nfilt;
        nd->nraise = e->ccount - e->nfilt;
        nd->handler = hsum;
        nd->nhandler = e->nh;
        fill[i] = hsum;
        hsum += e->nh;
        if (e->parent == EV_NONE) {
            f->root[e->hook][e->ev] = i;
            f->roots[e->hook] |= 1u << e->ev;
        }
    }

    /* 5. handlers in pair order (= registration order), pairs, membership index */
    for (uint32_t i = 0; i < n; i++) {
        const struct ev_pair *p = &pairs[i].p;
        if (forest_find_pair(f, p, pairs[i].id) >= 0) {
            err = MON_EINVAL;  /* a pair twice: not a set */
            free(f);
            f = NULL;
            goto out;
        }
        uint32_t node = t[map_get(&m, t, p->hook, p->ev)].fin;
        f->handler[fill[node]++] = (struct ev_handler){p->handler, p->arg};
        f->pair[i] = pairs[i];
        uint32_t j = (uint32_t)pairs[i].id.a & f->index_mask;
        while (f->index[j])
            j = (j + 1) & f->index_mask;
        f->index[j] = i + 1;
    }
    err = MON_OK;

out:
    free(t);
    free(keys);
    free(bfs);
    free(fill);
    free(m.slot);
    *out = f;
    return err;
}
