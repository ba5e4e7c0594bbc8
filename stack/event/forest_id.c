/* forest_id.c — the identity of an (event, hook, handler, arg) pair.
 *
 * mOS §4.2: a forest's id is the XOR of h(pair) over its pairs, so adding or removing one
 * pair gives the new id in O(1) (new = old ^ h(pair)) and order of registration does not
 * matter. h here is two SipHash-2-4 runs with independent keys: a 128-bit id, so two distinct
 * sets a context ever holds colliding is out of reach (~2^-128 per pair of sets; the table
 * also checks the pair count). The hook is part of the pair: the same handler on the same
 * event at the sender and at the receiver are two registrations. */
#include <string.h>

#include "event_internal.h"
#include "siphash_internal.h"

/* Fixed keys: pairs come from the application, not from traffic (nothing to flood), and a
 * fixed key keeps forest ids identical from run to run, which helps when debugging. */
static const uint64_t key_a[2] = {0x0123456789abcdefULL, 0xfedcba9876543210ULL};
static const uint64_t key_b[2] = {0x5bd1e9955bd1e995ULL, 0xc6a4a7935bd1e995ULL};

struct ev_id ev_pair_id(const struct ev_pair *p)
{
    /* Serialised field by field: struct padding must not reach the hash. */
    unsigned char buf[sizeof p->ev + 1 + sizeof p->handler + sizeof p->arg];
    size_t o = 0;
    memcpy(buf + o, &p->ev, sizeof p->ev);
    o += sizeof p->ev;
    buf[o++] = p->hook;
    memcpy(buf + o, &p->handler, sizeof p->handler);  /* object bytes of the pointer */
    o += sizeof p->handler;
    memcpy(buf + o, &p->arg, sizeof p->arg);
    o += sizeof p->arg;
    return (struct ev_id){mon_siphash24(key_a, buf, o), mon_siphash24(key_b, buf, o)};
}

bool ev_pair_eq(const struct ev_pair *x, const struct ev_pair *y)
{
    return x->ev == y->ev && x->hook == y->hook && x->handler == y->handler && x->arg == y->arg;
}
