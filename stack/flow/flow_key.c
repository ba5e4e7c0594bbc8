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

uint32_t flow_key_hash(const struct mon_flow_table *t, const struct flow_key *k)
{
    if (k->ipver == 4) {
        /* an IPv4 address is the first 4 of its 16 bytes (the rest are zero): hashing 14
         * bytes instead of 38 takes a third fewer rounds (the hash is once per packet) */
        struct {
            uint8_t lo[4], hi[4];
            uint16_t plo, phi;
            uint8_t proto, ipver;
        } c4;
        bool fwd = endpoint_cmp(&k->src, k->sport, &k->dst, k->dport) <= 0;
        memcpy(c4.lo, (fwd ? &k->src : &k->dst)->b, 4);
        memcpy(c4.hi, (fwd ? &k->dst : &k->src)->b, 4);
        c4.plo = fwd ? k->sport : k->dport;
        c4.phi = fwd ? k->dport : k->sport;
        c4.proto = k->proto;
        c4.ipver = 4;
        _Static_assert(sizeof c4 == 14, "no padding in the IPv4 key");
        return (uint32_t)mon_siphash13(t->seed, &c4, sizeof c4);
    }
    struct {
        uint8_t lo[16], hi[16];
        uint16_t plo, phi;
        uint8_t proto, ipver;
    } canon;
    memset(&canon, 0, sizeof canon);
    if (endpoint_cmp(&k->src, k->sport, &k->dst, k->dport) <= 0) {
        memcpy(canon.lo, k->src.b, 16);
        memcpy(canon.hi, k->dst.b, 16);
        canon.plo = k->sport;
        canon.phi = k->dport;
    } else {
        memcpy(canon.lo, k->dst.b, 16);
        memcpy(canon.hi, k->src.b, 16);
        canon.plo = k->dport;
        canon.phi = k->sport;
    }
    canon.proto = k->proto;
    canon.ipver = k->ipver;
    return (uint32_t)mon_siphash13(t->seed, &canon, sizeof canon);
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
