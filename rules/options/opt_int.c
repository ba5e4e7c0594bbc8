/* opt_int.c — the argument of Suricata's integer keywords on a parsers' field (OPT_INT_PARSER,
 * opt_util.h): a comparison, a named value, named flags or a bitmask, as the row's forms
 * allow, into a struct opt_cmp (CMP_MASK for flags and bitmasks: hi the bits tested, lo the
 * bits wanted). The field is the keyword's name; its named values are the parser's
 * (osprey_field_value), so a protocol's names need no edit here. */
#include <ctype.h>
#include <string.h>

#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"
#include "rule.h"

bool opt_field_named(const char *field, const char *s, size_t n, int64_t *v)
{
    char w[48];
    int fld = osprey_field_find(field);
    if (fld < 0 || n == 0 || n >= sizeof w)
        return false;
    for (size_t i = 0; i < n; i++)
        w[i] = (char)tolower((unsigned char)s[i]);
    w[n] = 0;
    return osprey_field_value((uint16_t)fld, w, v);
}

static const char *trim(const char *v, size_t *n)
{
    while (isspace((unsigned char)*v))
        v++;
    *n = strlen(v);
    while (*n && isspace((unsigned char)v[*n - 1]))
        (*n)--;
    return v;
}

/* "&M=V": the bits of M equal V */
static int parse_bitmask(struct rule_ctx *c, const char *v, size_t n, int64_t max,
                         struct opt_cmp *cm)
{
    const char *eq = memchr(v, '=', n);
    int64_t m, want;
    if (!eq)
        return opt_error(c, v, "'&MASK=VALUE' wanted");
    if (parse_num(c, v + 1, (size_t)(eq - v - 1), 0, max, true, &m, "mask") < 0 ||
        parse_num(c, eq + 1, n - (size_t)(eq + 1 - v), 0, max, true, &want, "value") < 0)
        return -1;
    cm->op = CMP_MASK;
    cm->hi = m;
    cm->lo = want;
    return 0;
}

/* "[!]flag, [!]flag …" of the field's named bits */
static int parse_flags(struct rule_ctx *c, const char *v, size_t n, const char *field,
                       const struct opt_int_form *form, struct opt_cmp *cm)
{
    cm->op = CMP_MASK;
    struct list_iter it;
    const char *item;
    size_t k;
    list_init(&it, v, n, ',');
    while (list_next(&it, &item, &k)) {
        bool neg = k && *item == '!';
        int64_t bit;
        if (!opt_field_named(field, item + neg, k - neg, &bit))
            return opt_error(c, item, "unknown %s '%.*s'%s", form->noun, (int)k, item,
                             form->hint);
        if (cm->hi & bit)
            return opt_error(c, item, "%s '%.*s' named twice", form->noun, (int)(k - neg),
                             item + neg);
        cm->hi |= bit;
        if (!neg)
            cm->lo |= bit;
    }
    if (!cm->hi)
        return opt_error(c, v, "no %s", form->noun);
    return 0;
}

int opt_parse_int(struct rule_ctx *c, char *val, const struct opt_int_form *form)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    size_t n;
    const char *v = trim(val, &n);
    bool neg = n && *v == '!';
    if ((form->forms & INT_BITMASK) && n && *v == '&')
        return parse_bitmask(c, v, n, form->max, cm);
    bool word = n > (size_t)neg && isalpha((unsigned char)v[neg]);
    if (!(form->forms & INT_CMP) || (word && (form->forms & INT_FLAGS)))
        return parse_flags(c, v, n, c->def->name, form, cm);
    if (word && (form->forms & INT_NAMES)) {
        int64_t x;
        if (!opt_field_named(c->def->name, v + neg, n - neg, &x))
            return opt_error(c, v + neg, "unknown %s '%.*s'%s", form->noun, (int)(n - neg),
                             v + neg, form->hint);
        cm->op = neg ? CMP_NE : CMP_EQ;
        cm->lo = x;
        return 0;
    }
    return parse_cmp(c, val, strlen(val), 0, form->max, CMP_DASH_EXCL, cm);
}
