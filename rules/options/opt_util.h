/* opt_util.h — argument grammar pieces shared by option parsers: quoted strings with
 * |hex| and escapes, numeric comparisons, numbers-or-variables, word lists. Every function
 * reports its own error through opt_error() and returns -1. */
#ifndef RULES_OPT_UTIL_H
#define RULES_OPT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opt_args.h"
#include "text.h"
#include "rule.h"

/* Zeroed argument struct in the AST arena, already hung on the current option. */
void *opt_arg_new(struct rule_ctx *c, size_t size);

/* A relative option (isdataat, byte_*) of a classic rule with no sticky buffer in force
 * inspects the buffer of the payload option before it, as Suricata attaches it to the
 * previous match's list: `uricontent:"x"; isdataat:!10,relative;` reads the URI. */
void opt_relative_to_previous(struct rule_ctx *c);

/* Decode the quoted string starting at s (which must point at '"') and ending before end.
 * QS_CONTENT: |41 42| hex and only the escapes \" \\ \; \: \| ; otherwise a backslash before
 * any other character is kept as written (msg texts do that). *after is set past the closing
 * quote. The result is NUL-terminated in the arena (not counted in *len). */
enum { QS_CONTENT = 1, QS_ALLOW_EMPTY = 2 };
int parse_quoted(struct rule_ctx *c, const char *s, const char *end, unsigned flags,
                 const uint8_t **out, uint32_t *len, const char **after);

/* `[!]"…"` with nothing after it: filemagic, tls.fingerprint, replace … */
int parse_neg_string(struct rule_ctx *c, const char *val, bool allow_neg, unsigned qs_flags,
                     struct opt_str *out);

/* Comparisons: N, =N, !N, !=N, <N, >N, <=N, >=N, A<>B, A<=>B and, with CMP_DASH, A-B
 * (inclusive); with CMP_DASH_EXCL, Suricata's integer ranges A-B (exclusive, as A<>B) and
 * !A-B (outside it). Values within [min, max]. */
enum { CMP_DASH = 1, CMP_DASH_EXCL = 2 };
int parse_cmp(struct rule_ctx *c, const char *s, size_t n, int64_t min, int64_t max,
              unsigned flags, struct opt_cmp *out);

/* A number in [min, max] (hex allowed with allow_hex) or, when var is not NULL, the name of a
 * byte variable defined earlier in the rule. what names the field in messages. */
int parse_num_or_var(struct rule_ctx *c, const char *s, size_t n, int64_t min, int64_t max,
                     bool allow_hex, const char **var, int64_t *v, const char *what);
int parse_num(struct rule_ctx *c, const char *s, size_t n, int64_t min, int64_t max,
              bool allow_hex, int64_t *v, const char *what);

/* Copy s[0..n) into the AST arena. */
const char *opt_strdup(struct rule_ctx *c, const char *s, size_t n);

/* Words separated by sep (each optionally "!"-negated when allow_neg), each one of `allowed`
 * (NULL-terminated, NULL = any name). */
int parse_words(struct rule_ctx *c, const char *val, char sep, bool allow_neg,
                const char *const *allowed, struct opt_words *out);

/* One word of allowed (exact match); index or -1 after reporting. */
int parse_choice(struct rule_ctx *c, const char *s, size_t n, const char *const *allowed,
                 const char *what);

/* Suricata's integer keywords on a parsers' field (the field of the keyword's name, compared
 * by det_unit_field under the row's buffer's event): one argument grammar, opt_parse_int
 * (opt_int.c), into a struct opt_cmp. The argument is, as `forms` allows:
 *   INT_CMP      <cmp> on 0..max (N, !N, <N, >=N, A-B meaning A < x < B …);
 *   INT_NAMES    [!]NAME, one of the field's named values (osprey_field_value, any case);
 *   INT_FLAGS    [!]name, [!]name …: the field's named bits (CMP_MASK over the bits named,
 *                those without '!' wanted set);
 *   INT_BITMASK  &M=V: the bits of M (0..max) equal V.
 * A word that names nothing is "unknown <noun> 'word'<hint>". A keyword's row names a parser
 * OPT_INT_PARSER defines, so the row itself is as any other. */
enum { INT_CMP = 1, INT_NAMES = 2, INT_FLAGS = 4, INT_BITMASK = 8 };
struct opt_int_form {
    int64_t max;
    uint8_t forms;
    const char *noun;        /* "type", "flag" … */
    const char *hint;        /* after the unknown word: " (CONNECT … AUTH, or 0..15)", or "" */
};
int opt_parse_int(struct rule_ctx *c, char *val, const struct opt_int_form *form);
/* The parsers' field's value named s[0..n) (any case); false when it has none. */
bool opt_field_named(const char *field, const char *s, size_t n, int64_t *v);
#define OPT_INT_PARSER(fn, max, forms, noun, hint)                                          \
    static int fn(struct rule_ctx *c, char *val)                                            \
    {                                                                                       \
        static const struct opt_int_form F = {max, forms, noun, hint};                     \
        return opt_parse_int(c, val, &F);                                                   \
    }

#endif
