/* test_verdict.c — the per-packet verdict inline mode reads (osprey_detect_packet_dropped,
 * osprey_detect_packet_reject) and the action carried by alerts, on hand-built frames. */
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "mon.h"
#include "osprey_detect.h"
#include "osprey_rules.h"
#include "unit.h"

#define A 0x0a000001u
#define B 0x0a000002u

struct seen {
    uint32_t sid[16];
    enum osprey_rule_action action[16];
    int n;
};

static void on_alert(const struct osprey_alert *a, void *arg)
{
    struct seen *s = arg;
    if (s->n < 16) {
        s->sid[s->n] = a->rule->sid;
        s->action[s->n] = a->action;
    }
    s->n++;
}

struct rig {
    struct osprey_ruleset *rs;
    struct mon_engine *eng;
    struct osprey_detect *d;
    struct mon_ctx *ctx;
    struct osprey_detect_worker *w;
    struct seen seen;
    uint64_t num;
};

static void flow_end(struct mon_flow *f, void *arg)
{
    osprey_detect_flow_end(arg, f);
}

static int rig_open_cfg(struct rig *r, const char *rules, bool midstream)
{
    memset(r, 0, sizeof *r);
    struct osprey_rules_options o = {.classification_file = "", .reference_file = "",
                                     .threshold_file = ""};
    if (osprey_ruleset_create(&r->rs, NULL, &o) ||
        osprey_ruleset_add_text(r->rs, "t.rules", rules, strlen(rules)))
        return -1;
    struct mon_engine_cfg cfg;
    mon_engine_cfg_defaults(&cfg);
    cfg.decode.checksum_mode = MON_CSUM_NONE;
    cfg.tcp.midstream = midstream;
    if (!(r->eng = mon_engine_create(&cfg)) || osprey_detect_build(&r->d, r->eng, r->rs, stderr))
        return -1;
    mon_engine_freeze(r->eng);
    if (!(r->ctx = mon_ctx_create(r->eng, 0)) ||
        !(r->w = osprey_detect_attach(r->d, r->ctx, on_alert, &r->seen)))
        return -1;
    mon_set_flow_end_cb(r->ctx, flow_end, r->w);
    return 0;
}

static int rig_open(struct rig *r, const char *rules)
{
    return rig_open_cfg(r, rules, false);
}

static void rig_close(struct rig *r)
{
    mon_ctx_destroy(r->ctx);
    osprey_detect_worker_free(r->w);
    osprey_detect_free(r->d);
    mon_engine_destroy(r->eng);
    osprey_ruleset_free(r->rs);
}

static void udp(struct rig *r, uint16_t sport, const char *payload)
{
    struct test_frame t;
    struct mon_packet *p = tf_build(&t, A, sport, B, 53, 17, 0, 0, 0, payload, 1000 + r->num);
    p->num = ++r->num;
    mon_process(r->ctx, p);
}

static void tcp(struct rig *r, uint16_t sport, uint8_t flags, uint32_t seq, const char *payload)
{
    struct test_frame t;
    struct mon_packet *p = tf_build(&t, A, sport, B, 80, 6, flags, seq, 9000, payload,
                                    1000 + r->num);
    p->num = ++r->num;
    mon_process(r->ctx, p);
}

static void test_drop_and_flow(void)
{
    struct rig r;
    CHECK(rig_open(&r, "drop udp any any -> any any (content:\"bad\"; sid:1;)\n"
                       "drop udp any 3000 -> any any (sid:2;)\n") == 0);
    udp(&r, 1000, "fine");
    CHECK(!osprey_detect_packet_dropped(r.w));
    udp(&r, 1000, "bad");
    CHECK(osprey_detect_packet_dropped(r.w));
    CHECK(osprey_detect_packet_reject(r.w, NULL) == OSPREY_REJECT_NONE);
    CHECK_EQ_U(r.seen.n, 1);
    CHECK(r.seen.action[0] == OSPREY_ACTION_DROP);
    /* a packet rule drops its packet only (Suricata's action scope): the flow goes on */
    udp(&r, 1000, "fine again");
    CHECK(!osprey_detect_packet_dropped(r.w));
    udp(&r, 1000, "bad again");
    CHECK(osprey_detect_packet_dropped(r.w));
    CHECK_EQ_U(r.seen.n, 2);
    /* a rule with nothing but its header (IP-only) drops the flow: its next packets too,
     * without further inspection */
    udp(&r, 3000, "first");
    CHECK(osprey_detect_packet_dropped(r.w));
    CHECK_EQ_U(r.seen.n, 3);
    udp(&r, 3000, "bad");
    CHECK(osprey_detect_packet_dropped(r.w));
    CHECK_EQ_U(r.seen.n, 3);
    /* another flow is not */
    udp(&r, 2000, "fine");
    CHECK(!osprey_detect_packet_dropped(r.w));
    const struct osprey_detect_verdicts *v = osprey_detect_worker_verdicts(r.w);
    CHECK_EQ_U(v->dropped, 4);
    CHECK_EQ_U(v->dropped_flow, 1);
    rig_close(&r);
}

static void test_sdrop_and_reject(void)
{
    struct rig r;
    CHECK(rig_open(&r, "sdrop udp any any -> any any (content:\"quiet\"; sid:1;)\n"
                       "reject udp any 1001 -> any any (sid:2;)\n"
                       "rejectboth tcp any any -> any any (flags:S; sid:3;)\n"
                       "rejectdst udp any any -> any any (content:\"there\"; sid:4;)\n") == 0);
    udp(&r, 1000, "quiet");
    CHECK(osprey_detect_packet_dropped(r.w));
    CHECK_EQ_U(r.seen.n, 0); /* sdrop: dropped, never alerted */
    udp(&r, 1001, "loud");
    enum osprey_reject_to to = OSPREY_REJECT_TO_DST;
    CHECK(osprey_detect_packet_dropped(r.w));
    CHECK(osprey_detect_packet_reject(r.w, &to) == OSPREY_REJECT_ICMP);
    CHECK(to == OSPREY_REJECT_TO_SRC);
    CHECK_EQ_U(r.seen.n, 1);
    CHECK(r.seen.action[0] == OSPREY_ACTION_REJECT);
    /* the flow's next packet is dropped but gets no second reject */
    udp(&r, 1001, "more");
    CHECK(osprey_detect_packet_dropped(r.w));
    CHECK(osprey_detect_packet_reject(r.w, NULL) == OSPREY_REJECT_NONE);
    udp(&r, 1002, "there");
    CHECK(osprey_detect_packet_reject(r.w, &to) == OSPREY_REJECT_ICMP);
    CHECK(to == OSPREY_REJECT_TO_DST);
    struct test_frame t;
    struct mon_packet *p = tf_build(&t, A, 3000, B, 80, 6, 0x02, 100, 0, NULL, 5000);
    p->num = ++r.num;
    mon_process(r.ctx, p);
    CHECK(osprey_detect_packet_reject(r.w, &to) == OSPREY_REJECT_RST);
    CHECK(to == OSPREY_REJECT_TO_BOTH);
    CHECK_EQ_U(r.seen.n, 3);
    CHECK_EQ_U(r.seen.sid[2], 3);
    rig_close(&r);
}

/* pass goes first (action-order pass, drop, reject, alert): the drop does not happen */
static void test_pass_beats_drop_on_the_same_packet(void)
{
    struct rig r;
    CHECK(rig_open(&r, "drop udp any any -> any any (content:\"x\"; sid:1;)\n"
                       "pass udp any any -> any any (content:\"x\"; sid:2;)\n") == 0);
    udp(&r, 1000, "x");
    CHECK(!osprey_detect_packet_dropped(r.w));
    CHECK_EQ_U(r.seen.n, 0);
    /* a UDP packet rule's pass is the packet's (Suricata's action scope), not the flow's */
    CHECK_EQ_U(osprey_detect_worker_verdicts(r.w)->passed_flows, 0);
    rig_close(&r);
    /* a pass rule with nothing but its header (IP-only) passes the flow */
    CHECK(rig_open(&r, "drop udp any any -> any any (content:\"x\"; sid:1;)\n"
                       "pass udp any any -> any any (sid:2;)\n") == 0);
    udp(&r, 1000, "x");
    CHECK(!osprey_detect_packet_dropped(r.w));
    CHECK_EQ_U(osprey_detect_worker_verdicts(r.w)->passed_flows, 1);
    rig_close(&r);
}

enum { SYN = 0x02, RST = 0x04, PSH_ACK = 0x18 };

/* stream.midstream-policy as the engine resolves it (struct osprey_detect_policy) */
static void test_midstream_policy(void)
{
    struct rig r;
    CHECK(rig_open(&r, "alert udp any any -> any any (sid:1;)\n") == 0);
    tcp(&r, 4000, PSH_ACK, 100, "mid"); /* default, ignore: no SYN seen, nothing dropped */
    CHECK(!osprey_detect_packet_dropped(r.w));
    /* drop-flow: a TCP flow that never started is dropped, packet after packet */
    struct osprey_detect_policy pol = {.midstream = OSPREY_MIDSTREAM_DROP_FLOW};
    osprey_detect_worker_set_policy(r.w, &pol);
    tcp(&r, 4000, PSH_ACK, 103, "more");
    CHECK(osprey_detect_packet_dropped(r.w));
    CHECK(osprey_detect_packet_reject(r.w, NULL) == OSPREY_REJECT_NONE);
    /* reject: its first packet is rejected too, not the next; a RST starts nothing */
    pol.midstream = OSPREY_MIDSTREAM_REJECT;
    osprey_detect_worker_set_policy(r.w, &pol);
    enum osprey_reject_to to = OSPREY_REJECT_TO_DST;
    tcp(&r, 4001, PSH_ACK, 100, "mid");
    CHECK(osprey_detect_packet_dropped(r.w));
    CHECK(osprey_detect_packet_reject(r.w, &to) == OSPREY_REJECT_RST && to == OSPREY_REJECT_TO_SRC);
    tcp(&r, 4001, PSH_ACK, 103, "more");
    CHECK(osprey_detect_packet_dropped(r.w));
    CHECK(osprey_detect_packet_reject(r.w, NULL) == OSPREY_REJECT_NONE);
    tcp(&r, 4001, RST, 106, NULL);
    CHECK(!osprey_detect_packet_dropped(r.w));
    /* a connection that starts with its SYN is not concerned */
    tcp(&r, 4002, SYN, 100, NULL);
    CHECK(!osprey_detect_packet_dropped(r.w));
    CHECK_EQ_U(osprey_detect_worker_verdicts(r.w)->midstream_dropped, 3);
    CHECK_EQ_U(osprey_detect_worker_verdicts(r.w)->rejected, 1);
    rig_close(&r);

    /* pass-flow, midstream on: a session picked up midstream is tracked, never inspected */
    CHECK(rig_open_cfg(&r, "alert tcp any any -> any any (sid:5;)\n", true) == 0);
    pol.midstream = OSPREY_MIDSTREAM_PASS_FLOW;
    osprey_detect_worker_set_policy(r.w, &pol);
    tcp(&r, 4000, PSH_ACK, 100, "mid");
    tcp(&r, 4000, PSH_ACK, 103, "more");
    CHECK_EQ_U(r.seen.n, 0);
    tcp(&r, 4001, SYN, 100, NULL); /* one seen from its handshake is inspected */
    CHECK_EQ_U(r.seen.n, 1);
    CHECK_EQ_U(osprey_detect_worker_verdicts(r.w)->midstream_passed, 1);
    rig_close(&r);
}

/* An IPv4 fragment of a 40-byte UDP datagram (header + 32 bytes): bytes [off, off + len) of
 * it, MF when more. */
static void frag(struct rig *r, uint16_t off, uint16_t len, bool more)
{
    struct test_frame whole, t;
    tf_build(&whole, A, 1000, B, 53, 17, 0, 0, 0, "0123456789abcdefghijklmnopqrstuv", 1000);
    struct mon_packet *p = tf_build(&t, A, 1000, B, 53, 17, 0, 0, 0, NULL, 1000 + r->num);
    uint8_t *ip = t.b + 14;
    tf_put16(ip + 2, (uint16_t)(20 + len));
    tf_put16(ip + 4, 77);                                          /* id */
    tf_put16(ip + 6, (uint16_t)((more ? 0x2000 : 0) | off / 8));
    memcpy(ip + 20, whole.b + 14 + 20 + off, len);
    p->caplen = p->wirelen = 14u + 20u + len;
    p->num = ++r->num;
    mon_process(r->ctx, p);
}

/* A decoder-event drop decides under DECODE_EVENT, before the packet's PKT_IN: the verdict
 * stays for the packet, with a flow (the fragment that completes a datagram) or without one
 * (a truncated packet); the next packet starts clean. */
static void test_decoder_event_drop(void)
{
    struct rig r;
    CHECK(rig_open(&r, "drop pkthdr any any -> any any (decode-event:ipv4.frag_overlap; sid:1;)\n"
                       "drop pkthdr any any -> any any (decode-event:ipv4.trunc_pkt; sid:2;)\n"
                       "alert udp any any -> any any (content:\"0123\"; sid:3;)\n") == 0);
    frag(&r, 0, 24, true);
    CHECK(!osprey_detect_packet_dropped(r.w));
    frag(&r, 16, 24, false); /* overlaps bytes 16..23 and completes the datagram */
    CHECK(osprey_detect_packet_dropped(r.w));
    CHECK_EQ_U(r.seen.n, 2);
    CHECK_EQ_U(r.seen.sid[0], 1);
    CHECK_EQ_U(r.seen.sid[1], 3); /* the datagram's own rules ran too */
    struct test_frame t;
    struct mon_packet *p = tf_build(&t, A, 2000, B, 53, 17, 0, 0, 0, "short", 9000);
    tf_put16(t.b + 14 + 2, 200); /* the IPv4 total length says more than was captured */
    p->num = ++r.num;
    mon_process(r.ctx, p);
    CHECK(osprey_detect_packet_dropped(r.w));
    CHECK_EQ_U(r.seen.n, 3);
    CHECK_EQ_U(r.seen.sid[2], 2);
    udp(&r, 3000, "fine");
    CHECK(!osprey_detect_packet_dropped(r.w));
    rig_close(&r);
}

int main(void)
{
    test_decoder_event_drop();
    test_drop_and_flow();
    test_sdrop_and_reject();
    test_pass_beats_drop_on_the_same_packet();
    test_midstream_policy();
    return unit_report("test_verdict");
}
