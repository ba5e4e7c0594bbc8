/* conf.c — classification.config, reference.config and threshold.config.
 *
 * Formats (Snort's, which Suricata kept):
 *   config classification: NAME,DESCRIPTION,PRIORITY
 *   config reference: SYSTEM URL-PREFIX
 *   threshold|event_filter gen_id G, sig_id S, type limit|threshold|both, track by_src|by_dst
 *       |by_rule|by_both, count C, seconds T
 *   suppress gen_id G, sig_id S[, track by_src|by_dst|by_either, ip ADDRESSES]
 *   rate_filter gen_id G, sig_id S, track by_src|by_dst|by_rule|by_both, count C, seconds T,
 *       new_action alert|drop|pass|log|sdrop|reject, timeout T
 * '#' starts a comment line; a line ending in '\' continues. Names are matched ignoring case.
 * A bad line is a CONFIG diagnostic "FILE:LINE: reason"; the rest of the file still loads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "opt_args.h"
#include "ruleset.h"
#include "text.h"

typedef int (*conf_line_fn)(struct osprey_ruleset *rs, const char *file, uint32_t line,
                            char *s, size_t n);

static int bad(struct osprey_ruleset *rs, const char *file, uint32_t line, const char *key,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int bad(struct osprey_ruleset *rs, const char *file, uint32_t line, const char *key,
               const char *fmt, ...)
{
    char buf[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    rs->stats.config_errors++;
    return ruleset_diag(rs, OSPREY_DIAG_CONFIG, file, line, 0, key, "%s", buf) < 0 ? -2 : -1;
}

/* Read path and call fn for each logical line (comments and blanks skipped). Returns 0, -1
 * after a diagnostic, -2 when out of memory, -3 - errno when the file cannot be opened. */
static int conf_read(struct osprey_ruleset *rs, const char *path,
                     conf_line_fn fn)
{
    const char *file = arena_strdup(&rs->meta, path);
    if (file == NULL)
        return -2;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -3 - errno; /* the caller decides how bad a missing file is */
    char *line = NULL, *acc = NULL;
    size_t cap = 0, alen = 0, acap = 0;
    ssize_t n;
    uint32_t lineno = 0, start = 0;
    int rc = 0;
    while ((n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        size_t len = (size_t)n;
        while (len && is_space(line[len - 1]))
            len--;
        const char *s = skip_ws(line, line + len);
        if (alen == 0) {
            if (s == line + len || *s == '#')
                continue;
            start = lineno;
        }
        size_t sl = (size_t)(line + len - s);
        if (alen + sl + 2 > acap) {
            size_t nc = (alen + sl + 2) * 2;
            char *na = realloc(acc, nc);
            if (na == NULL) {
                rc = -2;
                break;
            }
            acc = na;
            acap = nc;
        }
        memcpy(acc + alen, s, sl);
        alen += sl;
        if (alen && acc[alen - 1] == '\\') {
            acc[alen - 1] = ' ';
            continue;
        }
        acc[alen] = '\0';
        int r = fn(rs, file, start, acc, alen);
        if (r == -2) {
            rc = -2;
            break;
        }
        if (r < 0)
            rc = -1;
        alen = 0;
    }
    if (rc != -2 && alen) {
        acc[alen] = '\0';
        int r = fn(rs, file, start, acc, alen);
        if (r < 0)
            rc = r;
    }
    free(line);
    free(acc);
    fclose(f);
    return rc;
}

/* "config KIND: rest" → rest, or NULL. */
static const char *config_body(const char *s, size_t n, const char *kind)
{
    const char *end = s + n, *p = s;
    if (n < 7 || strncmp(p, "config", 6) != 0 || !is_space(p[6]))
        return NULL;
    p = skip_ws(p + 6, end);
    size_t kl = strlen(kind);
    if ((size_t)(end - p) < kl || strncmp(p, kind, kl) != 0)
        return NULL;
    p = skip_ws(p + kl, end);
    if (p >= end || *p != ':')
        return NULL;
    return skip_ws(p + 1, end);
}

/* --- classification ---------------------------------------------------------------------- */

const struct classtype *conf_classtype(const struct osprey_ruleset *rs, const char *s, size_t n)
{
    for (uint32_t i = 0; i < rs->nclasses; i++)
        if (slice_ieq(s, n, rs->classes[i].name))
            return &rs->classes[i];
    return NULL;
}

static int class_line(struct osprey_ruleset *rs, const char *file, uint32_t line, char *s,
                      size_t n)
{
    const char *body = config_body(s, n, "classification");
    if (body == NULL)
        return bad(rs, file, line, "bad classification line",
                   "expected 'config classification: NAME,DESCRIPTION,PRIORITY'");
    const char *f[4];
    size_t fl[4];
    int k = list_split(body, (size_t)(s + n - body), ',', f, fl, 4);
    uint64_t prio;
    if (k != 3 || fl[0] == 0 || fl[1] == 0)
        return bad(rs, file, line, "bad classification line",
                   "expected 'config classification: NAME,DESCRIPTION,PRIORITY'");
    if (!is_name(f[0], fl[0], NULL))
        return bad(rs, file, line, "bad classification line", "invalid classtype name '%.*s'",
                   (int)fl[0], f[0]);
    if (!slice_u64(f[2], fl[2], false, 255, &prio) || prio == 0)
        return bad(rs, file, line, "bad classification line",
                   "priority must be a number 1..255, got '%.*s'", (int)fl[2], f[2]);
    struct classtype *ct = (struct classtype *)conf_classtype(rs, f[0], fl[0]);
    if (ct) {
        ruleset_diag(rs, OSPREY_DIAG_WARNING, file, line, 0, "duplicate classtype",
                     "classtype %s defined again; the later definition is used", ct->name);
    } else {
        if ((rs->nclasses & (rs->nclasses - 1)) == 0) {
            uint32_t cap = rs->nclasses ? rs->nclasses * 2 : 64;
            struct classtype *v = arena_alloc(&rs->meta, cap * sizeof *v);
            if (v == NULL)
                return -2;
            if (rs->nclasses)
                memcpy(v, rs->classes, rs->nclasses * sizeof *v);
            rs->classes = v;
        }
        ct = &rs->classes[rs->nclasses++];
    }
    ct->name = arena_strndup(&rs->meta, f[0], fl[0]);
    ct->desc = arena_strndup(&rs->meta, f[1], fl[1]);
    ct->priority = (int32_t)prio;
    return ct->name && ct->desc ? 0 : -2;
}

int conf_load_classification(struct osprey_ruleset *rs, const char *path)
{
    return conf_read(rs, path, class_line);
}

/* --- reference --------------------------------------------------------------------------- */

const struct refsys *conf_refsys(const struct osprey_ruleset *rs, const char *s, size_t n)
{
    for (uint32_t i = 0; i < rs->nrefs; i++)
        if (slice_ieq(s, n, rs->refs[i].name))
            return &rs->refs[i];
    return NULL;
}

static int ref_line(struct osprey_ruleset *rs, const char *file, uint32_t line, char *s,
                    size_t n)
{
    const char *body = config_body(s, n, "reference");
    if (body == NULL)
        return bad(rs, file, line, "bad reference line",
                   "expected 'config reference: SYSTEM URL'");
    const char *w, *r;
    size_t wn, rn;
    split_word(body, (size_t)(s + n - body), &w, &wn, &r, &rn);
    if (wn == 0 || rn == 0 || memchr(r, ' ', rn) || memchr(r, '\t', rn))
        return bad(rs, file, line, "bad reference line",
                   "expected 'config reference: SYSTEM URL'");
    if (!is_name(w, wn, NULL))
        return bad(rs, file, line, "bad reference line", "invalid reference system '%.*s'",
                   (int)wn, w);
    struct refsys *ref = (struct refsys *)conf_refsys(rs, w, wn);
    if (ref == NULL) {
        if ((rs->nrefs & (rs->nrefs - 1)) == 0) {
            uint32_t cap = rs->nrefs ? rs->nrefs * 2 : 32;
            struct refsys *v = arena_alloc(&rs->meta, cap * sizeof *v);
            if (v == NULL)
                return -2;
            if (rs->nrefs)
                memcpy(v, rs->refs, rs->nrefs * sizeof *v);
            rs->refs = v;
        }
        ref = &rs->refs[rs->nrefs++];
    }
    ref->name = arena_strndup(&rs->meta, w, wn);
    ref->url = arena_strndup(&rs->meta, r, rn);
    return ref->name && ref->url ? 0 : -2;
}

int conf_load_reference(struct osprey_ruleset *rs, const char *path)
{
    return conf_read(rs, path, ref_line);
}

/* --- threshold --------------------------------------------------------------------------- */

enum {
    TK_GEN = 1 << 0,
    TK_SIG = 1 << 1,
    TK_TYPE = 1 << 2,
    TK_TRACK = 1 << 3,
    TK_COUNT = 1 << 4,
    TK_SECONDS = 1 << 5,
    TK_NEW_ACTION = 1 << 6,
    TK_TIMEOUT = 1 << 7,
    TK_IP = 1 << 8,
};

static const char *const THR_KINDS[] = {"threshold", "suppress", "rate_filter", "event_filter",
                                        NULL};
static const char *const THR_TYPES[] = {"limit", "threshold", "both", NULL};
static const char *const THR_TRACKS[] = {"by_src", "by_dst", "by_rule", "by_both", NULL};
static const char *const SUP_TRACKS[] = {"by_src", "by_dst", "by_either", NULL};
static const char *const NEW_ACTIONS[] = {"alert", "drop", "pass", "log", "sdrop", "reject",
                                          NULL};
static const unsigned REQUIRED[] = {
    [TC_THRESHOLD] = TK_GEN | TK_SIG | TK_TYPE | TK_TRACK | TK_COUNT | TK_SECONDS,
    [TC_SUPPRESS] = TK_GEN | TK_SIG,
    [TC_RATE_FILTER] = TK_GEN | TK_SIG | TK_TRACK | TK_COUNT | TK_SECONDS | TK_NEW_ACTION |
                       TK_TIMEOUT,
    [TC_EVENT_FILTER] = TK_GEN | TK_SIG | TK_TYPE | TK_TRACK | TK_COUNT | TK_SECONDS,
};
static const unsigned ALLOWED[] = {
    [TC_THRESHOLD] = TK_GEN | TK_SIG | TK_TYPE | TK_TRACK | TK_COUNT | TK_SECONDS,
    [TC_SUPPRESS] = TK_GEN | TK_SIG | TK_TRACK | TK_IP,
    [TC_RATE_FILTER] = TK_GEN | TK_SIG | TK_TRACK | TK_COUNT | TK_SECONDS | TK_NEW_ACTION |
                       TK_TIMEOUT,
    [TC_EVENT_FILTER] = TK_GEN | TK_SIG | TK_TYPE | TK_TRACK | TK_COUNT | TK_SECONDS,
};

static int word_index(const char *s, size_t n, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (slice_ieq(s, n, words[i]))
            return i;
    return -1;
}

static int thr_line(struct osprey_ruleset *rs, const char *file, uint32_t line, char *s,
                    size_t n)
{
    const char *end = s + n, *w, *rest;
    size_t wn, rn;
    split_word(s, n, &w, &wn, &rest, &rn);
    int kind = word_index(w, wn, THR_KINDS);
    if (kind < 0)
        return bad(rs, file, line, "bad threshold line",
                   "unknown command '%.*s' (threshold, event_filter, suppress, rate_filter)",
                   (int)wn, w);
    struct thr_entry e;
    memset(&e, 0, sizeof e);
    e.kind = (uint8_t)kind;
    e.track = 0xff;
    e.file = file;
    e.line = line;
    unsigned seen = 0;
    /* key value pairs separated by commas; an ip list may hold commas inside [ ]. */
    const char *p = rest;
    while (p < end) {
        const char *it = p;
        int depth = 0;
        while (p < end && !(*p == ',' && depth == 0)) {
            depth += *p == '[';
            depth -= *p == ']';
            p++;
        }
        const char *ie = rtrim(it, p);
        p = p < end ? p + 1 : p;
        it = skip_ws(it, ie);
        const char *k, *v;
        size_t kn, vn;
        split_word(it, (size_t)(ie - it), &k, &kn, &v, &vn);
        if (kn == 0)
            return bad(rs, file, line, "bad threshold line", "empty field");
        static const char *const KEYS[] = {"gen_id", "sig_id", "type", "track", "count",
                                           "seconds", "new_action", "timeout", "ip", NULL};
        int ki = word_index(k, kn, KEYS);
        if (ki < 0 || !(ALLOWED[kind] & (1u << ki)))
            return bad(rs, file, line, "bad threshold line", "%s does not take '%.*s'",
                       THR_KINDS[kind], (int)kn, k);
        if (seen & (1u << ki))
            return bad(rs, file, line, "bad threshold line", "'%.*s' given twice", (int)kn, k);
        seen |= 1u << ki;
        if (vn == 0)
            return bad(rs, file, line, "bad threshold line", "'%.*s' needs a value", (int)kn, k);
        uint64_t num = 0;
        int idx;
        switch (1u << ki) {
        case TK_GEN:
        case TK_SIG:
        case TK_COUNT:
        case TK_SECONDS:
        case TK_TIMEOUT:
            if (!slice_u64(v, vn, false, UINT32_MAX, &num))
                return bad(rs, file, line, "bad threshold line",
                           "%.*s: expected a number, got '%.*s'", (int)kn, k, (int)vn, v);
            if (ki == 0)
                e.gid = (uint32_t)num;
            else if (ki == 1)
                e.sid = (uint32_t)num;
            else if (ki == 4)
                e.count = (uint32_t)num;
            else if (ki == 5)
                e.seconds = (uint32_t)num;
            else
                e.timeout = (uint32_t)num;
            break;
        case TK_TYPE:
            if ((idx = word_index(v, vn, THR_TYPES)) < 0)
                return bad(rs, file, line, "bad threshold line",
                           "type must be limit, threshold or both, got '%.*s'", (int)vn, v);
            e.type = (uint8_t)idx;
            break;
        case TK_TRACK:
            idx = word_index(v, vn, kind == TC_SUPPRESS ? SUP_TRACKS : THR_TRACKS);
            if (idx < 0)
                return bad(rs, file, line, "bad threshold line", "invalid track '%.*s'",
                           (int)vn, v);
            e.track = (uint8_t)idx;
            break;
        case TK_NEW_ACTION:
            if (word_index(v, vn, NEW_ACTIONS) < 0)
                return bad(rs, file, line, "bad threshold line", "invalid new_action '%.*s'",
                           (int)vn, v);
            e.new_action = arena_strndup(&rs->meta, v, vn);
            break;
        case TK_IP: {
            struct rset set;
            struct expr_err err;
            struct arena_mark m = arena_mark(&rs->tmp);
            int rc = expr_eval(&rs->vars, &rs->tmp, false, v, vn, &set, &err);
            arena_release(&rs->tmp, m);
            if (rc < 0)
                return bad(rs, file, line, "bad threshold line", "ip: %s", err.msg);
            e.ip = arena_strndup(&rs->meta, v, vn);
            break;
        }
        }
    }
    unsigned missing = REQUIRED[kind] & ~seen;
    if (kind == TC_SUPPRESS && ((seen & TK_TRACK) != 0) != ((seen & TK_IP) != 0))
        return bad(rs, file, line, "bad threshold line",
                   "suppress takes track and ip together, or neither");
    if (missing) {
        static const char *const NAMES[] = {"gen_id", "sig_id", "type", "track", "count",
                                            "seconds", "new_action", "timeout", "ip"};
        int b = __builtin_ctz(missing);
        return bad(rs, file, line, "bad threshold line", "%s needs '%s'", THR_KINDS[kind],
                   NAMES[b]);
    }
    if ((rs->nthr & (rs->nthr - 1)) == 0) {
        uint32_t cap = rs->nthr ? rs->nthr * 2 : 32;
        struct thr_entry *nv = arena_alloc(&rs->meta, cap * sizeof *nv);
        if (nv == NULL)
            return -2;
        if (rs->nthr)
            memcpy(nv, rs->thr, rs->nthr * sizeof *nv);
        rs->thr = nv;
    }
    rs->thr[rs->nthr++] = e;
    return 0;
}

int conf_load_threshold(struct osprey_ruleset *rs, const char *path)
{
    return conf_read(rs, path, thr_line);
}
