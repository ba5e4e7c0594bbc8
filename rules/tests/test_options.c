/* test_options.c — rules in, typed AST out: what each option's parser stores, per dialect.
 *
 * argv[1] is the shipped etc/ directory (classification and reference files). */
#include <stdio.h>
#include <string.h>

#include "buffers.h"
#include "opt_args.h"
#include "osprey_rules.h"
#include "unit.h"

static char etc[512];

static struct osprey_ruleset *load(const char *text)
{
    char cls[600], ref[600];
    snprintf(cls, sizeof cls, "%s/classification.config", etc);
    snprintf(ref, sizeof ref, "%s/reference.config", etc);
    struct osprey_rules_options o = {0};
    o.keep_all = true;
    o.classification_file = cls;
    o.reference_file = ref;
    o.threshold_file = "";
    struct osprey_ruleset *rs = NULL;
    if (osprey_ruleset_create(&rs, NULL, &o) < 0)
        return NULL;
    osprey_ruleset_add_text(rs, "t.rules", text, strlen(text));
    return rs;
}

static const struct osprey_rule_option *opt(const struct osprey_rule *r, const char *kw, int nth)
{
    for (uint32_t i = 0; i < r->nopts; i++)
        if (strcmp(r->opts[i].keyword, kw) == 0 && nth-- == 0)
            return &r->opts[i];
    return NULL;
}

/* Suricata 8's firewall actions: the action and its scope, the hook kept; no scope for
 * other actions, accept without one, a firewall rule without a hook: rejected. */
static void test_firewall_actions(void)
{
    struct osprey_ruleset *rs = load(
        "accept:hook tcp:all any any -> any any (sid:1;)\n"
        "drop:flow tls:client_hello_done any any -> any any (sid:2;)\n"
        "drop:packet ip:pre_flow any any -> any any (sid:3;)\n"
        "accept:tx http1:request_line any any -> any any (sid:4;)\n"
        "drop tcp any any -> any any (sid:5;)\n"
        "accept tcp:all any any -> any any (sid:6;)\n"
        "drop:tx tcp:all any any -> any any (sid:7;)\n"
        "accept:flow tcp any any -> any any (sid:8;)\n");
    const struct osprey_rule *r = osprey_ruleset_rule(rs, 0);
    CHECK(r && r->action == OSPREY_ACTION_ACCEPT && r->scope == OSPREY_SCOPE_HOOK);
    CHECK(r && !strcmp(r->hook, "all"));
    r = osprey_ruleset_rule(rs, 1);
    CHECK(r && r->action == OSPREY_ACTION_DROP && r->scope == OSPREY_SCOPE_FLOW);
    r = osprey_ruleset_rule(rs, 2);
    CHECK(r && r->scope == OSPREY_SCOPE_PACKET && !strcmp(r->hook, "pre_flow"));
    r = osprey_ruleset_rule(rs, 3);
    CHECK(r && r->scope == OSPREY_SCOPE_TX && r->status == OSPREY_RULE_ACCEPTED);
    r = osprey_ruleset_rule(rs, 4);
    CHECK(r && r->action == OSPREY_ACTION_DROP && r->scope == OSPREY_SCOPE_NONE);
    for (size_t i = 5; i < 8; i++) {
        r = osprey_ruleset_rule(rs, i);
        CHECK(r && r->status == OSPREY_RULE_REJECTED);
    }
    osprey_ruleset_free(rs);
}

static void test_content_classic(void)
{
    struct osprey_ruleset *rs = load(
        "alert tcp any any -> any any (msg:\"m \\\"q\\\" \\; x\"; content:!\"A|42 43|\\:\\\\\"; "
        "nocase; depth:10; offset:2; http_uri; content:\"y\"; distance:-3; within:5; "
        "content:\"w\"; fast_pattern:only; uricontent:\"/z\"; sid:1; rev:7; "
        "classtype:trojan-activity;)\n");
    const struct osprey_rule *r = osprey_ruleset_rule(rs, 0);
    CHECK(r && r->status == OSPREY_RULE_ACCEPTED); /* http_uri and uricontent: implemented */
    CHECK(r->dialect == OSPREY_DIALECT_SNORT2);
    CHECK(strcmp(r->msg, "m \"q\" ; x") == 0);
    CHECK(r->sid == 1 && r->rev == 7 && r->gid == 1 && r->priority == 1);
    CHECK(r->reason == NULL);
    const struct opt_content *a = opt(r, "content", 0)->arg;
    CHECK(a->len == 5 && memcmp(a->pattern, "ABC:\\", 5) == 0);
    CHECK(a->negated && a->nocase);
    CHECK(a->has == (CONTENT_DEPTH | CONTENT_OFFSET) && a->depth == 10 && a->offset == 2);
    CHECK(a->buffer == BUF_HTTP_URI && a->buffer_from_modifier);
    CHECK(opt(r, "content", 0)->buffer == BUF_HTTP_URI);
    const struct opt_content *b = opt(r, "content", 1)->arg;
    CHECK(b->buffer == BUF_PKT && b->distance == -3 && b->within == 5 && !b->fast_pattern);
    const struct opt_content *w = opt(r, "content", 2)->arg;
    CHECK(w->fast_pattern && w->fp_only);
    const struct opt_content *u = opt(r, "uricontent", 0)->arg;
    CHECK(u->buffer == BUF_HTTP_URI && u->len == 2);
    osprey_ruleset_free(rs);
}

static void test_content_snort3(void)
{
    struct osprey_ruleset *rs = load(
        "alert http (msg:\"s3\"; http_uri; content:\"/a\",fast_pattern,nocase,depth 4; "
        "http_header:field user-agent; content:\"x\", within 8, distance 1; "
        "byte_extract:1,0,len,relative; content:\"b\",within len; pkt_data; "
        "content:\"c\"; service:http; sid:2;)\n");
    const struct osprey_rule *r = osprey_ruleset_rule(rs, 0);
    CHECK(r && r->dialect == OSPREY_DIALECT_SNORT3 && r->headerless);
    CHECK(strcmp(r->proto, "http") == 0);
    const struct opt_content *a = opt(r, "content", 0)->arg;
    CHECK(a->buffer == BUF_HTTP_URI && a->fast_pattern && a->nocase && a->depth == 4);
    const struct opt_content *b = opt(r, "content", 1)->arg;
    CHECK(b->buffer == BUF_HTTP_HEADER && b->within == 8 && b->distance == 1);
    const struct opt_content *c = opt(r, "content", 2)->arg;
    CHECK(c->within_var && strcmp(c->within_var, "len") == 0);
    CHECK(((const struct opt_content *)opt(r, "content", 3)->arg)->buffer == BUF_PKT);
    CHECK(r->src.addr->n == 1 && r->dst.port->n == 1 && r->dst.port->r[0].hi == 65535);
    osprey_ruleset_free(rs);
}

static void test_suricata_buffers(void)
{
    struct osprey_ruleset *rs = load(
        "alert dns any any -> any any (msg:\"s\"; dns.query; to_lowercase; dotprefix; "
        "content:\".example\"; endswith; http.uri; content:\"/x\"; startswith; "
        "pcre:\"/^\\/x/U\"; sid:3;)\n");
    const struct osprey_rule *r = osprey_ruleset_rule(rs, 0);
    CHECK(r && r->dialect == OSPREY_DIALECT_SURICATA);
    const struct osprey_rule_option *c0 = opt(r, "content", 0);
    CHECK(c0->buffer == BUF_DNS_QUERY && c0->nxforms == 2);
    CHECK(strcmp(r->opts[c0->xform_at].keyword, "to_lowercase") == 0);
    CHECK(strcmp(r->opts[c0->xform_at + 1].keyword, "dotprefix") == 0);
    CHECK(((const struct opt_content *)c0->arg)->endswith);
    const struct osprey_rule_option *c1 = opt(r, "content", 1);
    CHECK(c1->buffer == BUF_HTTP_URI && c1->nxforms == 0);
    CHECK(((const struct opt_content *)c1->arg)->startswith);
    const struct opt_pcre *p = opt(r, "pcre", 0)->arg;
    CHECK(strcmp(p->regex, "^\\/x") == 0 && strcmp(p->flags, "U") == 0);
    CHECK(p->buffer_flag == BUF_HTTP_URI);
    osprey_ruleset_free(rs);
}

static void test_detection_args(void)
{
    struct osprey_ruleset *rs = load(
        "alert tcp any any -> any any (msg:\"d\"; flow:established,to_server; "
        "flowbits:isset,a.b|c; flowbits:set,x&y; content:\"z\"; "
        "byte_test:4,!&,0x80,-2,relative,little; byte_jump:2,1,relative,multiplier 2,"
        "post_offset -1,from_beginning; isdataat:!10,relative; dsize:10<>20; "
        "threshold:type both, track by_dst, count 3, seconds 60; "
        "metadata:created_at 2020_01_01, policy balanced-ips drop; "
        "reference:CVE,2020-1234; pcre:\"m{a(b)}smiR\"; sid:4;)\n");
    const struct osprey_rule *r = osprey_ruleset_rule(rs, 0);
    CHECK(r && r->status == OSPREY_RULE_ACCEPTED); /* every option is implemented now */
    const struct opt_flow *f = opt(r, "flow", 0)->arg;
    CHECK(f->flags == (FLOW_ESTABLISHED | FLOW_TO_SERVER));
    const struct opt_bits *b0 = opt(r, "flowbits", 0)->arg;
    CHECK(b0->op == BITS_ISSET && b0->join == '|' && b0->n == 2);
    CHECK(strcmp(b0->names[0], "a.b") == 0 && strcmp(b0->names[1], "c") == 0);
    const struct opt_bits *b1 = opt(r, "flowbits", 1)->arg;
    CHECK(b1->op == BITS_SET && b1->join == '&');
    const struct opt_byte *bt = opt(r, "byte_test", 0)->arg;
    CHECK(bt->bytes == 4 && strcmp(bt->op, "&") == 0 && (bt->flags & BYTE_NEGATED));
    CHECK(bt->value == 0x80 && bt->offset == -2);
    CHECK(bt->flags == (BYTE_NEGATED | BYTE_RELATIVE | BYTE_LITTLE));
    const struct opt_byte *bj = opt(r, "byte_jump", 0)->arg;
    CHECK(bj->multiplier == 2 && bj->post_offset == -1 && (bj->flags & BYTE_FROM_BEGINNING));
    const struct opt_isdataat *id = opt(r, "isdataat", 0)->arg;
    CHECK(id->negated && id->relative && id->n == 10);
    const struct opt_cmp *ds = opt(r, "dsize", 0)->arg;
    CHECK(ds->op == CMP_RANGE && ds->lo == 10 && ds->hi == 20);
    const struct opt_threshold *th = opt(r, "threshold", 0)->arg;
    CHECK(th->type == THR_BOTH && th->track == THR_BY_DST && th->count == 3 &&
          th->seconds == 60);
    const struct opt_metadata *md = opt(r, "metadata", 0)->arg;
    CHECK(md->n == 2 && strcmp(md->e[1].key, "policy") == 0 &&
          strcmp(md->e[1].value, "balanced-ips drop") == 0);
    const struct opt_reference *rf = opt(r, "reference", 0)->arg;
    CHECK(strcmp(rf->system, "cve") == 0 && strcmp(rf->id, "2020-1234") == 0 && rf->url);
    const struct opt_pcre *pc = opt(r, "pcre", 0)->arg;
    CHECK(strcmp(pc->regex, "a(b)") == 0 && pc->relative);
    osprey_ruleset_free(rs);
}

static void test_accepted_and_stats(void)
{
    struct osprey_ruleset *rs = load(
        "alert ip any any -> any any (msg:\"meta only\"; sid:10; rev:2; "
        "classtype:misc-activity; priority:1; reference:url,example.com; "
        "metadata:k v; target:src_ip;)\n"
        "# alert ip any any -> any any (msg:\"off\"; sid:11;)\n"
        "## alert ip any any -> any any (msg:\"off\"; content:\"|4\"; sid:12;)\n"
        "# this is a comment (with parentheses)\n"
        "alert ip any any -> any any (msg:\"dup\"; sid:10; rev:2;)\n"
        "alert ip any any -> any any (msg:\"newer\"; sid:10; rev:3;)\n");
    const struct osprey_rules_stats *s = osprey_ruleset_stats(rs);
    CHECK_EQ_U(s->read, 5);
    CHECK_EQ_U(s->enabled, 3);
    CHECK_EQ_U(s->disabled, 2);
    CHECK_EQ_U(s->disabled_syntax_errors, 1);
    CHECK_EQ_U(s->accepted, 1);
    CHECK_EQ_U(s->duplicate_sids, 1);
    CHECK_EQ_U(s->conflicting_revs, 1);
    const struct osprey_rule *r = osprey_ruleset_rule(rs, 0);
    CHECK(r->status == OSPREY_RULE_REJECTED); /* superseded by rev 3 */
    CHECK(r->priority == 1 && strcmp(r->classtype, "misc-activity") == 0);
    const struct osprey_rule *last = osprey_ruleset_rule(rs, 4);
    CHECK(last->status == OSPREY_RULE_ACCEPTED && last->rev == 3);
    osprey_ruleset_free(rs);
}

static void test_forced_dialect(void)
{
    const char *text = "alert tcp any any -> any any (msg:\"t\"; http_uri; content:\"x\"; "
                       "sid:1;)\n";
    struct osprey_rules_options o = {0};
    o.keep_all = true;
    o.dialect = OSPREY_DIALECT_SNORT2;
    struct osprey_ruleset *rs;
    CHECK(osprey_ruleset_create(&rs, NULL, &o) == 0);
    osprey_ruleset_add_text(rs, "t", text, strlen(text));
    const struct osprey_rule *r = osprey_ruleset_rule(rs, 0);
    CHECK(r && r->dialect == OSPREY_DIALECT_SNORT2);
    CHECK(r && strcmp(r->reason, "http_uri: needs a content before it (a Snort 2/Suricata "
                                 "content modifier) (col 40)") == 0);
    osprey_ruleset_free(rs);
    o.dialect = OSPREY_DIALECT_SNORT3;
    CHECK(osprey_ruleset_create(&rs, NULL, &o) == 0);
    text = "alert tcp any any -> any any (msg:\"t\"; content:\"a\"; http_uri; "
           "content:\"x\"; sid:1;)\n";
    osprey_ruleset_add_text(rs, "t", text, strlen(text));
    r = osprey_ruleset_rule(rs, 0);
    CHECK(r && r->dialect == OSPREY_DIALECT_SNORT3);
    CHECK(r && r->opts[1].buffer == BUF_PKT && r->opts[3].buffer == BUF_HTTP_URI);
    osprey_ruleset_free(rs);
}

/* The TLS units' argument says its test (struct opt_tls): the compiler reads it, not the
 * keyword's name. */
static void test_tls_units(void)
{
    struct osprey_ruleset *rs = load(
        "alert tls any any -> any any (msg:\"t\"; ssl_state:client_hello|server_hello; "
        "ssl_version:!tls1.0; tls.version:1.2; tls.cert_chain_len:>1; "
        "tls_cert_notbefore:<2015-10-22; tls.cert_notafter:>2030; tls_cert_expired; "
        "tls.cert_valid; tls.subject:\"CN=a\"; tls.issuerdn:!\"CN=b\"; "
        "tls.fingerprint:\"00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff:00:11:22:33\"; "
        "sid:9;)\n");
    const struct osprey_rule *r = osprey_ruleset_rule(rs, 0);
    CHECK(r && r->status == OSPREY_RULE_ACCEPTED);
    static const struct {
        const char *kw;
        uint8_t test;
        bool two_sided;
        const char *buffer;
    } W[] = {
        {"ssl_state", OPT_TLS_STATE, false, NULL},
        {"ssl_version", OPT_TLS_SSL_VERSION, true, NULL},
        {"tls.version", OPT_TLS_VERSION, true, NULL},
        {"tls.cert_chain_len", OPT_TLS_CHAIN_LEN, false, NULL},
        {"tls_cert_notbefore", OPT_TLS_NOTBEFORE, false, NULL},
        {"tls.cert_notafter", OPT_TLS_NOTAFTER, false, NULL},
        {"tls_cert_expired", OPT_TLS_EXPIRED, false, NULL},
        {"tls.cert_valid", OPT_TLS_VALID, false, NULL},
        {"tls.subject", OPT_TLS_STRING, false, "tls.cert_subject"},
        {"tls.issuerdn", OPT_TLS_STRING, false, "tls.cert_issuer"},
        {"tls.fingerprint", OPT_TLS_STRING, false, "tls.cert_fingerprint"},
    };
    for (size_t i = 0; r && i < sizeof W / sizeof W[0]; i++) {
        const struct osprey_rule_option *o = opt(r, W[i].kw, 0);
        const struct opt_tls *t = o ? o->arg : NULL;
        CHECK(t && t->test == W[i].test && t->two_sided == W[i].two_sided);
        CHECK(t && (W[i].buffer ? t->buffer && !strcmp(t->buffer, W[i].buffer) : !t->buffer));
        CHECK(t && t->hex == (W[i].buffer && !strcmp(W[i].buffer, "tls.cert_fingerprint")));
    }
    const struct opt_tls *st = opt(r, "ssl_state", 0)->arg;
    CHECK(st->words.n == 2 && !strcmp(st->words.words[1], "server_hello"));
    const struct opt_tls *iss = opt(r, "tls.issuerdn", 0)->arg;
    CHECK(iss->str.negated && iss->str.len == 4);
    const struct opt_tls *v = opt(r, "tls.version", 0)->arg;
    CHECK(v->cmp.op == CMP_EQ && v->cmp.lo == 0x0303);
    osprey_ruleset_free(rs);
}

int main(int argc, char **argv)
{
    snprintf(etc, sizeof etc, "%s", argc > 1 ? argv[1] : "etc");
    test_content_classic();
    test_content_snort3();
    test_suricata_buffers();
    test_detection_args();
    test_accepted_and_stats();
    test_firewall_actions();
    test_forced_dialect();
    test_tls_units();
    return unit_report("test_options");
}
