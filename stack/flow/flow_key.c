/* flow_key.c — a packet's flow key and its symmetric keyed hash. */
#include <string.h>

#include "flow_internal.h"
#include "siphash_internal.h"

/* ICMP query/response pairs carry an identifier that both directions share; keying those
 * on (id, id) puts an echo request and its reply in one flow. Other ICMP messages are keyed
 * on their type and code. */
static bool icmp_is_query(uint8_t ipver, uint8_t type)
{
    if (ipver == 4)
        return type == 0 || type == 8 || type == 13 || type == 14 || type == 15 || type == 16 ||
               type == 17 || type == 18;
    return type == 128 || type == 129;
}

bool flow_key_from_packet(const struct mon_packet *p, struct flow_key *k)
{
    if (p->ipver != 4 && p->ipver != 6)
        return false;
    k->src = p->src;
    k->dst = p->dst;
    k->proto = p->proto;
    k->ipver = p->ipver;
    k->sport = k->dport = 0;
    switch (p->proto) {
    case 6:   /* TCP */
    case 17:  /* UDP */
    case 132: /* SCTP */
        if (!(p->flags & MON_PKT_HAS_L4))
            return false;
        k->sport = p->sport;
        k->dport = p->dport;
        break;
    case 1:
    case 58:
        if (!(p->flags & MON_PKT_HAS_L4))
            return false;
        if (icmp_is_query(p->ipver, p->icmp_type)) {
            k->sport = k->dport = p->icmp_id;
        } else {
            k->sport = k->dport = (uint16_t)(p->icmp_type << 8 | p->icmp_code);
        }
        break;
    default:
        if (p->flags & MON_PKT_FRAGMENT)
            return false; /* a fragment not reassembled has no transport to key on */
        break;
    }
    return true;
}

/* Order the two endpoints so both directions produce the same bytes to hash. */
static int endpoint_cmp(const struct mon_addr *a, uint16_t pa, const struct mon_addr *b, uint16_t pb)
{
    int c = memcmp(a->b, b->b, sizeof a->b);
    if (c)
        return c;
    return (int)pa - (int)pb;
}

/* The endpoints in order, then protocol and version, packed and hashed; al: the address
 * length (inlined with a constant, so each copy is a fixed-size one). */
static inline uint32_t hash_packed(const struct mon_flow_table *t, const struct flow_key *k,
                                   size_t al)
{
    bool fwd = endpoint_cmp(&k->src, k->sport, &k->dst, k->dport) <= 0;
    uint16_t ports[2] = {fwd ? k->sport : k->dport, fwd ? k->dport : k->sport};
    uint8_t canon[2 * 16 + sizeof ports + 2];
    memcpy(canon, (fwd ? &k->src : &k->dst)->b, al);
    memcpy(canon + al, (fwd ? &k->dst : &k->src)->b, al);
    memcpy(canon + 2 * al, ports, sizeof ports);
    canon[2 * al + sizeof ports] = k->proto;
    canon[2 * al + sizeof ports + 1] = k->ipver;
    return (uint32_t)mon_siphash13(t->seed, canon, 2 * al + sizeof ports + 2);
}

/* An IPv4 address is the first 4 of its 16 bytes (the rest are zero): its key is 14 bytes,
 * not 38, a third fewer SipHash rounds, once per packet. */
uint32_t flow_key_hash(const struct mon_flow_table *t, const struct flow_key *k)
{
    return k->ipver == 4 ? hash_packed(t, k, 4) : hash_packed(t, k, 16);
}

int flow_key_match(const struct mon_flow *f, const struct flow_key *k)
{
    if (f->proto != k->proto || f->ipver != k->ipver)
        return -1;
    if (f->cport == k->sport && f->sport == k->dport &&
        !memcmp(f->cli.b, k->src.b, 16) && !memcmp(f->srv.b, k->dst.b, 16))
        return MON_FLOW_TO_SERVER;
    if (f->cport == k->dport && f->sport == k->sport &&
        !memcmp(f->cli.b, k->dst.b, 16) && !memcmp(f->srv.b, k->src.b, 16))
        return MON_FLOW_TO_CLIENT;
    return -1;
}

uint32_t mon_flow_hash_packet(const struct mon_flow_table *t, const struct mon_packet *p)
{
    struct flow_key k;
    if (!flow_key_from_packet(p, &k))
        return 0;
    return flow_key_hash(t, &k);
}
