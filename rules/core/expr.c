/* expr.c — evaluation of address and port expressions (grammar and meaning in expr.h). */
#include "expr.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "osprey_cidr.h"
#include "text.h"

#define MAX_DEPTH 32

static const struct osprey_ip_range ANY_IP_RANGE = {{0, 0}, {UINT64_MAX, UINT64_MAX}};
const struct osprey_ip_set expr_any_ip = {1, &ANY_IP_RANGE};
static const struct osprey_port_range ANY_PORT_RANGE = {0, 65535};
const struct osprey_port_set expr_any_port = {1, &ANY_PORT_RANGE};

static const u128 U0 = {0, 0};
static const u128 UMAX = {UINT64_MAX, UINT64_MAX};
static const u128 PORT_MAX = {0, 65535};

struct ectx {
    struct vars *vs;
    struct arena *tmp;
    bool is_port;
    const char *end;
    struct expr_err *err;
    int depth;
};

static int fail(struct ectx *e, const char *pos, bool semantic, const char *key, const char *fmt,
                ...) __attribute__((format(printf, 5, 6)));

static int fail(struct ectx *e, const char *pos, bool semantic, const char *key, const char *fmt,
                ...)
{
    if (e->err->msg[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->err->msg, sizeof e->err->msg, fmt, ap);
        va_end(ap);
        snprintf(e->err->key, sizeof e->err->key, "%s", key);
        e->err->pos = pos;
        e->err->semantic = semantic;
    }
    return -1;
}

static int oom(struct ectx *e)
{
    return fail(e, NULL, true, "out of memory", "out of memory");
}

static const char *what(const struct ectx *e)
{
    return e->is_port ? "port" : "address";
}

static int full(struct ectx *e, struct rset *s)
{
    return rset_full(e->tmp, s, U0, e->is_port ? PORT_MAX : UMAX) < 0 ? oom(e) : 0;
}

static int eval_expr(struct ectx *e, const char **pp, struct rset *out);

static const char *syntax_key(const struct ectx *e)
{
    return e->is_port ? "syntax error in port" : "syntax error in address";
}

/* --- literals ---------------------------------------------------------------------------- */

/* An address or block as a 128-bit number: IPv4 as ::ffff:a.b.c.d. */
static void cidr_u128(const struct osprey_cidr *c, u128 *out, bool *v4)
{
    unsigned char b[16];
    *v4 = c->ipver == 4;
    if (*v4) {
        memset(b, 0, 10);
        b[10] = b[11] = 0xff;
        memcpy(b + 12, c->addr, 4);
    } else {
        memcpy(b, c->addr, 16);
    }
    uint64_t hi = 0, lo = 0;
    for (int i = 0; i < 8; i++) {
        hi = hi << 8 | b[i];
        lo = lo << 8 | b[8 + i];
    }
    out->hi = hi;
    out->lo = lo;
}

/* inet_pton(AF_INET) wants exactly four decimal parts; Snort and Suricata too. */
static int parse_ip(const char *s, size_t n, u128 *out, bool *v4)
{
    struct osprey_cidr c;
    if (osprey_ip_parse(s, n, &c) < 0)
        return -1;
    cidr_u128(&c, out, v4);
    return 0;
}

/* Mask with the top `bits` bits set. */
static u128 prefix_mask(unsigned bits)
{
    u128 m = {0, 0};
    if (bits >= 64) {
        m.hi = UINT64_MAX;
        m.lo = bits >= 128 ? UINT64_MAX : ~(UINT64_MAX >> (bits - 64));
    } else if (bits > 0) {
        m.hi = ~(UINT64_MAX >> bits);
    }
    return m;
}

static int addr_literal(struct ectx *e, const char *s, size_t n, struct rset *out)
{
    const char *dash = memchr(s, '-', n), *slash = memchr(s, '/', n);
    u128 lo, hi;
    bool v4, v4b;
    if (dash) {
        if (parse_ip(s, (size_t)(dash - s), &lo, &v4) < 0 ||
            parse_ip(dash + 1, (size_t)(s + n - dash - 1), &hi, &v4b) < 0)
            return fail(e, s, false, "syntax error in address", "invalid address range '%.*s'",
                        (int)n, s);
        if (v4 != v4b || u128_cmp(lo, hi) > 0)
            return fail(e, s, false, "syntax error in address",
                        "address range '%.*s' is empty or mixes IPv4 and IPv6", (int)n, s);
    } else {
        size_t an = slash ? (size_t)(slash - s) : n;
        /* a prefix length or, after an IPv4 address, a dotted netmask of contiguous ones */
        struct osprey_cidr c;
        int rc = osprey_cidr_parse(s, n, OSPREY_CIDR_NETMASK, &c);
        const char *m = slash ? slash + 1 : s + n;
        size_t mn = (size_t)(s + n - m);
        if (rc == OSPREY_CIDR_EADDR)
            return fail(e, s, false, "syntax error in address", "invalid address '%.*s'",
                        (int)an, s);
        if (rc == OSPREY_CIDR_ENETMASK)
            return fail(e, m, false, "syntax error in address", "invalid netmask '%.*s'",
                        (int)mn, m);
        if (rc == OSPREY_CIDR_EGAPS)
            return fail(e, m, false, "syntax error in address",
                        "netmask '%.*s' is not contiguous", (int)mn, m);
        if (rc < 0)
            return fail(e, m, false, "syntax error in address",
                        "invalid prefix length '/%.*s' (0..%d)", (int)mn, m,
                        c.ipver == 4 ? 32 : 128);
        cidr_u128(&c, &lo, &v4);
        hi = lo;
        if (slash) {
            unsigned total = c.prefix + (v4 ? 96u : 0u);
            u128 mask = prefix_mask(total);
            lo.hi &= mask.hi;
            lo.lo &= mask.lo;
            hi.hi = lo.hi | ~mask.hi;
            hi.lo = lo.lo | ~mask.lo;
        }
    }
    return rset_add(e->tmp, out, lo, hi) < 0 ? oom(e) : 0;
}

static int port_literal(struct ectx *e, const char *s, size_t n, struct rset *out)
{
    const char *colon = memchr(s, ':', n);
    uint64_t lo = 0, hi = 65535;
    if (colon) {
        size_t ln = (size_t)(colon - s), hn = n - ln - 1;
        if ((ln == 0 && hn == 0) || (ln && !slice_u64(s, ln, false, 65535, &lo)) ||
            (hn && !slice_u64(colon + 1, hn, false, 65535, &hi)))
            return fail(e, s, false, "syntax error in port",
                        "invalid port range '%.*s' (ports are 0..65535)", (int)n, s);
        if (lo > hi)
            return fail(e, s, false, "syntax error in port", "port range '%.*s' is reversed",
                        (int)n, s);
    } else {
        if (!slice_u64(s, n, false, 65535, &lo))
            return fail(e, s, false, "syntax error in port",
                        "invalid port '%.*s' (ports are 0..65535)", (int)n, s);
        hi = lo;
    }
    return rset_add(e->tmp, out, (u128){0, lo}, (u128){0, hi}) < 0 ? oom(e) : 0;
}

/* --- variables --------------------------------------------------------------------------- */

static int resolve(struct ectx *outer, struct rule_var *v, const char *usepos)
{
    if (v->state == VAR_OK)
        return 0;
    if (v->state == VAR_BAD)
        return fail(outer, usepos, true, "invalid variable", "variable $%s is invalid: %s",
                    v->name, v->error);
    if (v->state == VAR_RESOLVING)
        return fail(outer, usepos, true, "invalid variable", "variable $%s refers to itself",
                    v->name);
    if (outer->depth > MAX_DEPTH)
        return fail(outer, usepos, true, "invalid variable", "variables nested too deeply");
    v->state = VAR_RESOLVING;
    struct expr_err err;
    memset(&err, 0, sizeof err);
    struct ectx e = {outer->vs, &outer->vs->ar, v->is_port, NULL, &err, outer->depth + 1};
    const char *p = v->value;
    e.end = p + strlen(p);
    struct rset s = {0};
    int rc = eval_expr(&e, &p, &s);
    if (rc == 0 && skip_ws(p, e.end) != e.end)
        rc = fail(&e, p, false, "", "unexpected '%s'", p);
    if (rc == 0 && s.n == 0)
        rc = fail(&e, v->value, false, "", "%s '%s' matches nothing", what(&e), v->value);
    if (rc < 0) {
        v->state = VAR_BAD;
        v->error = arena_strdup(&outer->vs->ar, err.msg);
        if (v->error == NULL)
            v->error = "out of memory";
        return fail(outer, usepos, true, "invalid variable", "variable $%s is invalid: %s",
                    v->name, v->error);
    }
    v->set = s;
    v->state = VAR_OK;
    return 0;
}

int expr_resolve_var(struct vars *vs, struct arena *tmp, struct rule_var *v)
{
    struct expr_err err;
    memset(&err, 0, sizeof err);
    struct ectx e = {vs, tmp, v->is_port, NULL, &err, 0};
    return resolve(&e, v, NULL);
}

/* --- the grammar ------------------------------------------------------------------------- */

static bool delim(char c)
{
    return c == ',' || c == ']' || c == '[' || is_space(c);
}

static int eval_item(struct ectx *e, const char **pp, struct rset *out, bool *negated);

/* Items separated by ',' up to `closer` (']' or, at the top level, the end). Positives are
 * united, negated items subtracted; a list of negated items only starts from `any`. */
static int eval_list(struct ectx *e, const char **pp, char closer, const char *open,
                     struct rset *out)
{
    const char *p = *pp;
    struct rset pos = {0}, neg = {0};
    uint32_t npos = 0, nneg = 0;
    for (;;) {
        struct rset s;
        bool ng;
        p = skip_ws(p, e->end);
        if (closer && p < e->end && *p == closer && npos + nneg == 0)
            return fail(e, open, false, syntax_key(e), "empty list");
        if (eval_item(e, &p, &s, &ng) < 0)
            return -1;
        if (ng)
            nneg++;
        else
            npos++;
        struct rset *acc = ng ? &neg : &pos;
        if (rset_union(e->tmp, acc, &s, acc) < 0)
            return oom(e);
        p = skip_ws(p, e->end);
        if (p < e->end && *p == ',') {
            p++;
            continue;
        }
        if (closer == 0 && p >= e->end)
            break;
        if (closer && p < e->end && *p == closer) {
            p++;
            break;
        }
        if (closer == 0)
            return fail(e, p, false, syntax_key(e), "unexpected '%.*s'", (int)(e->end - p), p);
        return fail(e, p < e->end ? p : open, false, syntax_key(e),
                    p < e->end ? "expected ',' or ']' in list" : "missing ']'");
    }
    if (npos == 0 && full(e, &pos) < 0)
        return -1;
    if (rset_subtract(e->tmp, &pos, &neg, out) < 0)
        return oom(e);
    *pp = p;
    return 0;
}

static int eval_item(struct ectx *e, const char **pp, struct rset *out, bool *negated)
{
    const char *p = skip_ws(*pp, e->end);
    *negated = false;
    if (p < e->end && *p == '!') {
        *negated = true;
        p = skip_ws(p + 1, e->end);
        if (p < e->end && *p == '!')
            return fail(e, p, false, syntax_key(e), "double negation");
    }
    memset(out, 0, sizeof *out);
    if (p >= e->end)
        return fail(e, p, false, syntax_key(e), "missing %s", what(e));
    if (*p == '[') {
        if (++e->depth > MAX_DEPTH)
            return fail(e, p, false, syntax_key(e), "lists nested too deeply");
        const char *open = p++;
        if (eval_list(e, &p, ']', open, out) < 0)
            return -1;
        e->depth--;
    } else if (*p == '$') {
        const char *name = ++p;
        while (p < e->end && (is_alpha(*p) || is_digit(*p) || *p == '_'))
            p++;
        size_t n = (size_t)(p - name);
        if (n == 0)
            return fail(e, name - 1, false, "syntax error in variable", "'$' without a name");
        if (p < e->end && !delim(*p))
            return fail(e, p, false, "syntax error in variable",
                        "invalid character '%c' in variable name", *p);
        struct rule_var *v = vars_find(e->vs, e->is_port, name, n);
        if (v == NULL) {
            if (vars_find(e->vs, !e->is_port, name, n))
                return fail(e, name - 1, true, "unknown variable",
                            "$%.*s is %s variable, used as %s", (int)n, name,
                            e->is_port ? "an address" : "a port", what(e));
            return fail(e, name - 1, true, "unknown variable", "unknown variable $%.*s", (int)n,
                        name);
        }
        if (resolve(e, v, name - 1) < 0)
            return -1;
        *out = v->set;
    } else {
        const char *tok = p;
        while (p < e->end && !delim(*p))
            p++;
        size_t n = (size_t)(p - tok);
        if (n == 0 && (*tok == ',' || *tok == ']'))
            return fail(e, tok, false, syntax_key(e), "missing %s before '%c'", what(e), *tok);
        if (n == 0)
            return fail(e, tok, false, syntax_key(e), "unexpected '%c'", *tok);
        if (slice_ieq(tok, n, "any")) {
            if (full(e, out) < 0)
                return -1;
        } else if (e->is_port ? port_literal(e, tok, n, out) < 0
                              : addr_literal(e, tok, n, out) < 0) {
            return -1;
        }
    }
    *pp = p;
    return 0;
}

/* The top level is a list without brackets: one item, or Suricata's "80,443" / "!80,!443". */
static int eval_expr(struct ectx *e, const char **pp, struct rset *out)
{
    return eval_list(e, pp, 0, *pp, out);
}

int expr_eval(struct vars *vs, struct arena *tmp, bool is_port, const char *s, size_t n,
              struct rset *out, struct expr_err *err)
{
    memset(err, 0, sizeof *err);
    struct ectx e = {vs, tmp, is_port, s + n, err, 0};
    const char *p = s;
    if (eval_expr(&e, &p, out) < 0)
        return -1;
    p = skip_ws(p, e.end);
    if (p != e.end)
        return fail(&e, p, false, is_port ? "syntax error in port" : "syntax error in address",
                    "unexpected '%.*s'", (int)(e.end - p), p);
    if (out->n == 0)
        return fail(&e, s, false, is_port ? "contradictory port" : "contradictory address",
                    "%s '%.*s' matches nothing", is_port ? "port" : "address", (int)n, s);
    return 0;
}

/* --- AST form ---------------------------------------------------------------------------- */

static bool whole_var(const char *s, size_t n, const char **name, size_t *nn)
{
    if (n < 2 || s[0] != '$')
        return false;
    for (size_t i = 1; i < n; i++)
        if (!(is_alpha(s[i]) || is_digit(s[i]) || s[i] == '_'))
            return false;
    *name = s + 1;
    *nn = n - 1;
    return true;
}

static struct osprey_ip_set *to_ipset(struct arena *a, const struct rset *s)
{
    struct osprey_ip_set *set = arena_alloc(a, sizeof *set);
    struct osprey_ip_range *r = arena_alloc(a, s->n * sizeof *r);
    if (set == NULL || r == NULL)
        return NULL;
    memcpy(r, s->r, s->n * sizeof *r);
    set->n = s->n;
    set->r = r;
    return set;
}

static struct osprey_port_set *to_portset(struct arena *a, const struct rset *s)
{
    struct osprey_port_set *set = arena_alloc(a, sizeof *set);
    struct osprey_port_range *r = arena_alloc(a, s->n * sizeof *r);
    if (set == NULL || r == NULL)
        return NULL;
    for (uint32_t i = 0; i < s->n; i++) {
        r[i].lo = (uint16_t)s->r[i].lo.lo;
        r[i].hi = (uint16_t)s->r[i].hi.lo;
    }
    set->n = s->n;
    set->r = r;
    return set;
}

static void set_oom(struct expr_err *err)
{
    snprintf(err->key, sizeof err->key, "out of memory");
    snprintf(err->msg, sizeof err->msg, "out of memory");
    err->semantic = true;
}

const struct osprey_ip_set *expr_ipset(struct vars *vs, struct arena *ast, struct arena *tmp,
                                       const char *s, size_t n, struct expr_err *err)
{
    const char *name;
    size_t nn;
    if (slice_ieq(s, n, "any")) {
        memset(err, 0, sizeof *err);
        return &expr_any_ip;
    }
    struct rule_var *known;
    if (whole_var(s, n, &name, &nn) && (known = vars_find(vs, false, name, nn)) &&
        known->ipset) {
        /* $HOME_NET again: resolved for an earlier rule (its set is the variable's until
         * vars_set changes it); most rules name a variable, and evaluating it anew was 5 % of
         * the startup */
        memset(err, 0, sizeof *err);
        return known->ipset;
    }
    struct rset set;
    if (expr_eval(vs, tmp, false, s, n, &set, err) < 0)
        return NULL;
    if (whole_var(s, n, &name, &nn)) {
        struct rule_var *v = vars_find(vs, false, name, nn);
        if (v->ipset == NULL && (v->ipset = to_ipset(&vs->ar, &v->set)) == NULL)
            return set_oom(err), NULL;
        return v->ipset;
    }
    const struct osprey_ip_set *r = to_ipset(ast, &set);
    if (r == NULL)
        set_oom(err);
    return r;
}

const struct osprey_port_set *expr_portset(struct vars *vs, struct arena *ast,
                                           struct arena *tmp, const char *s, size_t n,
                                           struct expr_err *err)
{
    const char *name;
    size_t nn;
    if (slice_ieq(s, n, "any")) {
        memset(err, 0, sizeof *err);
        return &expr_any_port;
    }
    struct rule_var *known;
    if (whole_var(s, n, &name, &nn) && (known = vars_find(vs, true, name, nn)) &&
        known->portset) {
        memset(err, 0, sizeof *err);
        return known->portset;
    }
    struct rset set;
    if (expr_eval(vs, tmp, true, s, n, &set, err) < 0)
        return NULL;
    if (whole_var(s, n, &name, &nn)) {
        struct rule_var *v = vars_find(vs, true, name, nn);
        if (v->portset == NULL && (v->portset = to_portset(&vs->ar, &v->set)) == NULL)
            return set_oom(err), NULL;
        return v->portset;
    }
    const struct osprey_port_set *r = to_portset(ast, &set);
    if (r == NULL)
        set_oom(err);
    return r;
}
