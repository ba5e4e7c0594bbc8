/* requires.c — Suricata's requires: (7.0.3+), evaluated by the rule reader before the other
 * options: a rule for a newer engine may use keywords this one does not know, and is skipped
 * quietly when its requirements are not met. Osprey meets version requirements as Suricata
 * OSPREY_SURICATA_COMPAT, the features in FEATURES, and the keywords it implements; any other
 * requirement is not met. (The keyword's row, rules/options/opt_hints.c, reports a malformed
 * one.) */
#include "requires.h"

#include <string.h>

#include "registry.h"
#include "ruleset.h"
#include "text.h"

/* The Suricata version whose rule language Osprey follows (from_base64, transforms after a
 * buffer's matches, base64 modes …). */
static const unsigned OSPREY_SURICATA_COMPAT[3] = {8, 0, 0};
static const char *const FEATURES[] = {"geoip", NULL};

static int cmp_version(const unsigned v[3])
{
    for (int i = 0; i < 3; i++)
        if (OSPREY_SURICATA_COMPAT[i] != v[i])
            return OSPREY_SURICATA_COMPAT[i] < v[i] ? -1 : 1;
    return 0;
}

/* "X[.Y[.Z]]" → v; false when malformed. */
static bool parse_version(const char *s, size_t n, unsigned v[3])
{
    v[0] = v[1] = v[2] = 0;
    int k = 0;
    size_t i = 0;
    while (i < n && k < 3) {
        if (!is_digit(s[i]))
            return false;
        unsigned x = 0;
        while (i < n && is_digit(s[i]) && x < 100000)
            x = x * 10 + (unsigned)(s[i++] - '0');
        v[k++] = x;
        if (i < n && s[i] != '.')
            return false;
        i++;
    }
    return i >= n;
}

/* "OP VER [OP VER]…" with '|' between alternatives: 1 met, 0 not, -1 malformed. */
static int version_met(const char *s, size_t n)
{
    const char *end = s + n;
    bool any = false, all = true, seen = false;
    while (s < end) {
        s = skip_ws(s, end);
        if (s < end && *s == '|') {
            any |= all && seen;
            all = true;
            seen = false;
            s++;
            continue;
        }
        const char *op = s;
        while (s < end && (*s == '<' || *s == '>' || *s == '='))
            s++;
        size_t opn = (size_t)(s - op);
        s = skip_ws(s, end);
        const char *v = s;
        while (s < end && !is_space(*s) && *s != '|' && *s != '<' && *s != '>' && *s != '=')
            s++;
        unsigned ver[3];
        if (opn == 0 || v == s || !parse_version(v, (size_t)(s - v), ver))
            return -1;
        int c = cmp_version(ver);
        bool ok;
        if (slice_eq(op, opn, ">="))
            ok = c >= 0;
        else if (slice_eq(op, opn, ">"))
            ok = c > 0;
        else if (slice_eq(op, opn, "<="))
            ok = c <= 0;
        else if (slice_eq(op, opn, "<"))
            ok = c < 0;
        else if (slice_eq(op, opn, "=") || slice_eq(op, opn, "=="))
            ok = c == 0;
        else
            return -1;
        all &= ok;
        seen = true;
    }
    if (!seen)
        return -1;
    return any || all;
}

static bool keyword_met(struct rule_ctx *c, const char *w, size_t n)
{
    int id = opt_index_find(&c->rs->index, w, n);
    return id >= 0 && opt_def_implemented(opt_def_by_id((size_t)id));
}

int requires_eval(struct rule_ctx *c, const char *val, const char **bad)
{
    struct list_iter it;
    const char *item;
    size_t n;
    bool met = true;
    list_init(&it, val, strlen(val), ',');
    while (list_next(&it, &item, &n)) {
        const char *w, *v;
        size_t wn, vn;
        split_word(item, n, &w, &wn, &v, &vn);
        *bad = item;
        if (vn == 0)
            return -1;
        if (slice_eq(w, wn, "version")) {
            int k = version_met(v, vn);
            if (k < 0)
                return -1;
            met &= k == 1;
        } else if (slice_eq(w, wn, "feature")) {
            bool f = false;
            for (size_t i = 0; FEATURES[i]; i++)
                f |= slice_eq(v, vn, FEATURES[i]);
            met &= f;
        } else if (slice_eq(w, wn, "keyword")) {
            met &= keyword_met(c, v, vn);
        } else {
            met = false; /* a requirement this Osprey does not know */
        }
    }
    return met;
}
