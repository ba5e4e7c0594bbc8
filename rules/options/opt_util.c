/* opt_util.c — shared argument grammar (see opt_util.h). */
#include "opt_util.h"

#include <stdio.h>
#include <string.h>

#include "buffers.h"
#include "text.h"

void *opt_arg_new(struct rule_ctx *c, size_t size)
{
    void *p = arena_zalloc(c->ar, size);
    if (p == NULL) {
        rule_oom(c);
        return NULL;
    }
    c->opt->arg = p;
    return p;
}

void opt_relative_to_previous(struct rule_ctx *c)
{
    if (c->snort3 || c->buffer != BUF_PKT || c->last_payload_opt == NULL)
        return;
    c->opt->buffer = c->last_payload_opt->buffer;
    c->opt->side = c->last_payload_opt->side;
}

const char *opt_strdup(struct rule_ctx *c, const char *s, size_t n)
{
    char *p = arena_strndup(c->ar, s, n);
    if (p == NULL)
        rule_oom(c);
    return p;
}

int parse_quoted(struct rule_ctx *c, const char *s, const char *end, unsigned flags,
                 const uint8_t **out, uint32_t *len, const char **after)
{
    const bool content = flags & QS_CONTENT;
    if (s >= end || *s != '"')
        return opt_error(c, s, "expected a quoted string");
    uint8_t *buf = arena_alloc(c->ar, (size_t)(end - s) + 1);
    if (buf == NULL)
        return rule_oom(c);
    uint32_t n = 0;
    const char *p = s + 1;
    const char *hex_start = NULL; /* inside |...| */
    int nibble = -1;
    for (;; p++) {
        if (p >= end) {
            if (hex_start)
                return opt_error(c, hex_start, "unterminated |hex| sequence");
            return opt_error(c, s, "missing closing quote");
        }
        char ch = *p;
        if (hex_start) {
            if (ch == '|') {
                if (nibble >= 0)
                    return opt_error(c, hex_start, "odd number of hex digits in |...|");
                hex_start = NULL;
            } else if (is_xdigit(ch)) {
                if (nibble < 0) {
                    nibble = xdigit_val(ch);
                } else {
                    buf[n++] = (uint8_t)(nibble << 4 | xdigit_val(ch));
                    nibble = -1;
                }
            } else if (ch == '"') {
                return opt_error(c, hex_start, "unterminated |hex| sequence");
            } else if (!is_space(ch)) {
                return opt_error(c, p, "invalid character '%c' in |hex|", ch);
            }
            continue;
        }
        if (ch == '"')
            break;
        if (ch == '\\') {
            if (p + 1 >= end)
                return opt_error(c, s, "missing closing quote");
            char e = p[1];
            if (e == '"' || e == '\\' || e == ';' || e == ':' || (content && e == '|')) {
                buf[n++] = (uint8_t)e;
                p++;
            } else if (content) {
                return opt_error(c, p, "invalid escape '\\%c' (only \\\" \\\\ \\; \\: \\| are)",
                                 e);
            } else {
                buf[n++] = '\\';
            }
            continue;
        }
        if (ch == '|' && content) {
            hex_start = p;
            nibble = -1;
            continue;
        }
        buf[n++] = (uint8_t)ch;
    }
    if (n == 0 && !(flags & QS_ALLOW_EMPTY))
        return opt_error(c, s, "empty string");
    buf[n] = 0;
    *out = buf;
    *len = n;
    *after = p + 1;
    return 0;
}

int parse_neg_string(struct rule_ctx *c, const char *val, bool allow_neg, unsigned qs_flags,
                     struct opt_str *out)
{
    const char *end = val + strlen(val), *p = val;
    if (*p == '!') {
        if (!allow_neg)
            return opt_error(c, p, "cannot be negated");
        out->negated = true;
        p = skip_ws(p + 1, end);
    }
    const char *after;
    if (parse_quoted(c, p, end, qs_flags, &out->bytes, &out->len, &after) < 0)
        return -1;
    after = skip_ws(after, end);
    if (after < end)
        return opt_error(c, after, "unexpected text after the string");
    return 0;
}

static const char *num_end(const char *p, const char *end)
{
    while (p < end && (is_xdigit(*p) || *p == 'x' || *p == 'X'))
        p++;
    return p;
}

int parse_num(struct rule_ctx *c, const char *s, size_t n, int64_t min, int64_t max,
              bool allow_hex, int64_t *v, const char *what)
{
    if (n == 0)
        return opt_error(c, s, "missing %s", what);
    if (!slice_i64(s, n, allow_hex, min, max, v)) {
        int64_t any;
        if (slice_i64(s, n, allow_hex, INT64_MIN, INT64_MAX, &any))
            return opt_error(c, s, "%s %.*s out of range %lld..%lld", what, (int)n, s,
                             (long long)min, (long long)max);
        return opt_error(c, s, "%s: expected a number, got '%.*s'", what, (int)n, s);
    }
    return 0;
}

int parse_num_or_var(struct rule_ctx *c, const char *s, size_t n, int64_t min, int64_t max,
                     bool allow_hex, const char **var, int64_t *v, const char *what)
{
    if (var && n > 0 && (is_alpha(s[0]) || s[0] == '_')) {
        if (!rule_has_var(c, s, n))
            return opt_error(c, s, "%s: '%.*s' is neither a number nor a byte_extract/"
                                   "byte_math variable defined before",
                             what, (int)n, s);
        *var = opt_strdup(c, s, n);
        return *var ? 0 : -1;
    }
    return parse_num(c, s, n, min, max, allow_hex, v, what);
}

int parse_cmp(struct rule_ctx *c, const char *s, size_t n, int64_t min, int64_t max,
              unsigned flags, struct opt_cmp *out)
{
    const char *end = s + n, *p = skip_ws(s, end);
    end = rtrim(p, end);
    if (p == end)
        return opt_error(c, s, "missing value");
    uint8_t op = CMP_EQ;
    bool outside = false;
    if ((flags & CMP_DASH_EXCL) && *p == '!' && p + 1 < end && is_digit(p[1]) &&
        memchr(p, '-', (size_t)(end - p)) && !memchr(p, '<', (size_t)(end - p))) {
        outside = true; /* !A-B */
        p++;
    } else if (*p == '<' || *p == '>' || *p == '!' || *p == '=') {
        char o = *p++;
        bool eq = p < end && *p == '=';
        if (eq)
            p++;
        switch (o) {
        case '<': op = eq ? CMP_LE : CMP_LT; break;
        case '>': op = eq ? CMP_GE : CMP_GT; break;
        case '!': op = CMP_NE; break;
        default: op = CMP_EQ; break;
        }
        p = skip_ws(p, end);
        const char *e = num_end(p, end);
        if (e != end)
            return opt_error(c, e < end ? e : p, "unexpected '%.*s' in comparison",
                             (int)(end - e), e);
        out->op = op;
        return parse_num(c, p, (size_t)(e - p), min, max, true, &out->lo, "value");
    }
    const char *e = num_end(p, end);
    if (parse_num(c, p, (size_t)(e - p), min, max, true, &out->lo, "value") < 0)
        return -1;
    const char *q = skip_ws(e, end);
    if (q == end) {
        out->op = CMP_EQ;
        return 0;
    }
    if (end - q >= 3 && memcmp(q, "<=>", 3) == 0) {
        op = CMP_RANGE_INCL;
        q += 3;
    } else if (end - q >= 2 && memcmp(q, "<>", 2) == 0) {
        op = CMP_RANGE;
        q += 2;
    } else if ((flags & CMP_DASH) && *q == '-') {
        op = CMP_RANGE_INCL;
        q++;
    } else if ((flags & CMP_DASH_EXCL) && *q == '-') {
        op = outside ? CMP_OUTSIDE : CMP_RANGE;
        q++;
    } else {
        return opt_error(c, q, "unexpected '%.*s' in comparison", (int)(end - q), q);
    }
    q = skip_ws(q, end);
    e = num_end(q, end);
    if (e != end)
        return opt_error(c, e < end ? e : q, "unexpected '%.*s' in range", (int)(end - e), e);
    if (parse_num(c, q, (size_t)(e - q), min, max, true, &out->hi, "range end") < 0)
        return -1;
    if (out->hi < out->lo)
        return opt_error(c, s, "range %.*s is reversed", (int)n, s);
    if (op == CMP_RANGE && out->hi - out->lo < 2)
        return opt_error(c, s, "range %.*s matches nothing ('%s' excludes both ends)", (int)n,
                         s, memchr(s, '<', n) ? "<>" : "-");
    out->op = op;
    return 0;
}

int parse_choice(struct rule_ctx *c, const char *s, size_t n, const char *const *allowed,
                 const char *what)
{
    for (int i = 0; allowed[i]; i++)
        if (slice_eq(s, n, allowed[i]))
            return i;
    if (n == 0)
        return opt_error(c, s, "missing %s", what), -1;
    char list[256];
    size_t used = 0;
    list[0] = 0;
    for (int i = 0; allowed[i] && used + 2 < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", allowed[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    opt_error(c, s, "unknown %s '%.*s' (expected one of: %s)", what, (int)n, s, list);
    return -1;
}

int parse_words(struct rule_ctx *c, const char *val, char sep, bool allow_neg,
                const char *const *allowed, struct opt_words *out)
{
    size_t len = strlen(val), count = 1;
    for (size_t i = 0; i < len; i++)
        count += val[i] == sep;
    const char **words = arena_alloc(c->ar, count * sizeof *words);
    bool *neg = arena_zalloc(c->ar, count * sizeof *neg);
    if (words == NULL || neg == NULL)
        return rule_oom(c);
    struct list_iter it;
    const char *w;
    size_t wn;
    uint32_t k = 0;
    list_init(&it, val, len, sep);
    while (list_next(&it, &w, &wn)) {
        if (wn == 0)
            return opt_error(c, w, "empty item in list");
        if (*w == '!') {
            if (!allow_neg)
                return opt_error(c, w, "items cannot be negated");
            neg[k] = true;
            w++;
            wn--;
            while (wn && is_space(*w))
                w++, wn--;
        }
        if (allowed) {
            if (parse_choice(c, w, wn, allowed, "value") < 0)
                return -1;
        } else if (!is_name(w, wn, NULL)) {
            return opt_error(c, w, "invalid name '%.*s'", (int)wn, w);
        }
        if ((words[k++] = opt_strdup(c, w, wn)) == NULL)
            return -1;
    }
    out->n = k;
    out->words = words;
    out->negated = neg;
    return 0;
}

