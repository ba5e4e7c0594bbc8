/* test_units.c — the option units' identity and the compiler's keyword table: two units that
 * differ in one field evaluation reads never intern to one (which would make two rules share
 * a UDE that answers for one of them), identical ones always do; every unit type has its
 * ops; plan_table.c is sorted and names implemented keywords only. */
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "plan.h"
#include "registry.h"
#include "tls_units.h"
#include "unit.h"

static struct compiler C;

static const struct det_unit *intern(const struct det_unit *u)
{
    const struct det_unit *a = unit_arg(&C, u);
    CHECK(a != NULL);
    return a;
}

/* a and b are different units: they must not intern together */
#define DIFFER(a, b) CHECK(intern(&(a)) != intern(&(b)))
/* a and b are the same unit (maybe through different but equal arguments): one */
#define SAME(a, b) CHECK(intern(&(a)) == intern(&(b)))

static struct opt_cmp cmps[8];

static const struct opt_cmp *cmp(int i, uint8_t op, int64_t lo, int64_t hi, uint32_t flags)
{
    cmps[i] = (struct opt_cmp){.op = op, .lo = lo, .hi = hi, .flags = flags};
    return &cmps[i];
}

/* Every field a unit has in common: kind, base, ob, xf, or_absent, and the type itself. */
static void common_fields(void)
{
    const struct opt_cmp *c0 = cmp(0, CMP_EQ, 5, 0, 0);
    uint16_t req = det_app_base((uint16_t)osprey_event_find("http_request"));
    uint16_t resp = det_app_base((uint16_t)osprey_event_find("http_response"));
    struct det_unit a = {.ops = &det_unit_buflen, .kind = DK_APP, .base = req, .ob = 3,
                         .cmp = c0};
    struct det_unit b = a;
    SAME(a, b);
    b.kind = DK_PKT;
    DIFFER(a, b);
    b = a, b.base = resp;
    DIFFER(a, b);
    b = a, b.ob = 4;
    DIFFER(a, b);
    b = a, b.or_absent = true;
    DIFFER(a, b);
    struct det_xform x = {0};
    b = a, b.xf = &x;
    DIFFER(a, b);
    /* the same arguments under another type: dsize 5 is not bsize 5 */
    b = a, b.ops = &det_unit_dsize;
    DIFFER(a, b);
}

static void cmp_units(const struct det_unit_ops *ops, bool has_field)
{
    struct det_unit a = {.ops = ops, .cmp = cmp(0, CMP_RANGE, 1, 9, 0), .field = 1};
    struct det_unit b = a;
    b.cmp = cmp(1, CMP_RANGE, 1, 9, 0); /* equal values elsewhere: the same unit */
    SAME(a, b);
    b.cmp = cmp(2, CMP_RANGE_INCL, 1, 9, 0);
    DIFFER(a, b);
    b.cmp = cmp(3, CMP_RANGE, 2, 9, 0);
    DIFFER(a, b);
    b.cmp = cmp(4, CMP_RANGE, 1, 8, 0);
    DIFFER(a, b);
    if (has_field) {
        b = a, b.field = 2;
        DIFFER(a, b);
    }
}

/* field_index (ldap.responses.*) and krb5_enc (krb5.ticket_encryption): every field of
 * their arguments is keyed */
static void field_units(void)
{
    static struct opt_field_index x1 = {.cm = {.op = CMP_EQ, .lo = 5}, .field = 3,
                                        .mode = FIDX_AT, .index = 1};
    static struct opt_field_index x2, x3;
    x2 = x1;
    struct det_unit a = {.ops = &det_unit_field_index, .fidx = &x1}, b = a;
    b.fidx = &x2;
    SAME(a, b);
    x3 = x1, x3.index = -1;
    b.fidx = &x3;
    DIFFER(a, b);
    static struct opt_field_index x4, x5, x6, x7;
    x4 = x1, x4.mode = FIDX_ANY;
    b.fidx = &x4;
    DIFFER(a, b);
    x5 = x1, x5.field = 4;
    b.fidx = &x5;
    DIFFER(a, b);
    x6 = x1, x6.cm.lo = 4;
    b.fidx = &x6;
    DIFFER(a, b);
    x7 = x1, x7.cm.op = CMP_NE;
    b.fidx = &x7;
    DIFFER(a, b);

    static struct opt_krb5_enc k1 = {.field = 1, .weak_field = 2, .weak = 1, .n = 1,
                                     .etype = {23}};
    static struct opt_krb5_enc k2, k3, k4, k5;
    k2 = k1;
    a = (struct det_unit){.ops = &det_unit_krb5_enc, .kenc = &k1}, b = a;
    b.kenc = &k2;
    SAME(a, b);
    k3 = k1, k3.weak = 0;
    b.kenc = &k3;
    DIFFER(a, b);
    k4 = k1, k4.etype[0] = 18;
    b.kenc = &k4;
    DIFFER(a, b);
    k5 = k1, k5.n = 2, k5.etype[1] = 17;
    b.kenc = &k5;
    DIFFER(a, b);

    static struct opt_field_set s1 = {.field = 4, .n = 1, .r = {{400, 499}}};
    static struct opt_field_set s2, s3, s4, s5, s6;
    s2 = s1;
    a = (struct det_unit){.ops = &det_unit_field_set, .fset = &s1}, b = a;
    b.fset = &s2;
    SAME(a, b);
    s3 = s1, s3.field = 5;
    b.fset = &s3;
    DIFFER(a, b);
    s4 = s1, s4.neg = true;
    b.fset = &s4;
    DIFFER(a, b);
    s5 = s1, s5.r[0].hi = 480;
    b.fset = &s5;
    DIFFER(a, b);
    s6 = s1, s6.n = 2, s6.r[1].lo = s6.r[1].hi = 180;
    b.fset = &s6;
    DIFFER(a, b);
}

static void packet_units(void)
{
    cmp_units(&det_unit_dsize, false);
    cmp_units(&det_unit_hdr, true);
    cmp_units(&det_unit_buflen, false);
    cmp_units(&det_unit_field, true);

    struct opt_flow f1 = {FLOW_TO_SERVER}, f2 = {FLOW_TO_CLIENT}, f3 = {FLOW_TO_SERVER};
    struct det_unit a = {.ops = &det_unit_flow, .flow = &f1}, b = a;
    b.flow = &f3;
    SAME(a, b);
    b.flow = &f2;
    DIFFER(a, b);

    /* stream_size: its direction (flags), operator and value */
    a = (struct det_unit){.ops = &det_unit_streamsize, .cmp = cmp(0, CMP_GT, 10, 0, 1)};
    b = a, b.cmp = cmp(1, CMP_GT, 10, 0, 2);
    DIFFER(a, b);
    b = a, b.cmp = cmp(2, CMP_LT, 10, 0, 1);
    DIFFER(a, b);
    b = a, b.cmp = cmp(3, CMP_GT, 11, 0, 1);
    DIFFER(a, b);

    a = (struct det_unit){.ops = &det_unit_tcpflags, .tf = {0x02, 0, 0}};
    b = a, b.tf.bits = 0x12;
    DIFFER(a, b);
    b = a, b.tf.ignore = 0x10;
    DIFFER(a, b);
    b = a, b.tf.mod = '+';
    DIFFER(a, b);
    b = a, b.ops = &det_unit_fragbits; /* the same bits, another header */
    DIFFER(a, b);

    a = (struct det_unit){.ops = &det_unit_ipopts, .ipopt = 7};
    b = a, b.ipopt = 8;
    DIFFER(a, b);
    a = (struct det_unit){.ops = &det_unit_ipproto, .ipp = {0, 6}};
    b = a, b.ipp.proto = 17;
    DIFFER(a, b);
    b = a, b.ipp.op = '!';
    DIFFER(a, b);
    a = (struct det_unit){.ops = &det_unit_sameip};
    b = a;
    SAME(a, b);

    struct opt_geoip g1 = {.dir = 1, .n = 1, .cc = {{'D', 'E'}}}, g2 = g1, g3 = g1;
    g2.cc[0][1] = 'K';
    a = (struct det_unit){.ops = &det_unit_geoip, .geo = &g1};
    b = a, b.geo = &g3;
    SAME(a, b);
    b.geo = &g2;
    DIFFER(a, b);
    g3.neg = true;
    DIFFER(a, b);

    struct opt_pktprop p1 = {.kind = 1, .layer = PP_LAYER_ANY, .cmp = {.op = CMP_EQ, .lo = 3}};
    struct opt_pktprop p2 = p1, p3 = p1, p4 = p1;
    p2.dir = 1;
    p3.layer = 2;
    p4.cmp.lo = 4;
    a = (struct det_unit){.ops = &det_unit_pktprop, .pp = &p1};
    b = a, b.pp = &p2;
    DIFFER(a, b);
    b.pp = &p3;
    DIFFER(a, b);
    b.pp = &p4;
    DIFFER(a, b);

    struct opt_rpc r1 = {.prog = 100003, .vers = 3, .any_proc = true}, r2 = r1, r3 = r1, r4 = r1,
                   r5 = r1;
    r2.prog = 100000;
    r3.vers = 2;
    r4.any_vers = true;
    r5.any_proc = false;
    a = (struct det_unit){.ops = &det_unit_rpc, .rpc = &r1};
    b = a, b.rpc = &(struct opt_rpc){.prog = 100003, .vers = 3, .any_proc = true};
    SAME(a, b);
    b.rpc = &r2;
    DIFFER(a, b);
    b.rpc = &r3;
    DIFFER(a, b);
    b.rpc = &r4;
    DIFFER(a, b);
    b.rpc = &r5;
    DIFFER(a, b);
}

static void app_units(void)
{
    struct det_unit a = {.ops = &det_unit_appproto}, b;
    osprey_app_proto_set_add(&a.app, 2);
    b = a;
    osprey_app_proto_set_add(&b.app, 100); /* past the 64 ids of one word */
    DIFFER(a, b);
    b = a, b.app_neg = true;
    DIFFER(a, b);

    a = (struct det_unit){.ops = &det_unit_absent, .ob = 3};
    b = a, b.ob = 5;
    DIFFER(a, b);

    struct opt_event e1 = {.kind = EV_DECODE, .code = 3}, e2 = e1, e3 = e1, e4 = e1, e5 = e1;
    e2.code = 4;
    e3.ipver = 6;
    e4.note = true;
    e5.kind = EV_STREAM;
    a = (struct det_unit){.ops = &det_unit_event, .event = &e1};
    struct opt_event *ev[] = {&e2, &e3, &e4, &e5};
    for (int i = 0; i < 4; i++) {
        b = a, b.event = ev[i];
        DIFFER(a, b);
    }

    /* a dataset option is its own unit (a set command changes the set each time) */
    struct opt_dataset d1, d2;
    memset(&d1, 0, sizeof d1);
    memset(&d2, 0, sizeof d2);
    a = (struct det_unit){.ops = &det_unit_dataset, .ds = &d1};
    b = a, b.ds = &d2;
    DIFFER(a, b);

    struct det_tls t1 = {.test = DT_STRING, .len = 3, .str = (const uint8_t *)"abc"};
    struct det_tls t[8];
    for (int i = 0; i < 8; i++)
        t[i] = t1;
    t[0].test = DT_VERSION;
    t[1].side = 2;
    t[2].negated = true;
    t[3].ob = 1;
    t[4].set = 1;
    t[5].neg_set = 1;
    t[6].cmp.lo = 1;
    t[7].str = (const uint8_t *)"abd";
    a = (struct det_unit){.ops = &det_unit_tls, .tls = &t1};
    for (int i = 0; i < 8; i++) {
        b = a, b.tls = &t[i];
        DIFFER(a, b);
    }
}

static void payload_units(void)
{
    struct opt_content c1 = {.pattern = (const uint8_t *)"abc", .len = 3}, c[8];
    for (int i = 0; i < 8; i++)
        c[i] = c1;
    c[0].pattern = (const uint8_t *)"abd";
    c[1].nocase = true;
    c[2].negated = true;
    c[3].depth = 4, c[3].has = 1;
    c[4].offset = 1;
    c[5].distance = 1;
    c[6].within = 5;
    c[7].endswith = true;
    struct det_pitem p1 = {.type = PI_CONTENT, .arg = &c1}, p2;
    struct det_unit a = {.ops = &det_unit_payload, .n = 1, .items = &p1}, b = a;
    struct opt_content same = c1;
    same.pattern = (const uint8_t *)strdup("abc");
    same.fast_pattern = true; /* the mpm's business, not the unit's */
    p2 = p1, p2.arg = &same, b.items = &p2;
    SAME(a, b);
    free((void *)same.pattern);
    for (int i = 0; i < 8; i++) {
        p2 = p1, p2.arg = &c[i], b.items = &p2;
        DIFFER(a, b);
    }
    p2 = p1, p2.decoded = true, b.items = &p2;
    DIFFER(a, b);
    p2 = p1, p2.var[0] = 1, b.items = &p2;
    DIFFER(a, b);
    p2 = p1, p2.def = 1, b.items = &p2;
    DIFFER(a, b);
    /* one item more is another run */
    struct det_pitem two[2] = {p1, p1};
    b = a, b.items = two, b.n = 2;
    DIFFER(a, b);

    struct opt_isdataat i1 = {.n = 4}, i2 = {.n = 5}, i3 = {.n = 4, .relative = true};
    struct det_pitem q1 = {.type = PI_ISDATAAT, .arg = &i1}, q2 = q1;
    a.items = &q1;
    q2.arg = &i2, b = a, b.items = &q2;
    DIFFER(a, b);
    q2.arg = &i3;
    DIFFER(a, b);

    /* ber_data / ber_skip: the type, skip or data, optional */
    struct opt_ber e1 = {.type = 0x30}, e2 = {.type = 0x31}, e3 = {.type = 0x30, .skip = true},
                   e4 = {.type = 0x30, .skip = true, .optional = true}, e5 = e1;
    struct det_pitem be1 = {.type = PI_BER, .relative = true, .arg = &e1}, be2 = be1;
    a.items = &be1;
    be2.arg = &e5, b = a, b.items = &be2;
    SAME(a, b);
    be2.arg = &e2;
    DIFFER(a, b);
    be2.arg = &e3;
    DIFFER(a, b);
    struct det_pitem be3 = be1;
    be3.arg = &e4;
    a.items = &be2, b.items = &be3;
    DIFFER(a, b);

    struct opt_byte y1, y2;
    memset(&y1, 0, sizeof y1);
    y1.bytes = 2, y1.value = 7;
    y2 = y1, y2.value = 8;
    struct det_pitem r1 = {.type = PI_BYTE_TEST, .arg = &y1}, r2 = r1;
    r2.arg = &y2;
    a.items = &r1, b = a, b.items = &r2;
    DIFFER(a, b);
    y2 = y1, y2.offset = 1;
    DIFFER(a, b);
    y2 = y1, y2.bitmask = 1;
    DIFFER(a, b);
    r2 = r1, r2.type = PI_BYTE_JUMP, r2.arg = &y1;
    DIFFER(a, b);
}

/* Every unit type has an evaluation and a key; the per-type fields share one union. */
static void ops_complete(void)
{
    CHECK(sizeof(struct det_unit) <= 64);
    const struct det_unit_ops *all[] = {
        &det_unit_payload, &det_unit_flow, &det_unit_dsize, &det_unit_hdr,
        &det_unit_tcpflags, &det_unit_fragbits, &det_unit_ipopts, &det_unit_ipproto,
        &det_unit_sameip, &det_unit_geoip, &det_unit_streamsize, &det_unit_buflen,
        &det_unit_absent, &det_unit_dataset, &det_unit_appproto, &det_unit_field,
        &det_unit_pktprop, &det_unit_event, &det_unit_tls, &det_unit_flow_start,
        &det_unit_field_index, &det_unit_krb5_enc, &det_unit_field_set, &det_unit_rpc};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        CHECK(all[i]->name && all[i]->eval && all[i]->key);
}

/* The units the rule header implies are labelled by their dump in --dump-chains. */
static void dumps(void)
{
    struct det_unit a = {.ops = &det_unit_appproto, .app_neg = true};
    osprey_app_proto_set_add(&a.app, (uint16_t)osprey_app_proto_find("http"));
    osprey_app_proto_set_add(&a.app, (uint16_t)osprey_app_proto_find("dns"));
    struct buf b = {0};
    a.ops->dump(&b, &a);
    buf_put(&b, "", 1);
    CHECK(b.p && !strcmp((const char *)b.p, "app_proto !http|dns"));
    free(b.p);
    static const struct opt_pktprop v6 = {.kind = PP_IPVER, .cmp = {.op = CMP_EQ, .lo = 6}};
    a = (struct det_unit){.ops = &det_unit_pktprop, .pp = &v6};
    b = (struct buf){0};
    a.ops->dump(&b, &a);
    buf_put(&b, "", 1);
    CHECK(b.p && !strcmp((const char *)b.p, "ip version 6"));
    free(b.p);
}

/* plan_table.c: sorted (binary search), each name an implemented keyword that is not a
 * modifier, sticky buffer or transform (make_plan folds those), each found by plan_fn_of. */
static void plan_table(void)
{
    struct opt_index ix;
    CHECK(opt_index_build(&ix) == 0);
    const char *prev = NULL;
    size_t n = 0;
    for (const char *name; (name = plan_table_name(n)); n++) {
        if (prev && strcmp(prev, name) >= 0)
            fprintf(stderr, "plan_table.c: %s after %s\n", name, prev);
        CHECK(!prev || strcmp(prev, name) < 0);
        prev = name;
        CHECK(plan_fn_of(name) != NULL);
        int id = opt_index_find(&ix, name, strlen(name));
        CHECK(id >= 0);
        if (id < 0)
            continue;
        const struct opt_def *def = opt_def_by_id((size_t)id);
        CHECK(def->implemented);
        CHECK(def->kind != OPT_MODIFIER && def->kind != OPT_STICKY &&
              def->kind != OPT_TRANSFORM && def->kind != OPT_HTTP_LEGACY);
    }
    CHECK(n > 50);
    CHECK(plan_fn_of("content") == plan_content);
    CHECK(plan_fn_of("no-such-keyword") == NULL);
    CHECK(plan_fn_of("nocase") == NULL); /* a modifier */
    opt_index_free(&ix);
}

/* plan_fn_of_kw answers by keyword id what plan_fn_of answers by the row's name, for every
 * keyword (NULL ones included); the name index finds no prefix, extension or unknown name. */
static void plan_by_id(void)
{
    size_t n = opt_def_count();
    for (size_t kw = 0; kw < n; kw++)
        CHECK(plan_fn_of_kw(kw) == plan_fn_of(opt_def_by_id(kw)->name));
    CHECK(plan_fn_of_kw(n) == NULL);
    CHECK(opt_def_by_id(n) == NULL);
    struct opt_index ix;
    CHECK(opt_index_build(&ix) == 0);
    CHECK(opt_index_find(&ix, "content", 7) >= 0);
    CHECK(opt_index_find(&ix, "content", 6) == -1);  /* "conten" */
    CHECK(opt_index_find(&ix, "contentx", 8) == -1);
    CHECK(opt_index_find(&ix, "no-such-keyword", 15) == -1);
    CHECK(opt_index_find(&ix, "", 0) == -1);
    CHECK(plan_fn_of_kw((size_t)opt_index_find(&ix, "pcre", 4)) == plan_pcre);
    opt_index_free(&ix);
}

/* det_mpm_add: a pattern added again is the same id (its bytes, length and nocase all equal),
 * any difference a new one, over enough patterns that the index grows several times. */
static void mpm_patterns(void)
{
    enum { N = 3000 };
    static uint8_t pats[N][8];
    struct det_mpm m = {.kind = DK_PKT};
    uint32_t id, id2;
    for (uint32_t i = 0; i < N; i++) {
        memcpy(pats[i], "pat", 3);
        memcpy(pats[i] + 3, &i, sizeof i);
        CHECK(det_mpm_add(&m, pats[i], 7, false, &id) == 0 && id == i);
    }
    CHECK_EQ_U(m.n, N);
    for (uint32_t i = 0; i < N; i++) {
        CHECK(det_mpm_add(&m, pats[i], 7, false, &id) == 0 && id == i);
        uint8_t copy[8]; /* equal bytes elsewhere: the same pattern */
        memcpy(copy, pats[i], 8);
        CHECK(det_mpm_add(&m, copy, 7, false, &id2) == 0 && id2 == i);
    }
    CHECK_EQ_U(m.n, N);
    CHECK(det_mpm_add(&m, pats[5], 7, true, &id) == 0 && id == N);     /* nocase */
    CHECK(det_mpm_add(&m, pats[5], 6, false, &id) == 0 && id == N + 1); /* a prefix */
    CHECK(det_mpm_add(&m, pats[5], 7, true, &id2) == 0 && id2 == N);
    CHECK_EQ_U(m.n, N + 2);
    det_mpm_free(&m);
}

/* The row's check is what -T and the compiler ask. */
static void row_checks(void)
{
    struct opt_index ix;
    CHECK(opt_index_build(&ix) == 0);
    const struct opt_def *dsize = opt_def_by_id((size_t)opt_index_find(&ix, "dsize", 5));
    const struct opt_def *urilen = opt_def_by_id((size_t)opt_index_find(&ix, "urilen", 6));
    const struct opt_def *msg = opt_def_by_id((size_t)opt_index_find(&ix, "msg", 3));
    struct opt_cmp plain = {.op = CMP_EQ, .lo = 3}, var = {.op = CMP_EQ, .var = "v"},
                   raw = {.op = CMP_EQ, .lo = 3, .flags = 2};
    CHECK(opt_compile_check(dsize, &plain) == NULL);
    CHECK(opt_compile_check(dsize, &var) != NULL);
    CHECK(opt_compile_check(dsize, &raw) != NULL);  /* a modifier dsize does not run */
    CHECK(opt_compile_check(urilen, &raw) == NULL); /* urilen honours ,raw */
    CHECK(opt_compile_check(urilen, &var) != NULL);
    CHECK(opt_compile_check(dsize, NULL) == NULL);
    CHECK(msg->check == NULL && opt_compile_check(msg, "x") == NULL);
    opt_index_free(&ix);
}

int main(void)
{
    struct osprey_detect *d = calloc(1, sizeof *d);
    C.d = d;
    field_units();
    common_fields();
    packet_units();
    app_units();
    payload_units();
    ops_complete();
    dumps();
    plan_table();
    plan_by_id();
    mpm_patterns();
    row_checks();
    intern_free(&C.args);
    for (uint32_t i = 0; i < d->nowned; i++)
        free(d->owned[i]);
    free(d->owned);
    free(d->codes);
    free(d);
    return unit_report("test_units");
}
