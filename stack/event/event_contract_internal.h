/* event_contract_internal.h — the contract between libmon's core (stack/core) and its event
 * system (stack/event). Internal: applications use mon.h.
 *
 * Two structures, as in mOS §4.2:
 *  - the registry (d-forest): every event ever defined, built-in or UDE, with its base event,
 *    filter and argument; lives in the engine and is immutable once frozen;
 *  - invocation forests (i-forests): the (event, hook, handler, arg) pairs a flow waits on,
 *    compiled into breadth-first trees rooted at built-in events. A forest's id is the XOR of
 *    a per-pair hash (two independent 64-bit hashes, so ids are 128-bit and collisions are
 *    negligible), so adding or removing a pair gives the new id in O(1) and finds an existing
 *    forest in a hash table. Forests are reference counted and shared by all flows (and
 *    passive sockets) with the same set; one is never modified once built.
 */
#ifndef MON_EVENT_CONTRACT_INTERNAL_H
#define MON_EVENT_CONTRACT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mon.h"

/* ---- registry (engine-wide, immutable after freeze) ---- */
struct ev_registry;

/* Built-in events 0..MON_EV_BUILTIN_COUNT-1 exist from creation. Ids are dense small
 * integers; there is no limit other than memory. */
struct ev_registry *ev_registry_create(void);
void ev_registry_destroy(struct ev_registry *r);
/* A UDE: fires when base fires and filter(…, arg) returns true. Same (base, filter, arg) →
 * same id. Errors: MON_EINVAL (NULL filter), MON_ENOENT (no such base), MON_ENOMEM,
 * MON_EFROZEN (every definition after freeze, even of an existing triple). */
int64_t ev_define(struct ev_registry *r, mon_event_t base, mon_filter_fn filter, void *arg);
/* As ev_define, for a UDE walked last: in a walk that reaches it, it is evaluated after every
 * other node the walk queues (at any depth), so its handlers see the whole tree done. The same
 * (base, filter, arg) defined both ways is MON_EINVAL. */
int64_t ev_define_last(struct ev_registry *r, mon_event_t base, mon_filter_fn filter,
                       void *arg);
/* A child of a multi-event filter. `parent` is the UDE M whose filter raises it: while M's
 * filter runs it may call ev_raise(child) for any number of M's children; if the filter then
 * returns true, the raised children fire (their handlers run and their own UDE children are
 * walked, after M's UDE children); if it returns false they are dropped with M. A child has
 * no filter. Errors: MON_ENOENT (no such parent), MON_EINVAL (parent is not a UDE with a
 * filter: nothing could raise the child), MON_ENOMEM, MON_EFROZEN. */
int64_t ev_alloc(struct ev_registry *r, mon_event_t parent);
void ev_registry_freeze(struct ev_registry *r);
bool ev_registry_frozen(const struct ev_registry *r);
size_t ev_count(const struct ev_registry *r);
bool ev_exists(const struct ev_registry *r, mon_event_t ev);
mon_event_t ev_root(const struct ev_registry *r, mon_event_t ev);  /* its built-in ancestor */
mon_event_t ev_base(const struct ev_registry *r, mon_event_t ev);  /* parent; built-in: itself */
uint32_t ev_depth(const struct ev_registry *r, mon_event_t ev);    /* built-in 0, its UDEs 1 … */
bool ev_is_child(const struct ev_registry *r, mon_event_t ev);     /* made by ev_alloc */

/* ---- forests (per context) ---- */
struct ev_pair {
    mon_event_t ev;
    uint8_t hook;            /* MON_HK_SND or MON_HK_RCV (MON_HK_ANY resolved by the caller) */
    mon_handler_fn handler;
    void *arg;
};

struct ev_forest;        /* immutable once built; reference counted; one context only */
struct ev_forests;       /* a context's table of live forests */

struct ev_forests *ev_forests_create(const struct ev_registry *r);
void ev_forests_destroy(struct ev_forests *fs);

/* The empty forest (no pairs). Counted reference: release with ev_forest_release. */
struct ev_forest *ev_forest_empty(struct ev_forests *fs);
/* The forest `from` plus (add) or minus (!add) one pair, as a new counted reference; `from`'s
 * reference is NOT released (the caller swaps and releases). O(1) when that forest already
 * exists; otherwise it is built (O(size)); `from` is never modified. Errors: MON_EINVAL
 * (adding a pair already there, removing one that is not, hook not SND/RCV, NULL handler),
 * MON_ENOENT (no such event), MON_ENOMEM. Handlers of one event run in registration order
 * (add appends). Two flows that registered the same handlers in different orders have the
 * same set, so they share one forest and the order of whichever built it first. */
int ev_forest_change(struct ev_forests *fs, struct ev_forest *from, const struct ev_pair *pair,
                     bool add, struct ev_forest **out);
/* Union of two forests' pairs (a flow in the scope of several passive sockets), as a new
 * counted reference. O(|a| + |b|) to compute the id, plus a build when it is new: cache the
 * result per socket combination rather than calling it per flow. */
int ev_forest_union(struct ev_forests *fs, struct ev_forest *a, struct ev_forest *b,
                    struct ev_forest **out);
/* The forest of exactly these pairs (in this order = handler order), as a new counted
 * reference: one build instead of n (registering n pairs one by one builds n forests of
 * growing size, O(n^2) — 20,000 rules on a passive socket would take seconds). For a
 * passive socket: keep its pair list and build its forest with this when a flow needs it.
 * Errors: as ev_forest_change, and MON_EINVAL for a pair given twice. */
int ev_forest_from_pairs(struct ev_forests *fs, const struct ev_pair *pairs, size_t n,
                         struct ev_forest **out);
void ev_forest_retain(struct ev_forest *f);
/* Drops one reference; at zero the forest is freed (the empty forest never is: the table
 * keeps one). */
void ev_forest_release(struct ev_forests *fs, struct ev_forest *f);
size_t ev_forest_npairs(const struct ev_forest *f);
uint32_t ev_forest_refs(const struct ev_forest *f);           /* current reference count */
size_t ev_forest_nodes(const struct ev_forest *f, int hook);  /* nodes in hook's trees */
bool ev_forest_has(const struct ev_forest *f, const struct ev_pair *pair);
/* Bit (1u << MON_ON_x) set when the forest has any pair under built-in x for that hook:
 * lets the core skip work nobody waits for. */
uint32_t ev_forest_roots(const struct ev_forest *f, int hook);

struct ev_forest_stats {
    uint64_t alive;    /* live forests, the cached empty one included */
    uint64_t created;  /* builds since ev_forests_create, the empty one included */
    uint64_t bytes;    /* memory of the live forests */
};
void ev_forests_stats(const struct ev_forests *fs, struct ev_forest_stats *out);

/* ---- running (per context) ---- */
struct ev_runner;  /* scratch for breadth-first walks; one per context */
/* Scratch is sized from ev_count(r): enough for any forest of a frozen registry. */
struct ev_runner *ev_runner_create(const struct ev_registry *r);
void ev_runner_destroy(struct ev_runner *rn);

/* Run the trees of forest f for hook, for every built-in event whose bit is set in `raised`,
 * in the built-in priority order documented in mon.h (REXMIT, if mixed in, after
 * TCP_STATE_CHANGE). Each tree breadth-first: the built-in's handlers, then each child UDE's
 * filter(ctx, flow, side, ev, arg) — false prunes it and its subtree; true runs its handlers
 * (in registration order) and queues its children. Children of a multi-event filter run only
 * when raised (see ev_alloc). Counters go to stats (filters_run, handlers_run; NULL: none).
 * Allocates nothing (except, before walking, when an unfrozen registry has outgrown the
 * runner). Handlers may register/deregister on the current flow: the walk goes on with f,
 * the change applies from the flow's next event run. So the CALLER HOLDS A REFERENCE to f
 * for the whole call (ev_forest_retain before, ev_forest_release after), as the flow's own
 * reference may be dropped by such a handler. Not re-entrant: a call from inside a filter
 * or handler on the same runner does nothing. */
void ev_run(struct ev_runner *rn, const struct ev_forest *f, int hook, uint32_t raised,
            struct mon_ctx *ctx, struct mon_flow *flow, int side, struct mon_event_stats *stats);
/* Run one event's subtree now, as if it had just fired (its own filter is not asked): ev's
 * handlers, then its descendants breadth-first as ev_run does. For a UDE library that raises
 * an event once per application message from inside its own filter (mon_run_event). Returns
 * 1 when ev has a node in hook's trees, 0 when nobody in f waits for it there; MON_ENOENT (no
 * such event), MON_EINVAL, MON_ESTATE (rn is already walking: use a runner per nesting
 * level), MON_ENOMEM. The caller holds a reference to f, as for ev_run. */
int ev_run_event(struct ev_runner *rn, const struct ev_forest *f, int hook, mon_event_t ev,
                 struct mon_ctx *ctx, struct mon_flow *flow, int side,
                 struct mon_event_stats *stats);
/* From inside a filter: raise child (allocated with ev_alloc under the event being
 * filtered). Raising twice is raising once. MON_OK also when nothing in this forest waits
 * for the child. Errors: MON_ESTATE (not inside a filter), MON_EINVAL (not a child of the
 * event being filtered). */
int ev_raise(struct ev_runner *rn, mon_event_t child);

#endif
