/* xstate.c — state beyond one flow's flowbits: xbits and hostbits (Suricata's bits on an IP
 * address or an address pair, with an expiry) and flowint (integer variables of a flow).
 *
 * Both are evaluated when a packet's matches are committed (runtime.c), in rule order:
 * conditions (xbits isset/isnotset, flowint ==, <, isset …) must hold, actions (xbits set,
 * unset, toggle; flowint =, +, -) change the state. A flowint action stays done when a later
 * condition of the same rule fails, as in Suricata, so `flowint:n,+,1; flowint:n,>,5;`
 * counts every match and alerts from the sixth on.
 *
 * xbits live in a fixed open-addressing table per worker (XB_SLOTS entries): when it is full a
 * set is dropped and counted, never a crash. Expired entries are reused. Each worker has its
 * own table: with --runmode workers, an ip_src/ip_dst bit is seen by the flows of the worker
 * that set it (an ip_pair bit always is: workers are chosen by the address pair).
 */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"

#define XB_SLOTS 65536u /* power of two */
#define XB_DEFAULT_EXPIRE_S 30

struct xb_entry {
    uint8_t used, track;
    uint32_t id;
    uint8_t key[32];
    uint64_t expire_us;
};

struct det_xbits {
    struct xb_entry e[XB_SLOTS];
    uint64_t full; /* sets dropped: the table was full */
};

struct det_xbits *det_xbits_create(void)
{
    return calloc(1, sizeof(struct det_xbits));
}

void det_xbits_free(struct det_xbits *t)
{
    free(t);
}

uint64_t det_xbits_dropped(const struct det_xbits *t)
{
    return t ? t->full : 0;
}

/* The key of a track: a host (the source or the destination address), or the pair in address
 * order (a pair is the same both ways). A host bit lives on the address whichever side named
 * it, as in Suricata's host table: `track ip_dst` set on a request is `track ip_src` of the
 * reply, and hostbits share them. Returns the track the entry is stored under. */
static uint8_t make_key(uint8_t track, const struct det_who *who, uint8_t key[32])
{
    memset(key, 0, 32);
    if (track == TRACK_IP_SRC) {
        memcpy(key, who->src, 16);
    } else if (track == TRACK_IP_DST) {
        memcpy(key, who->dst, 16);
        return TRACK_IP_SRC; /* the host table */
    } else {
        bool lt = memcmp(who->src, who->dst, 16) < 0;
        memcpy(key, lt ? who->src : who->dst, 16);
        memcpy(key + 16, lt ? who->dst : who->src, 16);
    }
    return track;
}

static uint32_t hash(uint32_t id, uint8_t track, const uint8_t key[32])
{
    uint64_t h = 1469598103934665603ull ^ id ^ ((uint64_t)track << 40);
    for (int i = 0; i < 32; i++)
        h = (h ^ key[i]) * 1099511628211ull;
    return (uint32_t)(h ^ (h >> 32));
}

/* used: 0 never, 1 holds a bit, 2 unset (a tombstone: probe chains go on past it) */
static bool live(const struct xb_entry *e, uint64_t now)
{
    return e->used == 1 && (!e->expire_us || e->expire_us > now);
}

/* The entry of (id, track, key), or NULL; with `room`, the first reusable slot on the way. */
static struct xb_entry *find(struct det_xbits *t, uint32_t id, uint8_t track,
                             const uint8_t key[32], uint64_t now, struct xb_entry **room)
{
    uint32_t h = hash(id, track, key);
    if (room)
        *room = NULL;
    for (uint32_t i = 0; i < 64; i++) { /* bounded probe */
        struct xb_entry *e = &t->e[(h + i) & (XB_SLOTS - 1)];
        if (e->used == 1 && e->id == id && e->track == track && !memcmp(e->key, key, 32)) {
            if (live(e, now))
                return e;
            if (room && !*room)
                *room = e; /* expired: its own slot is the place to set it again */
            return NULL;
        }
        if (room && !*room && !live(e, now))
            *room = e;
        if (!e->used)
            break;
    }
    return NULL;
}

static bool test_one(struct det_xbits *t, uint8_t track, uint32_t id, const struct det_who *who,
                     uint64_t now)
{
    uint8_t key[32];
    uint8_t stored = make_key(track, who, key);
    return t && find(t, id, stored, key, now, NULL) != NULL;
}

bool det_xbits_test(struct det_xbits *t, const struct opt_bits *b, const uint32_t *ids,
                    const struct det_who *who, uint64_t now)
{
    bool set = b->track == TRACK_IP_BOTH
                   ? test_one(t, TRACK_IP_SRC, ids[0], who, now) &&
                         test_one(t, TRACK_IP_DST, ids[0], who, now)
                   : test_one(t, b->track, ids[0], who, now);
    return b->op == BITS_ISSET ? set : !set;
}

static void apply_one(struct det_xbits *t, const struct opt_bits *b, uint8_t track, uint32_t id,
                      const struct det_who *who, uint64_t now)
{
    uint8_t key[32];
    uint8_t stored = make_key(track, who, key);
    struct xb_entry *room, *e = find(t, id, stored, key, now, &room);
    bool on = b->op == BITS_SET || (b->op == BITS_TOGGLE && !e);
    if (!on) {
        if (e)
            e->used = 2;
        return;
    }
    if (!e && !(e = room)) {
        t->full++;
        return;
    }
    e->used = 1;
    e->id = id;
    e->track = stored;
    memcpy(e->key, key, 32);
    e->expire_us = now + (uint64_t)(b->expire ? b->expire : XB_DEFAULT_EXPIRE_S) * 1000000u;
}

void det_xbits_apply(struct det_xbits *t, const struct opt_bits *b, const uint32_t *ids,
                     const struct det_who *who, uint64_t now)
{
    if (!t)
        return;
    if (b->track != TRACK_IP_BOTH) {
        apply_one(t, b, b->track, ids[0], who, now);
        return;
    }
    apply_one(t, b, TRACK_IP_SRC, ids[0], who, now);
    if (memcmp(who->src, who->dst, 16)) /* the same host is one bit */
        apply_one(t, b, TRACK_IP_DST, ids[0], who, now);
}

/* ---- flowint ---- */

static int64_t *var(struct det_flow *df, uint32_t nints, uint32_t id, bool create)
{
    if (!df->ints) {
        if (!create)
            return NULL;
        df->ints = calloc(nints, sizeof *df->ints);
        df->intset = calloc((nints + 7) / 8, 1);
        if (!df->ints || !df->intset) {
            free(df->ints);
            free(df->intset);
            df->ints = NULL;
            df->intset = NULL;
            return NULL; /* out of memory: the variable stays unset */
        }
    }
    if (!create && !(df->intset[id / 8] & (1u << (id % 8))))
        return NULL;
    df->intset[id / 8] |= (uint8_t)(1u << (id % 8));
    return &df->ints[id];
}

bool det_flowint_find(const struct osprey_detect *d, const char *name, uint32_t *id)
{
    for (uint32_t k = 0; k < d->nint_names; k++)
        if (!strcmp(d->int_names[k], name))
            return *id = k, true;
    return false;
}

bool det_flowint_get(struct det_flow *df, uint32_t id, int64_t *out)
{
    int64_t *v = var(df, df->w->d->nint_names, id, false);
    if (v)
        *out = *v;
    return v != NULL;
}

bool det_flowint_set(struct det_flow *df, uint32_t id, int64_t x)
{
    int64_t *v = var(df, df->w->d->nint_names, id, true);
    if (v)
        *v = x;
    return v != NULL;
}

bool det_flowint_run(const struct det_flowint *fi, struct det_flow *df, uint32_t nints)
{
    const struct opt_flowint *o = fi->arg;
    int64_t x = o->value;
    if (o->value_var) { /* the value of another variable */
        int64_t *v = var(df, nints, fi->value_id, false);
        if (!v)
            return false;
        x = *v;
    }
    /* the parser keeps three letters: "iss" isset, "not" notset, "isn" isnotset */
    if (!strcmp(o->op, "iss") || !strcmp(o->op, "not") || !strcmp(o->op, "isn")) {
        bool set = var(df, nints, fi->id, false) != NULL;
        return !strcmp(o->op, "iss") ? set : !set;
    }
    if (!strcmp(o->op, "=") || !strcmp(o->op, "+") || !strcmp(o->op, "-")) {
        int64_t *v = var(df, nints, fi->id, true);
        if (!v)
            return true;
        /* an unset variable counts from 0 */
        *v = o->op[0] == '=' ? x : o->op[0] == '+' ? *v + x : *v - x;
        return true;
    }
    int64_t *v = var(df, nints, fi->id, false);
    if (!v)
        return false; /* a comparison on an unset variable does not hold */
    if (!strcmp(o->op, "=="))
        return *v == x;
    if (!strcmp(o->op, "!="))
        return *v != x;
    if (!strcmp(o->op, "<"))
        return *v < x;
    if (!strcmp(o->op, ">"))
        return *v > x;
    if (!strcmp(o->op, "<="))
        return *v <= x;
    return *v >= x;
}
