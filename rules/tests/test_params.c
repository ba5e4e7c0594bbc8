/* test_params.c — the declarative argument parser (options/opt_params.c) on its own: each
 * type of key (flag, number with range, word of a list, name, quoted string, custom), where
 * values land in the argument struct, required, repeated and unknown keys, empty items and
 * the space-separated form (asn1), with the messages it reports. */
#include <stddef.h>
#include <string.h>

#include "arena.h"
#include "opt_params.h"
#include "registry.h"
#include "text.h"
#include "unit.h"

struct args {
    bool flag;
    uint8_t word;
    uint16_t small;
    uint32_t num;
    int32_t neg;
    int64_t big;
    int custom;
};

static int custom(struct rule_ctx *c, void *arg, const char *v, size_t vn)
{
    if (!slice_eq(v, vn, "yes"))
        return opt_error(c, v, "custom wants yes");
    ((struct args *)arg)->custom++;
    return 0;
}

static const char *const WORDS[] = {"zero", "one", "two", NULL};

static const struct opt_param P[] = {
    {.name = "flag", .type = PT_FLAG, PARAM_AT(struct args, flag)},
    {.name = "word", .type = PT_ENUM, .words = WORDS, PARAM_AT(struct args, word)},
    {.name = "small", .type = PT_NUM, .lo = 1, .hi = 1000, PARAM_AT(struct args, small)},
    {.name = "num", .type = PT_NUM, .flags = P_REQUIRED, .lo = 0, .hi = UINT32_MAX,
     PARAM_AT(struct args, num)},
    {.name = "neg", .type = PT_NUM, .lo = -5, .hi = 5, .what = "value",
     PARAM_AT(struct args, neg)},
    {.name = "big", .type = PT_NUM, .lo = 0, .hi = INT64_MAX, PARAM_AT(struct args, big)},
    {.name = "name", .type = PT_NAME, .flags = P_REPEAT, .what = "a name"},
    {.name = "str", .type = PT_STRING},
    {.name = "custom", .type = PT_CUSTOM, .flags = P_REPEAT | P_UNLISTED, .parse = custom},
};
static const struct opt_params SPEC = {OPT_PARAMS(P), .item = "field"};

static const struct opt_def DEF = {"kw", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, NULL, true, NULL};

static struct arena ar;
static struct rule_ctx C;
static struct args A;
static uint32_t seen;

/* Parse text with spec; 0 or -1. The message (without "kw: ") is in C.syntax.msg. */
static int run(const struct opt_params *spec, const char *text)
{
    memset(&C, 0, sizeof C);
    memset(&A, 0, sizeof A);
    C.def = &DEF;
    C.ar = &ar;
    seen = 0;
    return opt_params_parse(&C, text, spec, &A, &seen);
}

static bool said(const char *msg)
{
    bool ok = C.syntax.set && !strcmp(C.syntax.msg + strlen("kw: "), msg);
    if (!ok)
        fprintf(stderr, "  got: %s\n", C.syntax.set ? C.syntax.msg : "(no error)");
    return ok;
}

static void values(void)
{
    CHECK(run(&SPEC, "num 7") == 0 && A.num == 7 && seen == 1u << 3);
    CHECK(run(&SPEC, "flag, word two, small 1000, num 4294967295, neg -5, big 9000000000, "
                     "name a.b-c_d, str \"x y\", custom yes") == 0);
    CHECK(A.flag && A.word == 2 && A.small == 1000 && A.num == UINT32_MAX && A.neg == -5 &&
          A.big == 9000000000 && A.custom == 1);
    CHECK(seen == 0x1ff);
    /* any order, spaces around items */
    CHECK(run(&SPEC, "  neg 5 ,num 0") == 0 && A.neg == 5 && A.num == 0);
    /* repeatable keys */
    CHECK(run(&SPEC, "num 1, name a, name b, custom yes, custom yes") == 0 && A.custom == 2);
}

static void errors(void)
{
    CHECK(run(&SPEC, "flag") < 0 && said("missing 'num'"));
    CHECK(run(&SPEC, "num 1, num 2") < 0 && said("'num' given twice"));
    CHECK(run(&SPEC, "num 1, flag, flag") < 0 && said("'flag' given twice"));
    CHECK(run(&SPEC, "num 1, color red") < 0 && said("unknown field 'color'"));
    CHECK(run(&SPEC, "num 1, flag 3") < 0 && said("unexpected '3'"));
    CHECK(run(&SPEC, "num 1, small 0") < 0 && said("small 0 out of range 1..1000"));
    CHECK(run(&SPEC, "num 1, neg 6") < 0 && said("value 6 out of range -5..5"));
    CHECK(run(&SPEC, "num x") < 0 && C.syntax.set);
    CHECK(run(&SPEC, "num 1, word three") < 0 &&
          said("unknown word 'three' (expected one of: zero, one, two)"));
    CHECK(run(&SPEC, "num 1, name") < 0 && said("name needs a name"));
    CHECK(run(&SPEC, "num 1, name a/b") < 0 && said("name needs a name"));
    CHECK(run(&SPEC, "num 1, str \"x\" y") < 0 && said("unexpected text after the string"));
    CHECK(run(&SPEC, "num 1, custom no") < 0 && said("custom wants yes"));
    CHECK(run(&SPEC, "num 1,, flag") < 0 && said("unknown field ''"));
    /* the first error stops the parse: nothing after it is read */
    CHECK(run(&SPEC, "small 0, num 1, custom yes") < 0 && A.custom == 0);
}

static void styles(void)
{
    const struct opt_params list = {OPT_PARAMS(P), .item = "argument", .unknown = PU_LIST,
                                    .empty = "empty argument", .missing = "needs num"};
    CHECK(run(&list, "num 1, color red") < 0 &&
          said("unknown argument 'color' (flag, word, small, num, neg, big, name, str)"));
    CHECK(run(&list, "num 1, , flag") < 0 && said("empty argument"));
    CHECK(run(&list, "flag") < 0 && said("needs num"));
    const struct opt_params choice = {OPT_PARAMS(P), .item = "check", .unknown = PU_CHOICE};
    CHECK(run(&choice, "num 1, color") < 0 &&
          said("unknown check 'color' (expected one of: flag, word, small, num, neg, big, "
               "name, str)"));
}

/* items separated by commas or spaces, a value the next word after spaces (asn1) */
static void words(void)
{
    const struct opt_params w = {OPT_PARAMS(P), .item = "check", .unknown = PU_CHOICE,
                                 .words = true};
    CHECK(run(&w, "flag num 5 neg -2") == 0 && A.flag && A.num == 5 && A.neg == -2);
    CHECK(run(&w, "num 5,flag, small 3") == 0 && A.flag && A.small == 3);
    CHECK(run(&w, "num 5,,flag") < 0 && said("empty item"));
    CHECK(run(&w, "num 5, flag,") < 0 && said("empty item"));
    CHECK(run(&w, "num") < 0 && said("num needs a number"));
    CHECK(run(&w, "num, 5") < 0 && said("num needs a number"));
    CHECK(run(&w, "flag 1, num 2") < 0 && said("unexpected '1'"));
    CHECK(run(&w, "num 1 num 2") < 0 && said("'num' given twice"));
    CHECK(run(&w, "num 1 colour") < 0 &&
          said("unknown check 'colour' (expected one of: flag, word, small, num, neg, big, "
               "name, str)"));
}

/* a keyword that keeps nothing passes no argument struct (file_meta) */
static void nothing_kept(void)
{
    static const struct opt_param KEYS[] = {
        {.name = "flag", .type = PT_FLAG},
        {.name = "id", .type = PT_NUM, .flags = P_REQUIRED, .lo = 1, .hi = 9},
        {.name = "kind", .type = PT_ENUM, .words = WORDS},
        {.name = "s", .type = PT_STRING},
    };
    static const struct opt_params spec = {OPT_PARAMS(KEYS), .item = "field"};
    memset(&C, 0, sizeof C);
    C.def = &DEF;
    C.ar = &ar;
    CHECK(opt_params_parse(&C, "flag, id 3, kind one, s \"x\"", &spec, NULL, &seen) == 0);
    CHECK(seen == 0xf);
}

int main(void)
{
    arena_init(&ar);
    values();
    errors();
    styles();
    words();
    nothing_kept();
    arena_free(&ar);
    return unit_report("test_params");
}
