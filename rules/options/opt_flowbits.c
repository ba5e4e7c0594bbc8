/* opt_flowbits.c — flowbits, xbits and flowint: state kept across packets.
 *
 *   flowbits:set|setx|unset|toggle|isset|isnotset,NAME[|NAME…|&NAME…][,GROUP];
 *   flowbits:noalert;  flowbits:reset[,GROUP];
 *   xbits:set|unset|toggle|isset|isnotset,NAME,track ip_src|ip_dst|ip_pair|tx[,expire N];
 *   hostbits:set|unset|toggle|isset|isnotset,NAME[,src|dst|both][,expire N];  hostbits:noalert;
 *   flowint:NAME,+|-|=|==|!=|<|>|<=|>=,VALUE|VAR;  flowint:NAME,isset|notset|isnotset;
 *
 * hostbits are xbits on a host (Suricata stores both in its host table): `hostbits:set,x,dst`
 * and `xbits:set,x,track ip_dst` set the same bit; the direction defaults to src.
 */
#include <stdio.h>
#include <string.h>

#include "opt_eval.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

/* Characters a bit name may hold beside letters, digits and '_': Suricata takes any name
 * without spaces, ',', ';', '|' and '&' (EVE metadata uses "traffic/id/NAME" bits). */
#define BIT_NAME_EXTRA "/.-:@+#"

static const char *const OPS[] = {"set", "setx", "unset", "toggle", "isset", "isnotset",
                                  "noalert", "reset", NULL};

/* NAME, or names joined by one kind of separator ('|' any, '&' all). */
static int parse_names(struct rule_ctx *c, struct opt_bits *b, const char *s, size_t n,
                       bool allow_join)
{
    size_t count = 1;
    char join = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '|' || s[i] == '&') {
            if (!allow_join)
                return opt_error(c, s + i, "cannot combine names with '%c' here", s[i]);
            if (join && join != s[i])
                return opt_error(c, s + i, "cannot mix '|' and '&'");
            join = s[i];
            count++;
        }
    }
    b->join = join;
    b->names = arena_alloc(c->ar, count * sizeof *b->names);
    if (b->names == NULL)
        return rule_oom(c);
    const char *p = s, *end = s + n;
    while (p <= end) {
        const char *q = p;
        while (q < end && *q != '|' && *q != '&')
            q++;
        const char *ns = skip_ws(p, q), *ne = rtrim(ns, q);
        if (!is_name(ns, (size_t)(ne - ns), BIT_NAME_EXTRA))
            return opt_error(c, ns, ne > ns ? "invalid name '%.*s'" : "missing name%.*s",
                             (int)(ne - ns), ns);
        if ((b->names[b->n++] = opt_strdup(c, ns, (size_t)(ne - ns))) == NULL)
            return -1;
        p = q + 1;
    }
    return 0;
}

static int parse_flowbits(struct rule_ctx *c, char *val)
{
    struct opt_bits *b = opt_arg_new(c, sizeof *b);
    if (b == NULL)
        return -1;
    const char *f[4];
    size_t fl[4];
    int k = list_split(val, strlen(val), ',', f, fl, 4);
    if (k > 3)
        return opt_error(c, f[3], "too many fields");
    int op = parse_choice(c, f[0], fl[0], OPS, "flowbits operation");
    if (op < 0)
        return -1;
    b->op = (uint8_t)op;
    if (op == BITS_NOALERT) {
        if (k > 1)
            return opt_error(c, f[1], "noalert takes no name");
        return 0;
    }
    if (op == BITS_RESET) {
        /* Snort 2: reset[,GROUP] */
        if (k == 2 && !is_name(f[1], fl[1], NULL))
            return opt_error(c, f[1], "invalid group name");
        if (k > 2)
            return opt_error(c, f[2], "too many fields");
        return 0;
    }
    if (k < 2 || fl[1] == 0)
        return opt_error(c, f[0], "%s needs a flowbit name", OPS[op]);
    bool test = op == BITS_ISSET || op == BITS_ISNOTSET;
    if (parse_names(c, b, f[1], fl[1], true) < 0)
        return -1;
    if (!test && b->join == '|')
        return opt_error(c, f[1], "%s cannot take alternatives ('|')", OPS[op]);
    if (k == 3) {
        if (!is_name(f[2], fl[2], NULL))
            return opt_error(c, f[2], "invalid group name '%.*s'", (int)fl[2], f[2]);
        b->group = opt_strdup(c, f[2], fl[2]);
    }
    return 0;
}

/* The fields xbits and hostbits share: OP,NAME[,more…] with OP set/unset/toggle/isset/
 * isnotset/noalert. The fields after NAME come back through f, fl, k: 1 to parse them, 0 when
 * done (noalert), -1 on error. */
static int parse_host_bits_head(struct rule_ctx *c, char *val, const char *what,
                                struct opt_bits **out, const char **f, size_t *fl, int *k)
{
    static const char *const OPS_X[] = {"set", "unset", "toggle", "isset", "isnotset",
                                        "noalert", NULL};
    static const uint8_t MAP[] = {BITS_SET, BITS_UNSET, BITS_TOGGLE, BITS_ISSET, BITS_ISNOTSET,
                                  BITS_NOALERT};
    struct opt_bits *b = *out = opt_arg_new(c, sizeof *b);
    if (b == NULL)
        return -1;
    *k = list_split(val, strlen(val), ',', f, fl, 5);
    char label[32];
    snprintf(label, sizeof label, "%s operation", what);
    int op = parse_choice(c, f[0], fl[0], OPS_X, label);
    if (op < 0)
        return -1;
    b->op = MAP[op];
    if (b->op == BITS_NOALERT)
        return *k > 1 ? opt_error(c, f[1], "noalert takes nothing more") : 0;
    if (*k < 2 || fl[1] == 0)
        return opt_error(c, val, "%s needs a name", what);
    if (parse_names(c, b, f[1], fl[1], false) < 0)
        return -1;
    return 1;
}

static int parse_xbits(struct rule_ctx *c, char *val)
{
    static const char *const TRACKS[] = {"ip_src", "ip_dst", "ip_pair", "tx", NULL};
    struct opt_bits *b;
    const char *f[5];
    size_t fl[5];
    int k, h = parse_host_bits_head(c, val, "xbits", &b, f, fl, &k);
    if (h <= 0)
        return h;
    if (k < 3)
        return opt_error(c, val, "expected 'OP,NAME,track ip_src|ip_dst|ip_pair[,expire N]'");
    for (int i = 2; i < k; i++) {
        const char *w, *v;
        size_t wn, vn;
        split_word(f[i], fl[i], &w, &wn, &v, &vn);
        if (slice_eq(w, wn, "track")) {
            int t = parse_choice(c, v, vn, TRACKS, "track");
            if (t < 0)
                return -1;
            b->track = (uint8_t)(t + 1);
        } else if (slice_eq(w, wn, "expire")) {
            if (parse_num(c, v, vn, 1, UINT32_MAX, false, &b->expire, "expire") < 0)
                return -1;
        } else {
            return opt_error(c, f[i], "unknown xbits field '%.*s'", (int)wn, w);
        }
    }
    if (b->track == TRACK_NONE)
        return opt_error(c, val, "missing 'track ip_src|ip_dst|ip_pair'");
    return 0;
}

static int parse_hostbits(struct rule_ctx *c, char *val)
{
    static const char *const DIRS[] = {"src", "dst", "both", NULL};
    static const uint8_t DMAP[] = {TRACK_IP_SRC, TRACK_IP_DST, TRACK_IP_BOTH};
    struct opt_bits *b;
    const char *f[5];
    size_t fl[5];
    int k, h = parse_host_bits_head(c, val, "hostbits", &b, f, fl, &k);
    if (h <= 0)
        return h;
    if (k > 4)
        return opt_error(c, f[4], "too many fields");
    b->track = TRACK_IP_SRC;
    for (int i = 2; i < k; i++) {
        const char *w, *v;
        size_t wn, vn;
        split_word(f[i], fl[i], &w, &wn, &v, &vn);
        if (slice_eq(w, wn, "expire")) {
            if (parse_num(c, v, vn, 1, UINT32_MAX, false, &b->expire, "expire") < 0)
                return -1;
        } else if (i == 2) { /* the direction comes first */
            int d = parse_choice(c, f[i], fl[i], DIRS, "hostbits direction");
            if (d < 0)
                return -1;
            b->track = DMAP[d];
        } else {
            return opt_error(c, f[i], "unknown hostbits field '%.*s'", (int)fl[i], f[i]);
        }
    }
    return 0;
}

static int parse_flowint(struct rule_ctx *c, char *val)
{
    static const char *const FOPS[] = {"+", "-", "=", "==", "!=", "<", ">", "<=", ">=",
                                       "isset", "notset", "isnotset", NULL};
    struct opt_flowint *fi = opt_arg_new(c, sizeof *fi);
    if (fi == NULL)
        return -1;
    const char *f[4];
    size_t fl[4];
    int k = list_split(val, strlen(val), ',', f, fl, 4);
    if (k < 2)
        return opt_error(c, val, "expected 'NAME,OPERATOR[,VALUE]'");
    if (!is_name(f[0], fl[0], BIT_NAME_EXTRA))
        return opt_error(c, f[0], "invalid name '%.*s'", (int)fl[0], f[0]);
    fi->name = opt_strdup(c, f[0], fl[0]);
    int op = parse_choice(c, f[1], fl[1], FOPS, "operator");
    if (op < 0)
        return -1;
    snprintf(fi->op, sizeof fi->op, "%.3s", FOPS[op]);
    bool needs_value = op < 9;
    if (k > 3)
        return opt_error(c, f[3], "too many fields");
    if (needs_value != (k == 3))
        return opt_error(c, f[1], needs_value ? "'%s' needs a value" : "'%s' takes no value",
                         FOPS[op]);
    if (needs_value) {
        fi->has_value = true;
        if (is_alpha(f[2][0])) {
            if (!is_name(f[2], fl[2], NULL))
                return opt_error(c, f[2], "invalid variable name");
            fi->value_var = opt_strdup(c, f[2], fl[2]);
        } else if (parse_num(c, f[2], fl[2], 0, UINT32_MAX, false, &fi->value, "value") < 0) {
            return -1;
        }
    }
    return 0;
}

static const struct opt_def DEFS[] = {
    {"flowbits", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_flowbits, true, flowbits_compile_check},
    {"xbits", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_xbits, true, xbits_compile_check},
    {"hostbits", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_hostbits, true, NULL},
    {"flowint", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_flowint, true, NULL},
};
OPT_TABLE(opt_table_flowbits, DEFS);

/* --- compile and evaluate (flowbits here; xbits and flowint in rules/compile/xstate.c) --- */

const char *xbits_compile_check(const void *arg)
{
    const struct opt_bits *b = arg;
    if (b->track == TRACK_TX)
        return "track tx";
    return NULL;
}

const char *flowbits_compile_check(const void *arg)
{
    const struct opt_bits *b = arg;
    if (b->op == BITS_SETX || b->op == BITS_RESET)
        return "setx/reset";
    if (b->group)
        return "a flowbits group";
    return NULL;
}

static bool bit(const uint64_t *bits, uint32_t id)
{
    return (bits[id / 64] >> (id % 64)) & 1;
}

/* isset / isnotset; with '|' any name may hold, with '&' (or one name) all must. */
bool flowbits_test(const struct opt_bits *b, const uint32_t *ids, const uint64_t *bits)
{
    bool want = b->op == BITS_ISSET;
    bool any = b->join == '|';
    for (uint32_t i = 0; i < b->n; i++) {
        bool ok = bit(bits, ids[i]) == want;
        if (any && ok)
            return true;
        if (!any && !ok)
            return false;
    }
    return !any;
}

/* set / unset / toggle (every name given), applied when the whole rule matched. */
void flowbits_apply(const struct opt_bits *b, const uint32_t *ids, uint64_t *bits)
{
    for (uint32_t i = 0; i < b->n; i++) {
        uint64_t m = 1ull << (ids[i] % 64);
        uint64_t *w = &bits[ids[i] / 64];
        if (b->op == BITS_SET)
            *w |= m;
        else if (b->op == BITS_UNSET)
            *w &= ~m;
        else if (b->op == BITS_TOGGLE)
            *w ^= m;
    }
}
