/* config_value.c — one YAML node → one typed value, with the error message when it is not.
 *
 * Defaults, file values and --set values all pass through cfg_value_parse, so every accepted
 * spelling is accepted everywhere and the canonical text printed by --dump-config is one
 * function's output.
 */
#include "config_internal.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char CFG_ORIGIN_DEFAULT[] = "default";
const char CFG_ORIGIN_SET[] = "--set";

struct unit {
    const char *name;
    uint64_t mult;
};

/* Sizes use powers of 1024, as Suricata does ("64kb" is 65536 bytes). */
static const struct unit SIZE_UNITS[] = {
    {"", 1},           {"b", 1},
    {"k", 1ull << 10}, {"kb", 1ull << 10}, {"kib", 1ull << 10},
    {"m", 1ull << 20}, {"mb", 1ull << 20}, {"mib", 1ull << 20},
    {"g", 1ull << 30}, {"gb", 1ull << 30}, {"gib", 1ull << 30},
    {NULL, 0},
};

static const struct unit TIME_UNITS[] = {
    {"", 1}, {"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86400}, {NULL, 0},
};

/* "<digits>[.<digits>][ ]<unit>" with a unit from units (any case) → *out. A fraction is
 * allowed only when fractions is set and the unit is bigger than 1 ("1.5mb", as Suricata
 * accepts); the result is truncated to a whole number. false on anything else, including
 * overflow. */
static bool parse_scaled(const char *s, const struct unit *units, bool fractions, uint64_t *out)
{
    if (!isdigit((unsigned char)*s))
        return false;
    uint64_t n = 0, frac = 0, den = 1;
    for (; isdigit((unsigned char)*s); s++) {
        unsigned d = (unsigned)(*s - '0');
        if (n > (UINT64_MAX - d) / 10)
            return false;
        n = n * 10 + d;
    }
    if (*s == '.') {
        if (!fractions || !isdigit((unsigned char)s[1]))
            return false;
        for (s++; isdigit((unsigned char)*s); s++) {
            if (den < 1000000000) { /* finer than a billionth of a unit is noise */
                frac = frac * 10 + (unsigned)(*s - '0');
                den *= 10;
            }
        }
    }
    if (*s == ' ')
        s++;
    for (const struct unit *u = units; u->name; u++) {
        if (strcasecmp(s, u->name) == 0) {
            if (den > 1 && u->mult == 1)
                return false;
            if (n > UINT64_MAX / u->mult)
                return false;
            uint64_t part = frac * (u->mult / den) + frac * (u->mult % den) / den;
            if (n * u->mult > UINT64_MAX - part)
                return false;
            *out = n * u->mult + part;
            return true;
        }
    }
    return false;
}

static bool parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = {"yes", "true", "on", "1"};
    static const char *const no[] = {"no", "false", "off", "0"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (!strcasecmp(s, yes[i]))
            return *out = true, true;
        if (!strcasecmp(s, no[i]))
            return *out = false, true;
    }
    return false;
}

static bool parse_int(const char *s, int64_t *out)
{
    if (!isdigit((unsigned char)*s) && !((*s == '-' || *s == '+') && isdigit((unsigned char)s[1])))
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

/* Word of the "a|b|c" list equal to s (any case), copied canonically into buf. */
static bool find_word(const char *words, const char *s, char *buf, size_t len)
{
    size_t slen = strlen(s);
    for (const char *w = words; *w;) {
        size_t wlen = strcspn(w, "|");
        if (wlen == slen && !strncasecmp(w, s, wlen) && wlen < len) {
            memcpy(buf, w, wlen);
            buf[wlen] = '\0';
            return true;
        }
        w += wlen;
        if (*w == '|')
            w++;
    }
    return false;
}

/* "auto|yes|no" → "auto, yes, no" for messages. */
static void words_for_humans(const char *words, char *buf, size_t len)
{
    size_t o = 0;
    for (const char *w = words; *w && o + 3 < len; w++) {
        if (*w == '|') {
            buf[o++] = ',';
            buf[o++] = ' ';
        } else {
            buf[o++] = *w;
        }
    }
    buf[o] = '\0';
}

static char *trimmed_copy(const char *s, size_t len)
{
    while (len && isspace((unsigned char)*s))
        s++, len--;
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    return strndup(s, len);
}

static int push_item(struct cfg_value *v, char *item)
{
    if (!item)
        return -1;
    char **items = realloc(v->items, (v->nitems + 1) * sizeof *items);
    if (!items) {
        free(item);
        return -1;
    }
    v->items = items;
    v->items[v->nitems++] = item;
    return 0;
}

/* "[a, b]" or "a,b" (a --set value, or a scalar where a list was expected) → items.
 * 0, -1 when malformed (an empty item), -2 when out of memory. */
static int split_list(struct cfg_value *v, const char *s)
{
    size_t len = strlen(s);
    while (len && isspace((unsigned char)*s))
        s++, len--;
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    if (len >= 2 && s[0] == '[' && s[len - 1] == ']')
        s++, len -= 2;
    char *body = trimmed_copy(s, len);
    if (!body)
        return -2;
    int rc = 0;
    if (*body) {
        for (char *p = body;;) {
            size_t n = strcspn(p, ",");
            char *item = trimmed_copy(p, n);
            if (item && !*item) {
                free(item);
                rc = -1;
                break;
            }
            if (push_item(v, item) < 0) {
                rc = -2;
                break;
            }
            if (!p[n])
                break;
            p += n + 1;
        }
    }
    free(body);
    return rc;
}

/* items → "[a, b]". */
static char *join_items(const struct cfg_value *v)
{
    size_t len = 3;
    for (size_t i = 0; i < v->nitems; i++)
        len += strlen(v->items[i]) + 2;
    char *s = malloc(len);
    if (!s)
        return NULL;
    size_t o = 0;
    s[o++] = '[';
    for (size_t i = 0; i < v->nitems; i++) {
        size_t n = strlen(v->items[i]);
        if (i) {
            s[o++] = ',';
            s[o++] = ' ';
        }
        memcpy(s + o, v->items[i], n);
        o += n;
    }
    s[o++] = ']';
    s[o] = '\0';
    return s;
}

void cfg_value_clear(struct cfg_value *v)
{
    for (size_t i = 0; i < v->nitems; i++)
        free(v->items[i]);
    free(v->items);
    free(v->text);
    memset(v, 0, sizeof *v);
}

/* Fill *v from node per row's type. 0, -1 bad value (expectation in *what), -2 no memory. */
static int parse(struct cfg_value *v, const struct cfg_key *row, const struct cfg_node *node,
                 char *what, size_t wlen)
{
    char buf[64];
    const char *s = node->kind == CFG_SCALAR ? node->text : NULL;

    switch (row->type) {
    case CT_BOOL:
        snprintf(what, wlen, "yes or no");
        if (!s || !parse_bool(s, &v->b))
            return -1;
        v->text = strdup(v->b ? "yes" : "no");
        break;
    case CT_INT:
        snprintf(what, wlen, "an integer from %" PRId64 " to %" PRId64, row->min, row->max);
        if (!s || !parse_int(s, &v->i) || v->i < row->min || v->i > row->max)
            return -1;
        snprintf(buf, sizeof buf, "%" PRId64, v->i);
        v->text = strdup(buf);
        break;
    case CT_SIZE:
        snprintf(what, wlen, "a size such as 64mb");
        if (!s || !parse_scaled(s, SIZE_UNITS, true, &v->u))
            return -1;
        snprintf(buf, sizeof buf, "%" PRIu64, v->u);
        v->text = strdup(buf);
        break;
    case CT_SECONDS:
        snprintf(what, wlen, "a duration such as 30s, 5m, 1h or 7d");
        /* Durations are returned as double; keep them exact in one. */
        if (!s || !parse_scaled(s, TIME_UNITS, false, &v->u) || v->u > (1ull << 53))
            return -1;
        snprintf(buf, sizeof buf, "%" PRIu64, v->u);
        v->text = strdup(buf);
        break;
    case CT_STRING:
        snprintf(what, wlen, "a string");
        if (!s)
            return -1;
        v->text = strdup(s);
        break;
    case CT_ENUM: {
        char words[256];
        words_for_humans(row->words, words, sizeof words);
        snprintf(what, wlen, "one of %s", words);
        if (!s || !find_word(row->words, s, buf, sizeof buf))
            return -1;
        v->text = strdup(buf);
        break;
    }
    case CT_LIST:
        snprintf(what, wlen, "a list such as [a, b]");
        if (node->kind == CFG_MAP)
            return -1;
        if (node->kind == CFG_SCALAR) {
            if (!node->null) {
                int rc = split_list(v, s);
                if (rc < 0)
                    return rc;
            }
        } else {
            for (size_t i = 0; i < node->n; i++) {
                const struct cfg_node *it = node->item[i];
                /* suricata.yaml's eve-log types may carry options (- alert: {…}): the
                 * type's name is taken, its options are not read */
                if (it->kind == CFG_MAP && it->n == 1 && !strncmp(row->path, "outputs.", 8))
                    it = it->key[0];
                if (it->kind != CFG_SCALAR || it->null || !*it->text)
                    return -1;
                if (push_item(v, strdup(it->text)) < 0)
                    return -2;
            }
        }
        v->text = join_items(v);
        break;
    }
    return v->text ? 0 : -2;
}

int cfg_value_parse(struct cfg_value *out, const struct cfg_key *row, const char *keyname,
                    const struct cfg_node *node, const char *origin_label, FILE *diag)
{
    struct cfg_value v = {0};
    char what[320], got[80];
    int rc = parse(&v, row, node, what, sizeof what);
    if (rc < 0) {
        cfg_value_clear(&v);
        if (rc == -2) {
            fprintf(diag, "%s: %s: out of memory\n", origin_label, keyname);
        } else {
            cfg_node_describe(node, got, sizeof got);
            fprintf(diag, "%s: %s: expected %s, got %s\n", origin_label, keyname, what, got);
        }
        return rc;
    }
    v.set = true;
    v.origin.file = node->file;
    v.origin.line = node->line;
    cfg_value_clear(out);
    *out = v;
    return 0;
}
