/* event_internal.h — what stack/event's files share. Not part of the contract
 * (event_contract_internal.h): the core never looks inside these structures, the unit tests
 * and bench/forest_share.c may. */
#ifndef MON_EVENT_INTERNAL_H
#define MON_EVENT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_contract_internal.h"

#define EV_NONE UINT32_MAX

/* ---- registry (registry.c) ---- */
enum ev_kind {
    EV_KIND_BUILTIN,  /* raised by the stack */
    EV_KIND_UDE,      /* base + filter: fires when base fires and filter says true */
    EV_KIND_CHILD,    /* ev_alloc'd: fires when its parent's filter raises it */
};

struct ev_def {
    mon_filter_fn filter;  /* NULL for built-ins and children */
    void *arg;
    mon_event_t base;      /* parent in the d-forest; a built-in is its own base */
    mon_event_t root;      /* the built-in at the top of its d-tree */
    uint32_t depth;        /* 0 for built-ins */
    uint8_t kind;          /* enum ev_kind */
    bool last;             /* a UDE walked after everything else (ev_define_last) */
};

struct ev_registry {
    struct ev_def *def;    /* indexed by event id: ids are dense */
    uint32_t n, cap;
    uint32_t *slot;        /* dedup of UDEs by (base, filter, arg): event id, 0 = free */
    uint32_t slot_mask;
    uint32_t nslots_used;
    bool frozen;
};

static inline const struct ev_def *ev_def_of(const struct ev_registry *r, mon_event_t ev)
{
    return &r->def[ev];
}

/* ---- pair identity (forest_id.c) ---- */
/* 128 bits as two independent 64-bit keyed hashes: a forest id is the XOR of its pairs'. */
struct ev_id {
    uint64_t a, b;
};

static inline struct ev_id ev_id_xor(struct ev_id x, struct ev_id y)
{
    return (struct ev_id){x.a ^ y.a, x.b ^ y.b};
}

static inline bool ev_id_eq(struct ev_id x, struct ev_id y)
{
    return x.a == y.a && x.b == y.b;
}

struct ev_id ev_pair_id(const struct ev_pair *p);
bool ev_pair_eq(const struct ev_pair *x, const struct ev_pair *y);

/* ---- forests (forest_build.c) ---- */
/* One node per event per hook. Children are contiguous in the node array (BFS numbering):
 * first the UDE children (filtered, by event id), then the raise-only children (EV_KIND_CHILD,
 * by event id, so ev_raise can binary-search them). */
struct ev_node {
    mon_filter_fn filter;  /* NULL: a root built-in or a raise-only child */
    void *arg;
    mon_event_t ev;
    uint32_t child;        /* node index of the first child */
    uint32_t nfilt;        /* UDE children */
    uint32_t nraise : 31;  /* raise-only children, after the UDE children */
    uint32_t last : 1;     /* walked after every other node of its walk (ev_define_last) */
    uint32_t handler;      /* index of the first handler */
    uint32_t nhandler;
};

struct ev_handler {
    mon_handler_fn fn;
    void *arg;
};

/* A pair as a forest keeps it, with its hash. A forest's pairs are in registration order
 * along the path that built it (add appends, remove keeps the order, a union puts a's pairs
 * before b's new ones): that is the order a node's handlers run in. */
struct ev_fpair {
    struct ev_pair p;
    struct ev_id id;
};

struct ev_forest {
    /* bookkeeping of the context's table: the only fields that change after the build */
    struct ev_forest *next;       /* hash chain */
    uint32_t refs;
    /* immutable from here on */
    struct ev_id id;
    uint32_t npairs, nnodes, nhandlers;
    uint32_t roots[2];                          /* per hook: 1u << built-in with a tree */
    uint32_t root[2][MON_EV_BUILTIN_COUNT];     /* per hook and built-in: node index or EV_NONE */
    uint32_t hook_base[2], hook_nodes[2];       /* each hook's trees are one node range */
    uint32_t index_mask;
    size_t bytes;                               /* the whole block */
    struct ev_node *node;
    struct ev_handler *handler;
    struct ev_fpair *pair;                      /* registration order */
    uint32_t *index;                            /* pair index + 1 by id.a; 0 = free */
};

/* Compile pairs (in registration order, events valid) into one allocation: MON_EINVAL if a
 * pair appears twice, MON_ENOMEM. */
int forest_build(const struct ev_registry *r, const struct ev_fpair *pairs, uint32_t n,
                 struct ev_id id, struct ev_forest **out);
/* Index of pair p in f, or -1. */
int32_t forest_find_pair(const struct ev_forest *f, const struct ev_pair *p, struct ev_id id);

/* ---- runner (run.c) ---- */
struct ev_runner {
    const struct ev_registry *reg;
    uint32_t cap;               /* nodes one hook of a forest may have */
    uint32_t *queue;            /* BFS queue of node indices (2 × cap: a node walked last is
                                   queued twice, once where BFS meets it, once at the end) */
    uint32_t *later;            /* the walk's last-walked nodes met so far, in that order */
    uint32_t nlater;
    uint32_t *pending;          /* children raised by the filter being evaluated */
    uint32_t *stamp;            /* per node (relative to the hook's base): raised in walk `gen` */
    uint32_t gen;
    uint32_t npending;
    uint32_t hook_base;
    const struct ev_forest *cur_f;  /* non-NULL while a filter runs: ev_raise is allowed */
    const struct ev_node *cur;
    bool busy;                  /* inside ev_run: a nested call is refused */
};

#endif
