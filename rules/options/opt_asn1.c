/* opt_asn1.c — asn1: decode BER objects from the buffer and match when a node trips a check.
 *
 *   asn1:[bitstring_overflow][, double_overflow][, oversize_length N]
 *        [, absolute_offset N | relative_offset [-]N]
 *
 * Items are separated by commas or spaces (Suricata takes both: "oversize_length 10
 * absolute_offset 0"); each valued item has its number after a space. Snort 2's debugging
 * `print` is taken and does nothing. The walker and the checks are rules/compile/asn1.c.
 */
#include <string.h>

#include "opt_util.h"
#include "registry.h"
#include "text.h"

enum { K_BITSTRING, K_DOUBLE, K_PRINT, K_OVERSIZE, K_ABSOLUTE, K_RELATIVE };

static const char *const KEYS[] = {"bitstring_overflow", "double_overflow", "print",
                                   "oversize_length", "absolute_offset", "relative_offset",
                                   NULL};

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

static int set_value(struct rule_ctx *c, struct opt_asn1 *a, int key, const char *v, size_t vn)
{
    int64_t x;
    if (key == K_OVERSIZE) {
        if (parse_num(c, v, vn, 0, UINT32_MAX, false, &x, KEYS[key]) < 0)
            return -1;
        a->has_oversize = true;
        a->oversize_length = (uint32_t)x;
        return 0;
    }
    if (parse_num(c, v, vn, key == K_RELATIVE ? -65535 : 0, 65535, false, &x, KEYS[key]) < 0)
        return -1;
    a->offset = (int32_t)x;
    a->has_absolute = key == K_ABSOLUTE;
    a->has_relative = key == K_RELATIVE;
    return 0;
}

static int parse_asn1(struct rule_ctx *c, char *val)
{
    struct opt_asn1 *a = opt_arg_new(c, sizeof *a);
    if (a == NULL)
        return -1;
    size_t n = strlen(val), at = 0;
    const char *w, *v, *empty = NULL;
    size_t wn, vn;
    unsigned seen = 0;
    while (next_word(val, n, &at, &w, &wn, &empty) && !empty) {
        if (is_digit(*w) || *w == '-')
            return opt_error(c, w, "unexpected '%.*s'", (int)wn, w);
        int key = parse_choice(c, w, wn, KEYS, "asn1 check");
        if (key < 0)
            return -1;
        if (seen & (1u << key))
            return opt_error(c, w, "'%.*s' given twice", (int)wn, w);
        seen |= 1u << key;
        if (key == K_BITSTRING) {
            a->bitstring_overflow = true;
        } else if (key == K_DOUBLE) {
            a->double_overflow = true;
        } else if (key >= K_OVERSIZE) {
            /* the number follows after spaces (a comma ends the item) */
            size_t sp = at;
            while (sp < n && is_space(val[sp]))
                sp++;
            if (sp == at || sp == n || val[sp] == ',' ||
                !next_word(val, n, &at, &v, &vn, &empty))
                return opt_error(c, w, "%s needs a number", KEYS[key]);
            if (set_value(c, a, key, v, vn) < 0)
                return -1;
        }
    }
    if (empty)
        return opt_error(c, empty, "empty item");
    if ((seen & (1u << K_ABSOLUTE)) && (seen & (1u << K_RELATIVE)))
        return opt_error(c, val, "absolute_offset and relative_offset together");
    return 0;
}

static const struct opt_def DEFS[] = {
    {"asn1", OPT_PAYLOAD, D_ALL, ARG_REQUIRED, 0, parse_asn1, true, NULL},
};
OPT_TABLE(opt_table_asn1, DEFS);
