/* opt_params.c — see opt_params.h. */
#include "opt_params.h"

#include <stdio.h>
#include <string.h>

#include "opt_util.h"
#include "text.h"

static void store(void *arg, const struct opt_param *p, int64_t x)
{
    if (!p->size)
        return; /* not stored (arg may then be NULL: a keyword that keeps nothing) */
    uint8_t *at = (uint8_t *)arg + p->off;
    switch (p->size) {
    case 1: { uint8_t v = (uint8_t)x; memcpy(at, &v, 1); break; }
    case 2: { uint16_t v = (uint16_t)x; memcpy(at, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)x; memcpy(at, &v, 4); break; }
    case 8: memcpy(at, &x, 8); break;
    default: break;
    }
}

/* The key w[0..wn): its index, or -1 after reporting it unknown (at item). */
static int find_key(struct rule_ctx *c, const struct opt_params *spec, const char *item,
                    const char *w, size_t wn)
{
    for (size_t k = 0; k < spec->n; k++)
        if (slice_eq(w, wn, spec->p[k].name))
            return (int)k;
    char known[256] = "";
    for (size_t k = 0; k < spec->n; k++)
        if (!(spec->p[k].flags & P_UNLISTED))
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                     *known ? ", " : "", spec->p[k].name);
    if (spec->unknown == PU_CHOICE)
        return opt_error(c, w, "unknown %s '%.*s' (expected one of: %s)", spec->item, (int)wn,
                         w, known);
    if (spec->unknown == PU_LIST)
        return opt_error(c, item, "unknown %s '%.*s' (%s)", spec->item, (int)wn, w, known);
    return opt_error(c, item, "unknown %s '%.*s'", spec->item, (int)wn, w);
}

/* Key p (written at w) with its value v[0..vn) (vn 0: none). */
static int value(struct rule_ctx *c, const struct opt_param *p, void *arg, const char *w,
                 const char *v, size_t vn)
{
    const char *what = p->what ? p->what : p->name;
    int64_t x;
    switch (p->type) {
    case PT_FLAG:
        if (vn)
            return opt_error(c, v, "unexpected '%.*s'", (int)vn, v);
        store(arg, p, 1);
        return 0;
    case PT_NUM:
        if (parse_num(c, v, vn, p->lo, p->hi, false, &x, what) < 0)
            return -1;
        store(arg, p, x);
        return 0;
    case PT_ENUM: {
        int k = parse_choice(c, v, vn, p->words, what);
        if (k < 0)
            return -1;
        store(arg, p, k);
        return 0;
    }
    case PT_NAME:
        if (!is_name(v, vn, NULL))
            return opt_error(c, w, "%s needs %s", p->name, what);
        return 0;
    case PT_STRING: {
        const uint8_t *s;
        uint32_t sl;
        const char *after;
        if (parse_quoted(c, v, v + vn, 0, &s, &sl, &after) < 0)
            return -1;
        return after != v + vn ? opt_error(c, after, "unexpected text after the string") : 0;
    }
    default:
        return p->parse(c, arg, v, vn);
    }
}

static int mark(struct rule_ctx *c, const struct opt_param *p, int k, const char *w, size_t wn,
                uint32_t *seen)
{
    if ((*seen & (1u << k)) && !(p->flags & P_REPEAT))
        return opt_error(c, w, "'%.*s' given twice", (int)wn, w);
    *seen |= 1u << k;
    return 0;
}

/* "key value, key value …" */
static int by_commas(struct rule_ctx *c, const char *val, const struct opt_params *spec,
                     void *arg, uint32_t *seen)
{
    struct list_iter it;
    const char *item;
    size_t n;
    list_init(&it, val, strlen(val), ',');
    while (list_next(&it, &item, &n)) {
        const char *w, *v;
        size_t wn, vn;
        split_word(item, n, &w, &wn, &v, &vn);
        if (n == 0 && spec->empty)
            return opt_error(c, item, "%s", spec->empty);
        int k = find_key(c, spec, item, w, wn);
        if (k < 0 || mark(c, &spec->p[k], k, w, wn, seen) < 0 ||
            value(c, &spec->p[k], arg, w, v, vn) < 0)
            return -1;
    }
    return 0;
}

/* The next word of s[*at..n): words end at spaces and commas. A comma with no word since
 * the previous one (or the start) makes *empty point at it. */
static bool next_word(const char *s, size_t n, size_t *at, const char **w, size_t *wn,
                      const char **empty)
{
    bool word_since_comma = *at > 0;
    for (; *at < n && (is_space(s[*at]) || s[*at] == ','); (*at)++)
        if (s[*at] == ',') {
            if (!word_since_comma && !*empty)
                *empty = s + *at;
            word_since_comma = false;
        }
    if (*at == n) {
        if (n && !word_since_comma && !*empty)
            *empty = s + n - 1; /* a trailing comma */
        return false;
    }
    *w = s + *at;
    while (*at < n && !is_space(s[*at]) && s[*at] != ',')
        (*at)++;
    *wn = (size_t)(s + *at - *w);
    return true;
}

/* "key key value key value" with commas or spaces between items (asn1) */
static int by_words(struct rule_ctx *c, const char *val, const struct opt_params *spec,
                    void *arg, uint32_t *seen)
{
    size_t n = strlen(val), at = 0;
    const char *w, *v, *empty = NULL;
    size_t wn, vn;
    while (next_word(val, n, &at, &w, &wn, &empty) && !empty) {
        if (is_digit(*w) || *w == '-')
            return opt_error(c, w, "unexpected '%.*s'", (int)wn, w);
        int k = find_key(c, spec, w, w, wn);
        if (k < 0 || mark(c, &spec->p[k], k, w, wn, seen) < 0)
            return -1;
        const struct opt_param *p = &spec->p[k];
        v = NULL, vn = 0;
        if (p->type != PT_FLAG) {
            /* the value follows after spaces (a comma ends the item) */
            size_t sp = at;
            while (sp < n && is_space(val[sp]))
                sp++;
            if (sp == at || sp == n || val[sp] == ',' ||
                !next_word(val, n, &at, &v, &vn, &empty))
                return opt_error(c, w, "%s needs a number", p->name);
        }
        if (value(c, p, arg, w, v, vn) < 0)
            return -1;
    }
    return empty ? opt_error(c, empty, "empty item") : 0;
}

int opt_params_parse(struct rule_ctx *c, const char *val, const struct opt_params *spec,
                     void *arg, uint32_t *seen)
{
    uint32_t given = 0;
    if ((spec->words ? by_words : by_commas)(c, val, spec, arg, &given) < 0)
        return -1;
    if (seen)
        *seen = given;
    for (size_t k = 0; k < spec->n; k++)
        if ((spec->p[k].flags & P_REQUIRED) && !(given & (1u << k)))
            return spec->missing ? opt_error(c, val, "%s", spec->missing)
                                 : opt_error(c, val, "missing '%s'", spec->p[k].name);
    return 0;
}
