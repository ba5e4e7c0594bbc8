/* opt_entropy.c — entropy: [bytes N,] [offset N,] value OP X (Suricata 8), on the buffer in
 * force: the Shannon entropy of its bytes (bits per byte, 0 to 8) from offset, `bytes` of
 * them (all by default), compared with X (a decimal number):
 *   value > 4   >= 4   < 4   <= 4   = 4   != 4   4-5 (4 < H < 5)   !4-5 (outside it)
 * Evaluation: rules/compile/entropy.c.
 */
#include <stdlib.h>
#include <string.h>

#include "opt_params.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

static int parse_float(struct rule_ctx *c, const char *s, size_t n, double *out)
{
    char tmp[32];
    if (n == 0 || n >= sizeof tmp)
        return opt_error(c, s, "expected a number, got '%.*s'", (int)n, s);
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    char *end;
    *out = strtod(tmp, &end);
    if (*end || !(is_digit(tmp[0]) || tmp[0] == '.') || *out < 0 || *out > 8)
        return opt_error(c, s, "expected a number from 0 to 8, got '%.*s'", (int)n, s);
    return 0;
}

/* "OP X", "A-B", "!A-B" */
static int parse_value(struct rule_ctx *c, struct opt_entropy *e, const char *s, size_t n)
{
    const char *end = s + n;
    s = skip_ws(s, end);
    static const char *const OPS[] = {">=", "<=", "!=", ">", "<", "=", NULL};
    static const uint8_t CODE[] = {CMP_GE, CMP_LE, CMP_NE, CMP_GT, CMP_LT, CMP_EQ};
    for (int k = 0; OPS[k]; k++) {
        size_t on = strlen(OPS[k]);
        if ((size_t)(end - s) > on && !memcmp(s, OPS[k], on)) {
            e->op = CODE[k];
            const char *v = skip_ws(s + on, end);
            return parse_float(c, v, (size_t)(end - v), &e->lo);
        }
    }
    if (s < end && *s == '!') {
        e->negated = true;
        s = skip_ws(s + 1, end);
    }
    if (s >= end)
        return opt_error(c, s, "missing value");
    const char *dash = memchr(s + 1, '-', (size_t)(end - s - 1));
    if (dash == NULL) {
        if (e->negated)
            return opt_error(c, s, "'!' goes with a range A-B");
        e->op = CMP_EQ;
        return parse_float(c, s, (size_t)(end - s), &e->lo);
    }
    e->op = CMP_RANGE;
    if (parse_float(c, s, (size_t)(dash - s), &e->lo) < 0 ||
        parse_float(c, dash + 1, (size_t)(end - dash - 1), &e->hi) < 0)
        return -1;
    if (e->lo >= e->hi)
        return opt_error(c, s, "range %.*s matches nothing", (int)(end - s), s);
    return 0;
}

static int value_arg(struct rule_ctx *c, void *arg, const char *v, size_t vn)
{
    return parse_value(c, arg, v, vn);
}

static const struct opt_param ENTROPY[] = {
    {.name = "bytes", .type = PT_NUM, .lo = 1, .hi = 65535, PARAM_AT(struct opt_entropy, bytes)},
    {.name = "offset", .type = PT_NUM, .lo = 0, .hi = 65535,
     PARAM_AT(struct opt_entropy, offset)},
    {.name = "value", .type = PT_CUSTOM, .parse = value_arg},
};

static int parse_entropy(struct rule_ctx *c, char *val)
{
    static const struct opt_params SPEC = {OPT_PARAMS(ENTROPY), .item = "field",
                                           .unknown = PU_LIST};
    struct opt_entropy *e = opt_arg_new(c, sizeof *e);
    if (e == NULL)
        return -1;
    e->op = 0xff; /* no value yet */
    if (opt_params_parse(c, val, &SPEC, e, NULL) < 0)
        return -1;
    if (e->op == 0xff)
        return opt_error(c, val, "needs a value comparison ('value > 4.5')");
    return 0;
}

static const struct opt_def DEFS[] = {
    {"entropy", OPT_PAYLOAD, D_SURI, ARG_REQUIRED, 0, parse_entropy, true, NULL},
};
OPT_TABLE(opt_table_entropy, DEFS);
