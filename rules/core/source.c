/* source.c — rule files → logical rules: lines, continuations, comments, disabled rules.
 *
 * A rule may continue on the next line when its line ends with '\' (Suricata's files do that);
 * "\r\n" endings are accepted. A comment line is a disabled rule when, with its '#' marks and
 * spaces stripped, it starts with an action word and ends with ')' (or '\' to continue), like
 * "# alert tcp ... (...)" or "#alert" or "## alert" in ET files; any other comment is ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "header.h"
#include "ruleset.h"
#include "text.h"

static int line_reserve(struct osprey_ruleset *rs, size_t need)
{
    if (need <= rs->linecap)
        return 0;
    size_t cap = rs->linecap ? rs->linecap : 4096;
    while (cap < need)
        cap *= 2;
    char *p = realloc(rs->line, cap);
    if (p == NULL)
        return -1;
    rs->line = p;
    rs->linecap = cap;
    return 0;
}

static int seg_add(struct osprey_ruleset *rs, uint32_t off, uint32_t line, uint32_t col)
{
    if (rs->nsegs == rs->capsegs) {
        uint32_t cap = rs->capsegs ? rs->capsegs * 2 : 16;
        struct rule_seg *s = realloc(rs->segs, cap * sizeof *s);
        if (s == NULL)
            return -1;
        rs->segs = s;
        rs->capsegs = cap;
    }
    rs->segs[rs->nsegs++] = (struct rule_seg){off, line, col};
    return 0;
}

/* Does the comment text [p, e) hold a rule? */
static bool commented_rule(const char *p, const char *e)
{
    const char *w = p;
    while (p < e && (is_alpha(*p) || *p == '_'))
        p++;
    if (p == w || header_action(w, (size_t)(p - w)) < 0)
        return false;
    if (p < e && !is_space(*p) && *p != '(')
        return false;
    if (memchr(p, '(', (size_t)(e - p)) == NULL)
        return false;
    const char *last = rtrim(p, e);
    return last > p && (last[-1] == ')' || last[-1] == '\\');
}

int ruleset_parse_text(struct osprey_ruleset *rs, const char *text, size_t size)
{
    const char *p = text, *end = text + size;
    uint32_t lineno = 0;
    size_t len = 0;
    bool building = false, disabled = false;
    while (p < end) {
        const char *ls = p;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        p = nl ? nl + 1 : end;
        lineno++;
        while (le > ls && le[-1] == '\r')
            le--;
        const char *s = ls;
        if (building) {
            if (disabled) {
                /* A disabled rule's continuation lines are comments too. */
                const char *q = skip_ws(s, le);
                if (q < le && *q == '#') {
                    while (q < le && (*q == '#' || is_space(*q)))
                        q++;
                    s = q;
                }
            }
        } else {
            s = skip_ws(ls, le);
            if (s == le)
                continue;
            disabled = false;
            if (*s == '#') {
                const char *q = s;
                while (q < le && (*q == '#' || is_space(*q)))
                    q++;
                if (!commented_rule(q, le))
                    continue;
                s = q;
                disabled = true;
            }
            len = 0;
            rs->nsegs = 0;
            building = true;
        }
        size_t n = (size_t)(le - s);
        if (line_reserve(rs, len + n + 2) < 0 ||
            seg_add(rs, (uint32_t)len, lineno, (uint32_t)(s - ls) + 1) < 0)
            return -1;
        memcpy(rs->line + len, s, n);
        len += n;
        /* Continued: the line ends with '\' (spaces after it tolerated). */
        size_t t = len;
        while (t > 0 && is_space(rs->line[t - 1]))
            t--;
        if (t > 0 && rs->line[t - 1] == '\\') {
            len = t - 1;
            if (p < end)
                continue;
        }
        building = false;
        rs->line[len] = '\0';
        if (len > UINT32_MAX - 1 || ruleset_take_rule(rs, (uint32_t)len, disabled) < 0)
            return -1;
    }
    if (building) {
        rs->line[len] = '\0';
        if (ruleset_take_rule(rs, (uint32_t)len, disabled) < 0)
            return -1;
    }
    return 0;
}

int osprey_ruleset_add_text(struct osprey_ruleset *rs, const char *name, const char *text,
                            size_t len)
{
    rs->file = arena_strdup(&rs->meta, name ? name : "<text>");
    if (rs->file == NULL)
        return -1;
    rs->file_snort3 = false;
    rs->stats.files++;
    int rc = ruleset_parse_text(rs, text, len);
    ruleset_compact(rs);
    rs->stats.arena_bytes = rs->ast.bytes + rs->meta.bytes + rs->vars.ar.bytes;
    return rc;
}

int osprey_ruleset_add_file(struct osprey_ruleset *rs, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        int err = errno;
        const char *name = arena_strdup(&rs->meta, path);
        if (name == NULL)
            return -1;
        ruleset_diag(rs, OSPREY_DIAG_CONFIG, name, 0, 0, "unreadable rule file",
                     "cannot open rule file: %s", strerror(err));
        rs->stats.config_errors++;
        return -1;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 65536) {
            size_t ncap = cap ? cap * 2 : 1 << 20;
            char *nb = realloc(buf, ncap);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return -1;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        const char *name = arena_strdup(&rs->meta, path);
        if (name == NULL)
            return -1;
        ruleset_diag(rs, OSPREY_DIAG_CONFIG, name, 0, 0, "unreadable rule file",
                     "error reading rule file");
        rs->stats.config_errors++;
        return -1;
    }
    int rc = osprey_ruleset_add_text(rs, path, buf, n);
    free(buf);
    return rc;
}
