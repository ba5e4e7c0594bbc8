/* test_explain.c — osprey_detect_explain and the trace of a build that explains a rule
 * (explain.c, explain_trace.c), on hand-built UDP frames: the report of a compiled rule, the
 * failed step and the commit's outcome per packet, and that explaining defines the same UDEs
 * (the wrappers change no sharing). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "mon.h"
#include "osprey_detect.h"
#include "osprey_rules.h"
#include "unit.h"

/* Strings equal, else both are shown (unit.h compares numbers only). */
#define CHECK_EQ_S(a, b)                                                                      \
    do {                                                                                      \
        const char *sa_ = (a), *sb_ = (b);                                                    \
        CHECK(!strcmp(sa_, sb_));                                                             \
        if (strcmp(sa_, sb_))                                                                 \
            fprintf(stderr, "  got:  [%s]\n  want: [%s]\n", sa_, sb_);                       \
    } while (0)

#define A 0x0a000001u
#define B 0x0a000002u

static const char RULES[] =
    "alert udp any any -> any 53 (msg:\"two\"; content:\"abc\"; content:\"xyz\"; distance:0; "
    "sid:5; rev:2;)\n"
    "alert udp any any -> any 53 (msg:\"other\"; content:\"abc\"; sid:6;)\n";

struct rig {
    struct osprey_ruleset *rs;
    struct mon_engine *eng;
    struct osprey_detect *d;
    struct mon_ctx *ctx;
    struct osprey_detect_worker *w;
    uint64_t num;
    char *text;
    size_t len;
    FILE *out;
};

static void on_alert(const struct osprey_alert *a, void *arg)
{
    (void)a, (void)arg;
}

static void flow_end(struct mon_flow *f, void *arg)
{
    osprey_detect_flow_end(arg, f);
}

static int rig_open_labels(struct rig *r, uint32_t sid, bool labels)
{
    memset(r, 0, sizeof *r);
    struct osprey_rules_options o = {.classification_file = "", .reference_file = "",
                                     .threshold_file = ""};
    if (osprey_ruleset_create(&r->rs, NULL, &o) ||
        osprey_ruleset_add_text(r->rs, "t.rules", RULES, strlen(RULES)))
        return -1;
    if (!(r->out = open_memstream(&r->text, &r->len)))
        return -1;
    struct mon_engine_cfg cfg;
    mon_engine_cfg_defaults(&cfg);
    cfg.decode.checksum_mode = MON_CSUM_NONE;
    struct osprey_detect_opts opts = {.explain_sid = sid, .explain_out = r->out,
                                      .labels = labels};
    if (!(r->eng = mon_engine_create(&cfg)) ||
        osprey_detect_build_opts(&r->d, r->eng, r->rs, stderr, &opts))
        return -1;
    mon_engine_freeze(r->eng);
    if (!(r->ctx = mon_ctx_create(r->eng, 0)) ||
        !(r->w = osprey_detect_attach(r->d, r->ctx, on_alert, NULL)))
        return -1;
    mon_set_flow_end_cb(r->ctx, flow_end, r->w);
    return 0;
}

static int rig_open(struct rig *r, uint32_t sid)
{
    return rig_open_labels(r, sid, false);
}

static void rig_close(struct rig *r)
{
    mon_ctx_destroy(r->ctx);
    osprey_detect_worker_free(r->w);
    osprey_detect_free(r->d);
    mon_engine_destroy(r->eng);
    osprey_ruleset_free(r->rs);
    fclose(r->out);
    free(r->text);
}

static void udp(struct rig *r, const char *payload)
{
    struct test_frame t;
    struct mon_packet *p = tf_build(&t, A, 1000, B, 53, 17, 0, 0, 0, payload, 1000 + r->num);
    p->num = ++r->num;
    mon_process(r->ctx, p);
}

/* What was written to the rig's stream since *from, and move *from past it. */
static const char *since(struct rig *r, size_t *from)
{
    fflush(r->out);
    const char *s = r->text + *from;
    *from = r->len;
    return s;
}

static void test_report(void)
{
    struct rig r;
    CHECK(rig_open(&r, 5) == 0);
    CHECK(osprey_detect_explain(r.d, r.out) == 0);
    size_t at = 0;
    CHECK_EQ_S(since(&r, &at),
               "sid 5: compiled\n"
               "  rule: alert udp any any -> any 53 (t.rules:1, gid 1, rev 2)\n"
               "  msg: two\n"
               "  buffers: packet payload\n"
               "  fast pattern \"abc\" on the packet payload: the longest positive content\n"
               "  chain 1 of 1: packet rule, base event packet\n"
               "    1. mpm packet (Hyperscan, all fast patterns)\n"
               "    2. fast pattern \"abc\"\n"
               "    3. header packet udp any any -> any 53\n"
               "    4. content:\"abc\"; content:\"xyz\"; distance:0;  [unit payload on packet "
               "payload]\n"
               "  flowbits, xbits, flowint, thresholds: none\n"
               "  on a match: committed with the phase's other matches in Suricata's order "
               "(pass, drop, reject, alert; flowbit setters first), then: alert\n");
    rig_close(&r);
}

static void test_trace(void)
{
    struct rig r;
    CHECK(rig_open(&r, 5) == 0);
    size_t at = 0;
    udp(&r, "nothing here"); /* no fast pattern: the rule's steps are not tried */
    CHECK_EQ_S(since(&r, &at), "");
    udp(&r, "abc but not the rest");
    CHECK_EQ_S(since(&r, &at),
               "packet 2 (flow 1): packet to server: stopped at step 4 of 4, content:\"abc\"; "
               "content:\"xyz\"; distance:0; [unit payload] on the packet payload: "
               "\"abc but not the rest\" (20 bytes)\n");
    udp(&r, "abc-xyz");
    CHECK_EQ_S(since(&r, &at),
               "packet 3 (flow 1): packet to server: matched (all 4 steps): alert\n");
    CHECK(osprey_detect_explain_summary(r.d, r.out) == 0);
    CHECK_EQ_S(since(&r, &at), "sid 5 on the traffic: stopped 1 times, matched 1 times, took "
                               "its action 1 times\n");
    rig_close(&r);
}

static void test_unknown_sid_and_sharing(void)
{
    struct rig r, plain;
    CHECK(rig_open(&r, 77) == 0);
    size_t at = 0;
    CHECK(osprey_detect_explain(r.d, r.out) == 1);
    CHECK_EQ_S(since(&r, &at), "sid 77: no rule with this sid was read (a commented-out rule "
                               "is not loaded)\n");
    udp(&r, "abc-xyz"); /* sid 6 matches: not the explained rule, nothing printed */
    CHECK_EQ_S(since(&r, &at), "");
    CHECK(rig_open(&plain, 0) == 0);
    CHECK(osprey_detect_explain(plain.d, plain.out) == -1); /* a build that explains nothing */
    CHECK(osprey_detect_explain_summary(plain.d, plain.out) == -1);
    /* the tracing wrappers share prefixes exactly as the plain filters do */
    CHECK_EQ_U(osprey_detect_stats(r.d)->ude_nodes, osprey_detect_stats(plain.d)->ude_nodes);
    CHECK_EQ_U(osprey_detect_stats(r.d)->option_nodes,
               osprey_detect_stats(plain.d)->option_nodes);
    rig_close(&plain);
    rig_close(&r);
}

/* --dump-chains: a build asked for labels prints every UDE's; a plain one (osprey's runs)
 * keeps none and prints "?" in their place, with the same tree. */
static void test_dump_labels(void)
{
    struct rig with, plain;
    CHECK(rig_open_labels(&with, 0, true) == 0);
    CHECK(rig_open(&plain, 0) == 0);
    char *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    FILE *fa = open_memstream(&a, &na), *fb = open_memstream(&b, &nb);
    osprey_detect_dump_chains(with.d, fa);
    osprey_detect_dump_chains(plain.d, fb);
    fclose(fa);
    fclose(fb);
    CHECK(strstr(a, "fast pattern \"abc\"") != NULL);
    CHECK(strstr(a, "content:\"xyz\"; distance:0;") != NULL);
    CHECK(strstr(b, "fast pattern \"") == NULL && strstr(b, "  ?") != NULL);
    size_t la = 0, lb = 0; /* one line per node either way */
    for (const char *p = a; *p; p++)
        la += *p == '\n';
    for (const char *p = b; *p; p++)
        lb += *p == '\n';
    CHECK(la == lb && la > 3);
    free(a);
    free(b);
    rig_close(&plain);
    rig_close(&with);
}

int main(void)
{
    test_report();
    test_trace();
    test_unknown_sid_and_sharing();
    test_dump_labels();
    return unit_report("test_explain");
}
