/* socket.c — passive monitoring sockets, their scopes (BPF) and handler registration. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

struct mon_sock *mon_socket(struct mon_ctx *ctx, enum mon_sock_type type, const char *scope)
{
    if (type != MON_SOCK_STREAM && type != MON_SOCK_RAW) {
        core_err(ctx, MON_EINVAL, "unknown socket type %d", (int)type);
        return NULL;
    }
    if (type == MON_SOCK_STREAM && ctx->nstream >= 64) {
        core_err(ctx, MON_EINVAL, "at most 64 stream sockets per context");
        return NULL;
    }
    struct mon_sock *s = calloc(1, sizeof *s);
    if (!s) {
        core_err(ctx, MON_ENOMEM, "out of memory");
        return NULL;
    }
    s->type = type;
    if (scope && *scope) {
        /* Scopes are matched against the innermost IP datagram, whatever the link type or
         * tunnels around it, so they are compiled for raw IP. */
        pcap_t *dead = pcap_open_dead(DLT_RAW, 65535);
        if (!dead) {
            free(s);
            core_err(ctx, MON_ENOMEM, "out of memory");
            return NULL;
        }
        if (pcap_compile(dead, &s->prog, scope, 1, PCAP_NETMASK_UNKNOWN) != 0) {
            core_err(ctx, MON_EBPF, "scope '%s': %s", scope, pcap_geterr(dead));
            pcap_close(dead);
            free(s);
            return NULL;
        }
        pcap_close(dead);
        s->has_prog = true;
    }
    if (type == MON_SOCK_STREAM)
        s->bit = ctx->nstream++;
    s->next = ctx->socks;
    ctx->socks = s;
    core_scope_clear(ctx);
    return s;
}

int mon_close(struct mon_ctx *ctx, struct mon_sock *s)
{
    struct mon_sock **link = &ctx->socks;
    while (*link && *link != s)
        link = &(*link)->next;
    if (!*link)
        return MON_ENOENT;
    *link = s->next;
    core_scope_clear(ctx);
    if (s->forest)
        ev_forest_release(ctx->forests, s->forest);
    free(s->pairs);
    free(s->index);
    if (s->has_prog)
        pcap_freecode(&s->prog);
    free(s);
    return MON_OK;
}

bool core_sock_matches(const struct mon_sock *s, const struct mon_packet *p)
{
    if (!s->has_prog)
        return true;
    if (!p->ipver || !p->l3)
        return false;
    struct pcap_pkthdr h;
    memset(&h, 0, sizeof h);
    h.caplen = h.len = p->l3_len;
    return pcap_offline_filter(&s->prog, &h, p->l3) != 0;
}

void core_scope_clear(struct mon_ctx *ctx)
{
    for (unsigned i = 0; i < ctx->nscope; i++)
        ev_forest_release(ctx->forests, ctx->scope[i].forest);
    ctx->nscope = 0;
}

/* The union of the stream sockets in mask (two or more), remembered per set of sockets: the
 * cache's reference, NULL when out of memory. */
static struct ev_forest *scope_union(struct mon_ctx *ctx, uint64_t mask)
{
    for (unsigned i = 0; i < ctx->nscope; i++)
        if (ctx->scope[i].mask == mask)
            return ctx->scope[i].forest;
    struct ev_forest *u = ev_forest_empty(ctx->forests);
    for (struct mon_sock *s = ctx->socks; s && u; s = s->next) {
        if (s->type != MON_SOCK_STREAM || !(mask & (1ull << s->bit)))
            continue;
        struct ev_forest *n = NULL, *sf = core_sock_forest(ctx, s);
        if (!sf || ev_forest_union(ctx->forests, u, sf, &n) != MON_OK)
            n = NULL;
        ev_forest_release(ctx->forests, u);
        u = n;
    }
    if (!u)
        return NULL;
    if (ctx->nscope == CORE_SCOPE_CACHE)
        core_scope_clear(ctx);
    ctx->scope[ctx->nscope].mask = mask;
    ctx->scope[ctx->nscope].forest = u; /* the cache keeps this reference */
    ctx->nscope++;
    return u;
}

/* The forest a new flow starts with: the union of the stream sockets whose scope its first
 * packet matches. Unions are remembered per set of sockets, so after the first flow of a
 * kind this is a BPF run per socket and a short scan. Returns a counted reference. */
struct ev_forest *core_scope_forest(struct mon_ctx *ctx, const struct mon_packet *p)
{
    uint64_t mask = 0;
    struct mon_sock *only = NULL;
    for (struct mon_sock *s = ctx->socks; s; s = s->next)
        if (s->type == MON_SOCK_STREAM && core_sock_matches(s, p)) {
            mask |= 1ull << s->bit;
            only = s;
        }
    struct ev_forest *f = NULL;
    if (!mask) {
        return ev_forest_empty(ctx->forests);
    } else if ((mask & (mask - 1)) == 0) {
        f = core_sock_forest(ctx, only);  /* one socket: its own forest, no union needed */
        if (!f)
            return NULL;
    } else if (!(f = scope_union(ctx, mask))) {
        return NULL;
    }
    ev_forest_retain(f);
    return f;
}

int mon_ctx_prepare(struct mon_ctx *ctx)
{
    uint64_t all = 0;
    unsigned n = 0;
    for (struct mon_sock *s = ctx->socks; s; s = s->next)
        if (s->type == MON_SOCK_STREAM) {
            if (!core_sock_forest(ctx, s))
                return core_err(ctx, MON_ENOMEM, "out of memory");
            all |= 1ull << s->bit;
            n++;
        }
    if (n > 1 && !scope_union(ctx, all))
        return core_err(ctx, MON_ENOMEM, "out of memory");
    return MON_OK;
}

/* Which phase runs a handler (see mon.h): data events happen at the receiver, REXMIT just
 * before it (sender-side so it can still drop), the rest where the caller asked. */
enum mon_hook core_hook_for(const struct mon_ctx *ctx, mon_event_t ev, enum mon_hook hook)
{
    switch (ev_root(ctx->eng->reg, ev)) {
    case MON_ON_CONN_NEW_DATA:
    case MON_ON_ERROR:
    case MON_ON_DEPTH:
    case MON_ON_ONE_SIDED:
    case MON_ON_TIMEOUT:
    case MON_ON_CONN_END:
        return MON_HK_RCV;
    case MON_ON_REXMIT:
        return MON_HK_SND;
    default:
        return hook == MON_HK_RCV ? MON_HK_RCV : MON_HK_SND;
    }
}

static int change(struct mon_ctx *ctx, struct ev_forest **slot, mon_event_t ev,
                  enum mon_hook hook, mon_handler_fn handler, void *arg, bool add)
{
    if (!handler || hook > MON_HK_ANY)
        return core_err(ctx, MON_EINVAL, "a handler and a hook (SND, RCV or ANY) are needed");
    if (!ev_exists(ctx->eng->reg, ev))
        return core_err(ctx, MON_ENOENT, "no event %u", ev);
    struct ev_pair pair = {ev, (uint8_t)core_hook_for(ctx, ev, hook), handler, arg};
    struct ev_forest *n;
    int rc = ev_forest_change(ctx->forests, *slot, &pair, add, &n);
    if (rc != MON_OK)
        return core_err(ctx, rc, add ? "handler already registered for event %u"
                                     : "no such registration for event %u", ev);
    ev_forest_release(ctx->forests, *slot);
    *slot = n;
    return MON_OK;
}

static size_t pair_hash(const struct ev_pair *p)
{
    uint64_t h = (uint64_t)p->ev * 0x9e3779b97f4a7c15ULL ^ (uint64_t)p->hook << 61;
    h ^= (uint64_t)(uintptr_t)p->handler * 0xc2b2ae3d27d4eb4fULL;
    h ^= (uint64_t)(uintptr_t)p->arg * 0x165667b19e3779f9ULL;
    return (size_t)(h ^ h >> 29);
}

static bool pair_eq(const struct ev_pair *a, const struct ev_pair *b)
{
    return a->ev == b->ev && a->hook == b->hook && a->handler == b->handler && a->arg == b->arg;
}

/* Position + 1 of pair in s->pairs, or 0; *slot receives the index slot it is (or would go) in. */
static size_t sock_find(const struct mon_sock *s, const struct ev_pair *pair, size_t *slot)
{
    if (!s->index_size)
        return 0;
    size_t mask = s->index_size - 1, i = pair_hash(pair) & mask;
    while (s->index[i]) {
        if (pair_eq(&s->pairs[s->index[i] - 1], pair)) {
            *slot = i;
            return s->index[i];
        }
        i = (i + 1) & mask;
    }
    *slot = i;
    return 0;
}

static int sock_reindex(struct mon_sock *s, size_t size)
{
    uint32_t *idx = calloc(size, sizeof *idx);
    if (!idx)
        return MON_ENOMEM;
    free(s->index);
    s->index = idx;
    s->index_size = size;
    for (size_t k = 0; k < s->npairs; k++) {
        size_t i = pair_hash(&s->pairs[k]) & (size - 1);
        while (idx[i])
            i = (i + 1) & (size - 1);
        idx[i] = (uint32_t)(k + 1);
    }
    return MON_OK;
}

static void sock_invalidate(struct mon_ctx *ctx, struct mon_sock *s)
{
    if (s->forest)
        ev_forest_release(ctx->forests, s->forest);
    s->forest = NULL;
    core_scope_clear(ctx); /* cached unions no longer match this socket's set */
}

static int sock_pair(struct mon_ctx *ctx, mon_event_t ev, enum mon_hook hook,
                     mon_handler_fn handler, void *arg, struct ev_pair *out)
{
    if (!handler || hook > MON_HK_ANY)
        return core_err(ctx, MON_EINVAL, "a handler and a hook (SND, RCV or ANY) are needed");
    if (!ev_exists(ctx->eng->reg, ev))
        return core_err(ctx, MON_ENOENT, "no event %u", ev);
    *out = (struct ev_pair){ev, (uint8_t)core_hook_for(ctx, ev, hook), handler, arg};
    return MON_OK;
}

int mon_register(struct mon_ctx *ctx, struct mon_sock *s, mon_event_t ev, enum mon_hook hook,
                 mon_handler_fn handler, void *arg)
{
    struct ev_pair pair;
    size_t slot;
    int rc = sock_pair(ctx, ev, hook, handler, arg, &pair);
    if (rc)
        return rc;
    if (sock_find(s, &pair, &slot))
        return core_err(ctx, MON_EINVAL, "handler already registered for event %u", ev);
    if (s->npairs == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        struct ev_pair *np = realloc(s->pairs, cap * sizeof *np);
        if (!np)
            return core_err(ctx, MON_ENOMEM, "out of memory");
        s->pairs = np;
        s->cap = cap;
    }
    s->pairs[s->npairs++] = pair;
    if (s->index_size < 2 * s->cap) {
        if (sock_reindex(s, 4 * s->cap) != MON_OK) {
            s->npairs--;
            return core_err(ctx, MON_ENOMEM, "out of memory");
        }
    } else {
        s->index[slot] = (uint32_t)s->npairs;
    }
    sock_invalidate(ctx, s);
    return MON_OK;
}

int mon_deregister(struct mon_ctx *ctx, struct mon_sock *s, mon_event_t ev, enum mon_hook hook,
                   mon_handler_fn handler, void *arg)
{
    struct ev_pair pair;
    size_t slot;
    int rc = sock_pair(ctx, ev, hook, handler, arg, &pair);
    if (rc)
        return rc;
    size_t pos = sock_find(s, &pair, &slot);
    if (!pos)
        return core_err(ctx, MON_EINVAL, "no such registration for event %u", ev);
    /* keep registration order (it is handler order): shift, then rebuild the index */
    memmove(&s->pairs[pos - 1], &s->pairs[pos], (s->npairs - pos) * sizeof *s->pairs);
    s->npairs--;
    if (sock_reindex(s, s->index_size) != MON_OK)
        return core_err(ctx, MON_ENOMEM, "out of memory");
    sock_invalidate(ctx, s);
    return MON_OK;
}

/* The socket's forest, built from its pair list if registrations changed since. Not a new
 * reference: the socket keeps it. */
struct ev_forest *core_sock_forest(struct mon_ctx *ctx, struct mon_sock *s)
{
    if (!s->forest && ev_forest_from_pairs(ctx->forests, s->pairs, s->npairs, &s->forest) != MON_OK)
        s->forest = NULL;
    return s->forest;
}

int mon_register_flow(struct mon_ctx *ctx, struct mon_flow *f, mon_event_t ev,
                      enum mon_hook hook, mon_handler_fn handler, void *arg)
{
    if (!f || !f->forest)
        return core_err(ctx, MON_EINVAL, "not a live flow");
    return change(ctx, &f->forest, ev, hook, handler, arg, true);
}

int mon_deregister_flow(struct mon_ctx *ctx, struct mon_flow *f, mon_event_t ev,
                        enum mon_hook hook, mon_handler_fn handler, void *arg)
{
    if (!f || !f->forest)
        return core_err(ctx, MON_EINVAL, "not a live flow");
    return change(ctx, &f->forest, ev, hook, handler, arg, false);
}
