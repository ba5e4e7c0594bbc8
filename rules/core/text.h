/* text.h — the small lexing helpers every rule part shares: spaces, numbers, comma lists.
 *
 * Slices are (pointer, length) pairs into the rule text: nothing here allocates.
 */
#ifndef RULES_TEXT_H
#define RULES_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static inline bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static inline bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline bool is_xdigit(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static inline int xdigit_val(char c)
{
    return is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* Name characters of keywords, variables and flowbit names. */
static inline bool is_word(char c)
{
    return is_alpha(c) || is_digit(c) || c == '_' || c == '-' || c == '.';
}

static inline const char *skip_ws(const char *p, const char *end)
{
    while (p < end && is_space(*p))
        p++;
    return p;
}

static inline const char *rtrim(const char *start, const char *end)
{
    while (end > start && is_space(end[-1]))
        end--;
    return end;
}

/* s[0..n) equals the NUL-terminated word w (exactly / ignoring ASCII case). */
bool slice_eq(const char *s, size_t n, const char *w);
bool slice_ieq(const char *s, size_t n, const char *w);

/* Whole-slice numbers. Decimal; with allow_hex also 0x…; signed ones take a leading - or +.
 * They return false on anything else, including overflow of the given range. */
bool slice_u64(const char *s, size_t n, bool allow_hex, uint64_t max, uint64_t *out);
bool slice_i64(const char *s, size_t n, bool allow_hex, int64_t min, int64_t max, int64_t *out);

/* Iterate a separator-delimited list, trimming spaces around each item. Separators inside
 * double quotes (with backslash escapes) do not split. An empty item is returned as such
 * (n = 0) so callers can reject "a,,b". */
struct list_iter {
    const char *p, *end;
    char sep;
    bool done;
};
void list_init(struct list_iter *it, const char *s, size_t n, char sep);
bool list_next(struct list_iter *it, const char **item, size_t *n);
/* Split s[0..n) at sep into at most max items (trimmed, as list_next gives them); returns how
 * many were stored. Items past max are left unread: callers that want "too many fields" ask
 * for one more slot than they accept. */
int list_split(const char *s, size_t n, char sep, const char **f, size_t *fl, int max);

/* Split "word rest" at the first run of spaces into the word (w, wn) and the trimmed rest
 * (r, rn; rn = 0 when there is none). */
void split_word(const char *s, size_t n, const char **w, size_t *wn, const char **r, size_t *rn);

/* A name made of letters, digits, '_', '-', '.' (and the characters of extra). */
bool is_name(const char *s, size_t n, const char *extra);

#endif
