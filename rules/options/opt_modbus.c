/* opt_modbus.c — Suricata 8's `modbus:` keyword, comparisons on the Modbus parser's fields of
 * the request in force (all must hold; the parser's modbus.request row, det_unit_field each):
 *
 *   modbus: function <N> [, subfunction <N>]
 *   modbus: function [!]assigned|unassigned|public|user|reserved|all
 *   modbus: access read|write [discretes|coils|input|holding] [, address <cmp>] [, value <cmp>]
 *   modbus: unit <cmp> [, function … | , access …]
 *
 * An address holds when any address the request reads (or writes) compares true; a value
 * (after a single address) is what the request writes there: a single write's (functions 5,
 * 6) or a register of a multiple write's (16, 23). <cmp> is Suricata's integer syntax (N, <N,
 * >N, A<>B). A function code is 1-255. */
#include <ctype.h>
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"

static struct opt_cmp *add(struct rule_ctx *c, struct opt_fields *x, const char *field)
{
    if (x->n == OPT_FIELDS_MAX) {
        opt_error(c, field, "too many settings");
        return NULL;
    }
    x->f[x->n].field = osprey_field_find(field);
    return &x->f[x->n++].cm;
}

static const char *skip(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* the word at s (letters), its length */
static size_t word(const char *s)
{
    size_t n = 0;
    while (isalpha((unsigned char)s[n]))
        n++;
    return n;
}

static bool is(const char *w, size_t n, const char *name)
{
    return n == strlen(name) && !strncasecmp(w, name, n);
}

static int function(struct rule_ctx *c, struct opt_fields *x, const char *v, size_t vn)
{
    bool neg = vn && *v == '!';
    const char *w = neg ? skip(v + 1) : v;
    size_t wn = vn - (size_t)(w - v);
    if (wn && isalpha((unsigned char)*w)) {
        struct opt_cmp *cm = add(c, x, "modbus.category");
        if (!cm)
            return -1;
        /* categories: 1 assigned, 2 unassigned (public: both), 3 user, 4 reserved */
        if (is(w, wn, "assigned") || is(w, wn, "unassigned") || is(w, wn, "user") ||
            is(w, wn, "reserved")) {
            cm->op = neg ? CMP_NE : CMP_EQ;
            cm->lo = is(w, wn, "assigned") ? 1 : is(w, wn, "unassigned") ? 2
                     : is(w, wn, "user") ? 3 : 4;
        } else if (is(w, wn, "public")) {
            *cm = neg ? (struct opt_cmp){.op = CMP_OUTSIDE, .lo = 0, .hi = 3}
                      : (struct opt_cmp){.op = CMP_RANGE_INCL, .lo = 1, .hi = 2};
        } else if (is(w, wn, "all") && !neg) {
            *cm = (struct opt_cmp){.op = CMP_GE, .lo = 1};
        } else {
            return opt_error(c, w, "unknown function '%.*s' (a number, assigned, unassigned, "
                             "public, user, reserved, all)", (int)wn, w);
        }
        return 0;
    }
    struct opt_cmp *cm = add(c, x, "modbus.function");
    return cm ? parse_cmp(c, v, vn, 1, 255, CMP_DASH_EXCL, cm) : -1;
}

/* "read|write [table]": returns 1 read, 2 write, 0 on error */
static int access(struct rule_ctx *c, struct opt_fields *x, const char *v, size_t vn)
{
    size_t an = word(v);
    int rw = is(v, an, "read") ? 1 : is(v, an, "write") ? 2 : 0;
    if (!rw) {
        opt_error(c, v, "access needs read or write");
        return 0;
    }
    const char *t = skip(v + an);
    size_t tn = vn - (size_t)(t - v);
    struct opt_cmp *cm = add(c, x, rw == 1 ? "modbus.read_table" : "modbus.write_table");
    if (!cm)
        return 0;
    if (!tn) {
        *cm = (struct opt_cmp){.op = CMP_GE, .lo = 1};
        return rw;
    }
    static const char *const TABLES[] = {"discretes", "coils", "input", "holding", NULL};
    for (int i = 0; TABLES[i]; i++)
        if (is(t, tn, TABLES[i])) {
            if (rw == 2 && i != 1 && i != 3) {
                opt_error(c, t, "only coils and holding registers are written");
                return 0;
            }
            *cm = (struct opt_cmp){.op = CMP_EQ, .lo = i + 1};
            return rw;
        }
    opt_error(c, t, "unknown table '%.*s' (discretes, coils, input, holding)", (int)tn, t);
    return 0;
}

/* value <cmp> after a single address A: the value written at A, on the parser's
 * modbus.write_value (A << 16 | value per register written) as a range within A's */
static int value(struct rule_ctx *c, struct opt_fields *x, const char *v, size_t vn)
{
    const struct opt_cmp *a = x->n ? &x->f[x->n - 1].cm : NULL;
    if (!a || x->f[x->n - 1].field != osprey_field_find("modbus.write_address") ||
        a->op != CMP_EQ)
        return opt_error(c, v, "value needs a single address before it");
    int64_t base = a->lo << 16;
    struct opt_cmp cm;
    if (parse_cmp(c, v, vn, 0, 65535, CMP_DASH_EXCL, &cm))
        return -1;
    struct opt_cmp *out = add(c, x, "modbus.write_value");
    if (!out)
        return -1;
    switch (cm.op) {
    case CMP_EQ: *out = (struct opt_cmp){.op = CMP_EQ, .lo = base | cm.lo}; break;
    case CMP_LT: *out = (struct opt_cmp){.op = CMP_RANGE, .lo = base - 1, .hi = base | cm.lo}; break;
    case CMP_LE: *out = (struct opt_cmp){.op = CMP_RANGE_INCL, .lo = base, .hi = base | cm.lo}; break;
    case CMP_GT: *out = (struct opt_cmp){.op = CMP_RANGE, .lo = base | cm.lo, .hi = base + 0x10000}; break;
    case CMP_GE: *out = (struct opt_cmp){.op = CMP_RANGE_INCL, .lo = base | cm.lo, .hi = base | 0xffff}; break;
    case CMP_RANGE: *out = (struct opt_cmp){.op = CMP_RANGE, .lo = base | cm.lo, .hi = base | cm.hi}; break;
    case CMP_RANGE_INCL: *out = (struct opt_cmp){.op = CMP_RANGE_INCL, .lo = base | cm.lo, .hi = base | cm.hi}; break;
    default: return opt_error(c, v, "value takes N, <N, >N or A<>B");
    }
    return 0;
}

static int parse_modbus(struct rule_ctx *c, char *val)
{
    struct opt_fields *x = opt_arg_new(c, sizeof *x);
    if (!x)
        return -1;
    int rw = 0;
    bool fn = false, acc = false, unit = false;
    const char *p = val;
    while (*(p = skip(p))) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        while (n && isspace((unsigned char)p[n - 1]))
            n--;
        size_t kn = word(p);
        const char *v = skip(p + kn);
        size_t vn = n - (size_t)(v - p);
        if (is(p, kn, "function") && !fn && !acc) {
            if (function(c, x, v, vn))
                return -1;
            fn = true;
        } else if (is(p, kn, "subfunction") && fn) {
            struct opt_cmp *cm = add(c, x, "modbus.subfunction");
            if (!cm || parse_cmp(c, v, vn, 0, 65535, CMP_DASH_EXCL, cm))
                return -1;
        } else if (is(p, kn, "access") && !fn && !acc) {
            if (!(rw = access(c, x, v, vn)))
                return -1;
            acc = true;
        } else if (is(p, kn, "address") && acc) {
            struct opt_cmp *cm = add(c, x, rw == 1 ? "modbus.read_address"
                                                   : "modbus.write_address");
            if (!cm || parse_cmp(c, v, vn, 0, 65535, CMP_DASH_EXCL, cm))
                return -1;
        } else if (is(p, kn, "value") && acc && rw == 2) {
            if (value(c, x, v, vn))
                return -1;
        } else if (is(p, kn, "unit") && !unit) {
            struct opt_cmp *cm = add(c, x, "modbus.unit");
            if (!cm || parse_cmp(c, v, vn, 0, 255, CMP_DASH_EXCL, cm))
                return -1;
            unit = true;
        } else {
            return opt_error(c, p, "unexpected '%.*s' (function, subfunction, access, "
                             "address, value, unit)", (int)n, p);
        }
        p = end ? end + 1 : p + strlen(p);
    }
    if (!x->n)
        return opt_error(c, val, "needs function, access or unit");
    return 0;
}

static const struct opt_def DEFS[] = {
    {"modbus", OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_MODBUS_REQUEST, parse_modbus, true, NULL},
};
OPT_TABLE(opt_table_modbus, DEFS);
