/* test_flow.c — flow table: symmetric keyed hash, direction, timeouts, memcap eviction. */
#include <stdlib.h>
#include <string.h>

#include "flow_internal.h" /* the slot count, read in test_slots_churn (no internal call) */
#include "mon_flow.h"
#include "unit.h"

static struct mon_packet mk(uint32_t src, uint16_t sport, uint32_t dst, uint16_t dport,
                            uint8_t proto, uint8_t flags, uint64_t ts_us)
{
    struct mon_packet p;
    memset(&p, 0, sizeof p);
    p.ipver = 4;
    p.proto = proto;
    for (int i = 0; i < 4; i++) {
        p.src.b[i] = (uint8_t)(src >> (24 - 8 * i));
        p.dst.b[i] = (uint8_t)(dst >> (24 - 8 * i));
    }
    p.sport = sport;
    p.dport = dport;
    p.tcp_flags = flags;
    p.flags = MON_PKT_HAS_L4;
    p.ts_us = ts_us;
    p.caplen = 100;
    return p;
}

struct ended {
    int n;
    uint64_t ids[64];
    uint8_t why[64];
};

static void on_end(struct mon_flow *f, void *arg)
{
    struct ended *e = arg;
    if (e->n < 64) {
        e->ids[e->n] = f->id;
        e->why[e->n] = f->end;
    }
    e->n++;
}

static void test_hash_symmetry(void)
{
    struct mon_flow_cfg cfg;
    mon_flow_cfg_defaults(&cfg);
    struct mon_flow_table *t = mon_flow_table_create(&cfg, NULL, NULL);
    srand(7);
    for (int i = 0; i < 10000; i++) {
        uint32_t a = (uint32_t)rand(), b = (uint32_t)rand();
        uint16_t pa = (uint16_t)rand(), pb = (uint16_t)rand();
        struct mon_packet x = mk(a, pa, b, pb, 6, 0, 0), y = mk(b, pb, a, pa, 6, 0, 0);
        CHECK_EQ_U(mon_flow_hash_packet(t, &x), mon_flow_hash_packet(t, &y));
    }
    /* swapping only ports (or only addresses) must be another flow */
    struct mon_packet x = mk(1, 10, 2, 20, 17, 0, 0), y = mk(1, 20, 2, 10, 17, 0, 0);
    CHECK(mon_flow_hash_packet(t, &x) != mon_flow_hash_packet(t, &y));
    mon_flow_table_destroy(t);
}

static void test_keyed(void)
{
    /* two tables with different seeds hash the same key differently */
    struct mon_flow_cfg cfg;
    mon_flow_cfg_defaults(&cfg);
    cfg.hash_seed = 1;
    struct mon_flow_table *t1 = mon_flow_table_create(&cfg, NULL, NULL);
    cfg.hash_seed = 2;
    struct mon_flow_table *t2 = mon_flow_table_create(&cfg, NULL, NULL);
    int same = 0;
    for (uint32_t i = 0; i < 100; i++) {
        struct mon_packet x = mk(i, 1000, 0x0a000001, 80, 6, 0, 0);
        same += mon_flow_hash_packet(t1, &x) == mon_flow_hash_packet(t2, &x);
    }
    CHECK(same < 3);
    mon_flow_table_destroy(t1);
    mon_flow_table_destroy(t2);
}

static void test_direction(void)
{
    struct mon_flow_cfg cfg;
    mon_flow_cfg_defaults(&cfg);
    struct mon_flow_table *t = mon_flow_table_create(&cfg, NULL, NULL);
    int dir;
    struct mon_packet syn = mk(0x0a000001, 40000, 0x0a000002, 80, 6, 0x02, 1);
    struct mon_packet synack = mk(0x0a000002, 80, 0x0a000001, 40000, 6, 0x12, 2);
    struct mon_flow *f = mon_flow_handle(t, &syn, &dir);
    CHECK(f && dir == MON_FLOW_TO_SERVER);
    struct mon_flow *g = mon_flow_handle(t, &synack, &dir);
    CHECK(g == f && dir == MON_FLOW_TO_CLIENT);
    CHECK_EQ_U(f->cport, 40000);
    CHECK_EQ_U(f->pkts[0], 1);
    CHECK_EQ_U(f->pkts[1], 1);
    /* a flow first seen by its SYN+ACK: the sender is the server */
    struct mon_packet sa2 = mk(0x0a000009, 443, 0x0a000001, 50000, 6, 0x12, 3);
    f = mon_flow_handle(t, &sa2, &dir);
    CHECK(f && dir == MON_FLOW_TO_CLIENT && f->cport == 50000 && f->sport == 443);
    CHECK_EQ_U(mon_flow_stats(t)->active, 2);
    mon_flow_table_destroy(t);
}

/* the orientation callback: asked only for a new TCP flow's data segment without SYN/RST */
static bool sender_is_server(const struct mon_packet *p, void *arg)
{
    int *asked = arg;
    (*asked)++;
    return p->sport == 8080;
}

static void test_orientation_callback(void)
{
    struct mon_flow_cfg cfg;
    mon_flow_cfg_defaults(&cfg);
    struct mon_flow_table *t = mon_flow_table_create(&cfg, NULL, NULL);
    int asked = 0, dir;
    mon_flow_set_orient_cb(t, sender_is_server, &asked);
    static const uint8_t data[4] = "HTTP";
    struct mon_packet resp = mk(0x0a000002, 8080, 0x0a000001, 51297, 6, 0x18, 1);
    resp.payload = data;
    resp.payload_len = sizeof data;
    struct mon_flow *f = mon_flow_handle(t, &resp, &dir);
    CHECK(f && dir == MON_FLOW_TO_CLIENT && f->cport == 51297 && f->sport == 8080);
    CHECK_EQ_U(asked, 1);
    /* the flow's next packets are not asked about; nor a new flow's SYN or empty ACK */
    struct mon_packet ack = mk(0x0a000001, 51297, 0x0a000002, 8080, 6, 0x10, 2);
    CHECK(mon_flow_handle(t, &ack, &dir) == f && dir == MON_FLOW_TO_SERVER);
    struct mon_packet syn = mk(0x0a000002, 8080, 0x0a000003, 1, 6, 0x02, 3);
    f = mon_flow_handle(t, &syn, &dir);
    CHECK(f && dir == MON_FLOW_TO_SERVER && f->cport == 8080);
    struct mon_packet ack2 = mk(0x0a000002, 8080, 0x0a000004, 1, 6, 0x10, 4);
    f = mon_flow_handle(t, &ack2, &dir);
    CHECK(f && dir == MON_FLOW_TO_SERVER);
    CHECK_EQ_U(asked, 1);
    mon_flow_table_destroy(t);
}

static void test_timeouts(void)
{
    struct mon_flow_cfg cfg;
    mon_flow_cfg_defaults(&cfg);
    struct ended e = {0};
    struct mon_flow_table *t = mon_flow_table_create(&cfg, on_end, &e);
    int dir;
    const uint64_t s = 1000000;
    struct mon_packet u1 = mk(1, 53, 2, 5353, 17, 0, 0);       /* udp new: 30 s */
    struct mon_packet t1 = mk(3, 1234, 4, 80, 6, 0x02, 0);    /* tcp new: 60 s */
    mon_flow_handle(t, &u1, &dir);
    mon_flow_handle(t, &t1, &dir);
    mon_flow_expire(t, 29 * s);
    CHECK_EQ_U(e.n, 0);
    mon_flow_expire(t, 30 * s);
    CHECK_EQ_U(e.n, 1);
    CHECK_EQ_U(e.why[0], MON_FLOW_END_TIMEOUT);
    /* activity pushes the deadline: the tcp flow sees a packet at 50 s */
    struct mon_packet t2 = mk(3, 1234, 4, 80, 6, 0x10, 50 * s);
    mon_flow_handle(t, &t2, &dir);
    mon_flow_expire(t, 100 * s);
    CHECK_EQ_U(e.n, 1);
    mon_flow_expire(t, 110 * s);
    CHECK_EQ_U(e.n, 2);
    CHECK_EQ_U(mon_flow_stats(t)->active, 0);
    mon_flow_table_destroy(t);
}

/* Time that jumps back (captures appended one after another): flows of the later segment
 * still time out on the table's clock, and a flow of the first segment whose last packet
 * lies "in the future" of the second does not hold them back. */
static void test_clock_jumps_back(void)
{
    struct mon_flow_cfg cfg;
    mon_flow_cfg_defaults(&cfg);
    struct ended e = {0};
    struct mon_flow_table *t = mon_flow_table_create(&cfg, on_end, &e);
    int dir;
    const uint64_t s = 1000000;
    struct mon_packet a = mk(1, 53, 2, 5353, 17, 0, 1000 * s); /* first segment, t=1000 s */
    mon_flow_handle(t, &a, &dir);
    CHECK_EQ_U(mon_flow_clock(t, 1000 * s), 1000 * s); /* forward: the packet time */
    struct mon_packet b = mk(3, 53, 4, 5353, 17, 0, 10 * s); /* back to 10 s: a new segment */
    mon_flow_handle(t, &b, &dir);
    CHECK_EQ_U(mon_flow_clock(t, 10 * s), 1000 * s);          /* continues from 1000 s */
    struct mon_packet c = mk(5, 53, 6, 5353, 17, 0, 25 * s); /* clock 1015 s */
    mon_flow_handle(t, &c, &dir);
    mon_flow_expire(t, 39 * s); /* clock 1029 s: nothing idle for 30 s yet */
    CHECK_EQ_U(e.n, 0);
    mon_flow_expire(t, 41 * s); /* clock 1031 s: the first two (idle since 1000 s) */
    CHECK_EQ_U(e.n, 2);
    mon_flow_expire(t, 55 * s); /* clock 1045 s: the third (idle since 1015 s) */
    CHECK_EQ_U(e.n, 3);
    /* small disorder (a packet 2 s late) does not move the clock back or forward */
    CHECK_EQ_U(mon_flow_clock(t, 53 * s), 1045 * s);
    CHECK_EQ_U(mon_flow_clock(t, 56 * s), 1046 * s);
    CHECK_EQ_U(mon_flow_stats(t)->active, 0);
    mon_flow_table_destroy(t);
    /* one packet stamped years back between packets of a conversation: the clock returns
     * to the conversation's time without a leap, and its flow does not time out */
    e.n = 0;
    t = mon_flow_table_create(&cfg, on_end, &e);
    struct mon_packet syn = mk(7, 1000, 8, 443, 6, 0x02, 2000000 * s);
    struct mon_packet odd = mk(8, 443, 7, 1000, 6, 0x12, 100 * s);
    struct mon_packet ack = mk(7, 1000, 8, 443, 6, 0x10, 2000000 * s + 1);
    struct mon_flow *f1 = mon_flow_handle(t, &syn, &dir);
    CHECK(mon_flow_handle(t, &odd, &dir) == f1);
    CHECK(mon_flow_handle(t, &ack, &dir) == f1);
    CHECK_EQ_U(mon_flow_clock(t, 2000000 * s + 1), 2000000 * s + 1);
    CHECK_EQ_U(e.n, 0);
    mon_flow_table_destroy(t);
}

/* The hash gets at least one bucket per two records the memcap allows, whatever hash_size
 * says: a full table (a SYN flood) keeps short chains. */
static void test_buckets_follow_the_memcap(void)
{
    struct mon_flow_cfg cfg;
    mon_flow_cfg_defaults(&cfg);
    cfg.hash_size = 16;
    cfg.prealloc = 0;
    cfg.memcap = 64ull << 20;
    struct mon_flow_table *t = mon_flow_table_create(&cfg, NULL, NULL);
    uint64_t records = mon_flow_stats(t)->max_flows;
    /* memuse at creation: the hash slots (8 bytes each) and the chunk pointers */
    CHECK(mon_flow_stats(t)->memuse >= records / 2 * 4);
    CHECK(records > 100000);
    mon_flow_table_destroy(t);
    cfg.memcap = 1 << 20; /* a small table keeps the configured size when that is larger */
    cfg.hash_size = 65536;
    t = mon_flow_table_create(&cfg, NULL, NULL);
    CHECK(mon_flow_stats(t)->memuse >= 65536 * 4);
    mon_flow_table_destroy(t);
}

static void test_eviction(void)
{
    struct mon_flow_cfg cfg;
    mon_flow_cfg_defaults(&cfg);
    cfg.hash_size = 16;
    cfg.prealloc = 0;
    /* room for the hash slots (8 bytes each, one and a half per record rounded up to a power
     * of two: 8192) and the chunk table plus exactly one chunk of records */
    cfg.memcap = 8192 * 8 + 8 + 4096 * sizeof(struct mon_flow);
    struct ended e = {0};
    struct mon_flow_table *t = mon_flow_table_create(&cfg, on_end, &e);
    CHECK(t != NULL);
    uint64_t cap = mon_flow_stats(t)->max_flows;
    CHECK_EQ_U(cap, 4095);
    int dir;
    for (uint32_t i = 0; i < cap + 10; i++) {
        struct mon_packet p = mk(0x01000000 + i, 1, 0x02000000, 2, 17, 0, i);
        CHECK(mon_flow_handle(t, &p, &dir) != NULL);
    }
    const struct mon_flow_stats *st = mon_flow_stats(t);
    CHECK_EQ_U(st->active, cap);
    CHECK_EQ_U(st->memcap_hits, 10);
    CHECK_EQ_U(st->ended[MON_FLOW_END_EVICTED], 10);
    /* the least recently seen flows went first */
    CHECK_EQ_U(e.n, 10);
    CHECK_EQ_U(e.ids[0], 1);
    CHECK_EQ_U(e.ids[9], 10);
    CHECK(st->memuse <= cfg.memcap);
    mon_flow_flush(t);
    CHECK_EQ_U(st->active, 0);
    CHECK_EQ_U(st->ended[MON_FLOW_END_SHUTDOWN], cap);
    mon_flow_table_destroy(t);
}

static void test_no_l4(void)
{
    struct mon_flow_cfg cfg;
    mon_flow_cfg_defaults(&cfg);
    struct mon_flow_table *t = mon_flow_table_create(&cfg, NULL, NULL);
    struct mon_packet p = mk(1, 1, 2, 2, 6, 0, 0);
    p.flags = MON_PKT_FRAGMENT; /* a TCP fragment without its header */
    int dir;
    CHECK(mon_flow_handle(t, &p, &dir) == NULL);
    CHECK_EQ_U(mon_flow_stats(t)->no_l4, 1);
    mon_flow_table_destroy(t);
}

static void test_expired_flow_restarts(void)
{
    /* no mon_flow_expire call between packets: the lookup itself must notice the timeout */
    struct mon_flow_cfg cfg;
    mon_flow_cfg_defaults(&cfg);
    struct ended e = {0};
    struct mon_flow_table *t = mon_flow_table_create(&cfg, on_end, &e);
    int dir;
    struct mon_packet a = mk(1, 5, 2, 6, 17, 0, 0);
    struct mon_flow *f = mon_flow_handle(t, &a, &dir);
    uint64_t first = f->id;
    struct mon_packet b = mk(1, 5, 2, 6, 17, 0, 31000000);
    f = mon_flow_handle(t, &b, &dir);
    CHECK(f->id != first);
    CHECK_EQ_U(e.n, 1);
    CHECK_EQ_U(e.why[0], MON_FLOW_END_TIMEOUT);
    CHECK_EQ_U(f->pkts[0], 1);
    mon_flow_table_destroy(t);
}

static void test_find_and_end_now(void)
{
    struct mon_flow_cfg cfg;
    mon_flow_cfg_defaults(&cfg);
    struct ended e = {0};
    struct mon_flow_table *t = mon_flow_table_create(&cfg, on_end, &e);
    int dir;
    struct mon_packet a = mk(1, 5, 2, 6, 6, 0x02, 1), back = mk(2, 6, 1, 5, 6, 0x12, 2);
    CHECK(mon_flow_find(t, &a, &dir) == NULL); /* finding never creates */
    struct mon_flow *f = mon_flow_handle(t, &a, &dir);
    CHECK(mon_flow_find(t, &back, &dir) == f && dir == MON_FLOW_TO_CLIENT);
    CHECK_EQ_U(f->pkts[1], 0); /* ... nor accounts */
    mon_flow_end_now(t, f, MON_FLOW_END_EVICTED);
    CHECK_EQ_U(e.n, 1);
    CHECK_EQ_U(e.why[0], MON_FLOW_END_EVICTED);
    CHECK(mon_flow_find(t, &a, &dir) == NULL);
    mon_flow_table_destroy(t);
}

/* Open addressing (flow_table.c): a table of 64 slots with 39 records, keys coming and going
 * (evictions shift slots back across the wrap-around): every live flow is found, every
 * ended one is not. */
static bool live[200];

static void on_end_live(struct mon_flow *f, void *arg)
{
    (void)arg;
    live[f->cli.b[3] | (f->cli.b[2] << 8)] = false;
}

static void test_slots_churn(void)
{
    struct mon_flow_cfg cfg;
    mon_flow_cfg_defaults(&cfg);
    cfg.hash_size = 16;
    cfg.prealloc = 0;
    cfg.hash_seed = 7;
    cfg.memcap = 40 * (sizeof(struct mon_flow) + 12);
    struct mon_flow_table *t = mon_flow_table_create(&cfg, on_end_live, NULL);
    CHECK(t != NULL);
    CHECK_EQ_U(t->slot_mask + 1, 64);
    CHECK_EQ_U(mon_flow_stats(t)->max_flows, 39);
    uint32_t r = 12345;
    int dir, bad = 0;
    for (int step = 0; step < 20000; step++) {
        r = r * 1103515245u + 12345u;
        uint32_t k = (r >> 16) % 200;
        struct mon_packet p = mk(0x0a000000 + k, 1, 0x0b000001, 2, 17, 0, 1000);
        if ((r >> 8) % 5 == 0) {
            struct mon_flow *f = mon_flow_find(t, &p, &dir);
            bad += (f != NULL) != live[k];
            if (f)
                mon_flow_end_now(t, f, MON_FLOW_END_EVICTED);
            bad += live[k]; /* on_end_live saw it go */
            continue;
        }
        CHECK(mon_flow_handle(t, &p, &dir) != NULL);
        live[k] = true;
        if (step % 997 == 0)
            for (uint32_t j = 0; j < 200; j++) {
                struct mon_packet q = mk(0x0a000000 + j, 1, 0x0b000001, 2, 17, 0, 1000);
                bad += (mon_flow_find(t, &q, &dir) != NULL) != live[j];
            }
    }
    CHECK_EQ_U(bad, 0);
    CHECK(mon_flow_stats(t)->memcap_hits > 1000);
    mon_flow_table_destroy(t);
}

/* State kept outside the records (mon_flow_charge) counts against the memcap: over it, new
 * flows evict the least recently seen ones, and no chunk of records is added. */
static void test_charged_state(void)
{
    struct mon_flow_cfg cfg;
    mon_flow_cfg_defaults(&cfg);
    cfg.hash_size = 16;
    cfg.prealloc = 0;
    cfg.memcap = 8192 * 8 + 8 + 2 * 4096 * sizeof(struct mon_flow); /* two chunks */
    struct ended e = {0};
    struct mon_flow_table *t = mon_flow_table_create(&cfg, on_end, &e);
    int dir;
    for (uint32_t i = 0; i < 100; i++) {
        struct mon_packet p = mk(0x01000000 + i, 1, 0x02000000, 2, 17, 0, i);
        CHECK(mon_flow_handle(t, &p, &dir) != NULL);
    }
    const struct mon_flow_stats *st = mon_flow_stats(t);
    CHECK_EQ_U(st->memcap_hits, 0);
    /* the outside state of those 100 flows leaves less than a chunk of room */
    uint64_t room = cfg.memcap - st->memuse;
    mon_flow_charge(t, (int64_t)room - 100);
    CHECK_EQ_U(st->charged, room - 100);
    for (uint32_t i = 100; i < 4200; i++) { /* past the first chunk: no second one comes */
        struct mon_packet p = mk(0x01000000 + i, 1, 0x02000000, 2, 17, 0, i);
        CHECK(mon_flow_handle(t, &p, &dir) != NULL);
    }
    CHECK(st->memuse + st->charged <= cfg.memcap);
    CHECK(st->memcap_hits > 0);
    CHECK_EQ_U(st->charge_evictions, 0); /* under the memcap: records were just reused */
    /* over the memcap: each new flow evicts (up to four) until it fits again */
    mon_flow_charge(t, 200);
    int before = e.n;
    struct mon_packet p = mk(0x05000000, 1, 0x02000000, 2, 17, 0, 9999);
    CHECK(mon_flow_handle(t, &p, &dir) != NULL);
    CHECK_EQ_U(st->charge_evictions, 4);
    CHECK_EQ_U(e.n - before, 4);
    mon_flow_charge(t, -(int64_t)st->charged - 5); /* a refund too large: clamped */
    CHECK_EQ_U(st->charged, 0);
    CHECK_EQ_U(st->charged_peak, room + 100);
    mon_flow_table_destroy(t);
}

int main(void)
{
    test_find_and_end_now();
    test_expired_flow_restarts();
    test_hash_symmetry();
    test_keyed();
    test_direction();
    test_orientation_callback();
    test_timeouts();
    test_clock_jumps_back();
    test_buckets_follow_the_memcap();
    test_eviction();
    test_slots_churn();
    test_charged_state();
    test_no_l4();
    return unit_report("test_flow");
}
