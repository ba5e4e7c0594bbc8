/* rule_err.c — recording a rule's first syntax and first semantic error, with its position.
 *
 * Why positions are computed here: the logical rule text is built from continued lines and
 * from comment lines with their '#' stripped, so an offset is mapped back through the rule's
 * segments to the line and column the user sees in the file.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "registry.h"
#include "rule.h"

void rule_where(const struct rule_ctx *c, const char *p, uint32_t *line, uint32_t *col)
{
    uint32_t off = (uint32_t)(p - c->text);
    uint32_t i = 0;
    while (i + 1 < c->nsegs && c->segs[i + 1].off <= off)
        i++;
    *line = c->segs[i].line;
    *col = c->segs[i].col + (off - c->segs[i].off);
}

static int record(struct rule_ctx *c, struct rule_err *e, const char *pos, const char *key,
                  const char *fmt, va_list ap)
{
    if (e->set)
        return -1;
    e->set = true;
    snprintf(e->key, sizeof e->key, "%s", key);
    int n = vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    e->line = e->col = 0;
    if (pos && c->text && pos >= c->text) {
        rule_where(c, pos, &e->line, &e->col);
        if (n >= 0 && (size_t)n < sizeof e->msg) {
            if (e->line != c->segs[0].line)
                snprintf(e->msg + n, sizeof e->msg - (size_t)n, " (line %u col %u)", e->line,
                         e->col);
            else
                snprintf(e->msg + n, sizeof e->msg - (size_t)n, " (col %u)", e->col);
        }
    }
    return -1;
}

int rule_syntax_error(struct rule_ctx *c, const char *pos, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(c, &c->syntax, pos, key, fmt, ap);
    va_end(ap);
    return -1;
}

int rule_semantic_error(struct rule_ctx *c, const char *pos, const char *key, const char *fmt,
                        ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(c, &c->semantic, pos, key, fmt, ap);
    va_end(ap);
    return -1;
}

int opt_error(struct rule_ctx *c, const char *pos, const char *fmt, ...)
{
    char key[64], buf[320];
    const char *kw = c->def ? c->def->name : "option";
    snprintf(key, sizeof key, "syntax error in %s", kw);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return rule_syntax_error(c, pos, key, "%s: %s", kw, buf);
}

int rule_oom(struct rule_ctx *c)
{
    return rule_syntax_error(c, NULL, "out of memory", "out of memory");
}

int rule_define_var(struct rule_ctx *c, const char *pos, const char *name, size_t n)
{
    (void)pos;
    if (rule_has_var(c, name, n))
        return 0; /* Snort and Suricata let a later byte_extract overwrite the value */
    if (c->nvars == RULE_MAX_VARS)
        return opt_error(c, pos, "more than %d byte variables in one rule", RULE_MAX_VARS);
    char *v = arena_strndup(c->tmp, name, n);
    if (v == NULL)
        return rule_oom(c);
    c->vars[c->nvars++] = v;
    return 0;
}

bool rule_has_var(const struct rule_ctx *c, const char *name, size_t n)
{
    for (uint32_t i = 0; i < c->nvars; i++)
        if (strncmp(c->vars[i], name, n) == 0 && c->vars[i][n] == '\0')
            return true;
    return false;
}
