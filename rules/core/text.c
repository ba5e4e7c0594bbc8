/* text.c — slices, numbers and lists (see text.h). */
#include "text.h"

#include <string.h>

bool slice_eq(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && memcmp(s, w, n) == 0;
}

bool slice_ieq(const char *s, size_t n, const char *w)
{
    if (strlen(w) != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char a = s[i], b = w[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a | 0x20);
        if (b >= 'A' && b <= 'Z')
            b = (char)(b | 0x20);
        if (a != b)
            return false;
    }
    return true;
}

bool slice_u64(const char *s, size_t n, bool allow_hex, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    unsigned base = 10;
    if (allow_hex && n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        n -= 2;
    }
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned d;
        if (is_digit(s[i]))
            d = (unsigned)(s[i] - '0');
        else if (base == 16 && is_xdigit(s[i]))
            d = (unsigned)xdigit_val(s[i]);
        else
            return false;
        if (v > (UINT64_MAX - d) / base)
            return false;
        v = v * base + d;
    }
    if (v > max)
        return false;
    *out = v;
    return true;
}

bool slice_i64(const char *s, size_t n, bool allow_hex, int64_t min, int64_t max, int64_t *out)
{
    bool neg = false;
    if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        s++;
        n--;
    }
    uint64_t mag;
    if (!slice_u64(s, n, allow_hex, (uint64_t)INT64_MAX + 1, &mag))
        return false;
    int64_t v;
    if (neg)
        v = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
    else if (mag > (uint64_t)INT64_MAX)
        return false;
    else
        v = (int64_t)mag;
    if (v < min || v > max)
        return false;
    *out = v;
    return true;
}

void list_init(struct list_iter *it, const char *s, size_t n, char sep)
{
    it->p = s;
    it->end = s + n;
    it->sep = sep;
    it->done = false;
}

bool list_next(struct list_iter *it, const char **item, size_t *n)
{
    if (it->done)
        return false;
    const char *p = skip_ws(it->p, it->end);
    const char *start = p;
    bool quoted = false;
    while (p < it->end) {
        if (*p == '\\' && p + 1 < it->end) {
            p += 2;
            continue;
        }
        if (*p == '"')
            quoted = !quoted;
        else if (*p == it->sep && !quoted)
            break;
        p++;
    }
    const char *e = rtrim(start, p);
    *item = start;
    *n = (size_t)(e - start);
    if (p < it->end)
        it->p = p + 1;
    else
        it->done = true;
    return true;
}

void split_word(const char *s, size_t n, const char **w, size_t *wn, const char **r, size_t *rn)
{
    const char *end = s + n, *p = skip_ws(s, end);
    const char *ws = p;
    while (p < end && !is_space(*p))
        p++;
    *w = ws;
    *wn = (size_t)(p - ws);
    p = skip_ws(p, end);
    const char *re = rtrim(p, end);
    *r = p;
    *rn = (size_t)(re - p);
}

bool is_name(const char *s, size_t n, const char *extra)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!is_word(s[i]) && !(extra && strchr(extra, s[i])))
            return false;
    return true;
}

int list_split(const char *s, size_t n, char sep, const char **f, size_t *fl, int max)
{
    struct list_iter it;
    int k = 0;
    list_init(&it, s, n, sep);
    while (k < max && list_next(&it, &f[k], &fl[k]))
        k++;
    return k;
}
