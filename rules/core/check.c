/* check.c — `osprey -T`: load the rule files, print what was rejected and why, summarise.
 *
 * Output: one line per rejected rule "FILE:LINE: sid N: REASON" (and per malformed disabled
 * rule, marked "disabled rule:"), configuration problems as "FILE:LINE: REASON", then the
 * summary: counts, rejections grouped by reason, and the option keywords seen.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osprey_config.h"
#include "osprey_rules.h"
#include "rules_files.h"
#include "ruleset.h"

struct reason {
    const char *key;
    uint32_t count;
};

static int by_count(const void *a, const void *b)
{
    const struct reason *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->key, y->key);
}

struct kwrow {
    size_t kw;
    uint32_t enabled, disabled;
};

static int kw_order(const void *a, const void *b)
{
    const struct kwrow *x = a, *y = b;
    if (x->enabled != y->enabled)
        return x->enabled < y->enabled ? 1 : -1;
    if (x->disabled != y->disabled)
        return x->disabled < y->disabled ? 1 : -1;
    return strcmp(osprey_rules_keyword_name(x->kw), osprey_rules_keyword_name(y->kw));
}

void rules_print_diags(const struct osprey_ruleset *rs, FILE *out)
{
    for (size_t i = 0; i < osprey_ruleset_diag_count(rs); i++) {
        const struct osprey_rules_diag *d = osprey_ruleset_diag(rs, i);
        switch (d->kind) {
        case OSPREY_DIAG_REJECTED:
        case OSPREY_DIAG_DISABLED:
            fprintf(out, "%s:%u: sid ", d->file, d->line);
            if (d->sid)
                fprintf(out, "%u", d->sid);
            else
                fputc('?', out);
            fprintf(out, ": %s%s\n", d->kind == OSPREY_DIAG_DISABLED ? "disabled rule: " : "",
                    d->text);
            break;
        case OSPREY_DIAG_CONFIG:
        case OSPREY_DIAG_WARNING:
            fprintf(out, "%s%s", d->kind == OSPREY_DIAG_WARNING ? "warning: " : "", d->file);
            if (d->line)
                fprintf(out, ":%u", d->line);
            fprintf(out, ": %s\n", d->text);
            break;
        }
    }
}

static void print_reasons(const struct osprey_ruleset *rs, FILE *out)
{
    size_t n = 0, cap = 16;
    struct reason *r = malloc(cap * sizeof *r);
    if (r == NULL)
        return;
    for (size_t i = 0; i < osprey_ruleset_diag_count(rs); i++) {
        const struct osprey_rules_diag *d = osprey_ruleset_diag(rs, i);
        if (d->kind != OSPREY_DIAG_REJECTED)
            continue;
        size_t k = 0;
        while (k < n && strcmp(r[k].key, d->key) != 0)
            k++;
        if (k == n) {
            if (n == cap) {
                struct reason *nr = realloc(r, 2 * cap * sizeof *r);
                if (nr == NULL)
                    break;
                r = nr;
                cap *= 2;
            }
            r[n++] = (struct reason){d->key, 0};
        }
        r[k].count++;
    }
    qsort(r, n, sizeof *r, by_count);
    for (size_t k = 0; k < n; k++)
        fprintf(out, "  %8u  %s\n", r[k].count, r[k].key);
    free(r);
}

static void print_keywords(const struct osprey_ruleset *rs, FILE *out)
{
    size_t nkw = osprey_rules_keyword_count(), n = 0;
    struct kwrow *rows = malloc(nkw * sizeof *rows);
    if (rows == NULL)
        return;
    for (size_t kw = 0; kw < nkw; kw++) {
        uint32_t e, d;
        osprey_ruleset_keyword_uses(rs, kw, &e, &d);
        if (e || d)
            rows[n++] = (struct kwrow){kw, e, d};
    }
    qsort(rows, n, sizeof *rows, kw_order);
    fprintf(out, "Option keywords (rules using each):\n");
    fprintf(out, "  %-26s %8s %9s  %s\n", "keyword", "enabled", "disabled", "implemented");
    for (size_t i = 0; i < n; i++)
        fprintf(out, "  %-26s %8u %9u  %s\n", osprey_rules_keyword_name(rows[i].kw),
                rows[i].enabled, rows[i].disabled,
                osprey_rules_keyword_implemented(rows[i].kw) ? "yes" : "no");
    free(rows);
}

void rules_print_summary(const struct osprey_ruleset *rs, FILE *out)
{
    const struct osprey_rules_stats *s = osprey_ruleset_stats(rs);
    fprintf(out, "\nRule check: %u rules read from %u file%s\n", s->read, s->files,
            s->files == 1 ? "" : "s");
    fprintf(out, "  enabled               %u\n", s->enabled);
    fprintf(out, "    accepted            %u\n", s->accepted);
    fprintf(out, "    rejected            %u\n", s->rejected);
    fprintf(out, "      malformed         %u\n", s->syntax_errors);
    fprintf(out, "      unsupported only  %u\n", s->unsupported);
    fprintf(out, "      duplicate sid     %u\n", s->duplicate_sids);
    fprintf(out, "      older revision    %u\n", s->conflicting_revs);
    if (s->skipped)
        fprintf(out, "    skipped (requires)  %u\n", s->skipped);
    fprintf(out, "  disabled              %u\n", s->disabled);
    fprintf(out, "    parse               %u\n", s->disabled_parsed);
    fprintf(out, "    malformed           %u\n", s->disabled_syntax_errors);
    fprintf(out, "  configuration errors  %u\n", s->config_errors);
    if (s->rejected) {
        fprintf(out, "Rejected by reason:\n");
        print_reasons(rs, out);
    }
    print_keywords(rs, out);
}

int rules_load_for_report(const struct osprey_config *cfg, const char *const *files, int nfiles,
                          bool keep_all, FILE *out, struct osprey_ruleset **rsp)
{
    struct osprey_rules_options opts;
    memset(&opts, 0, sizeof opts);
    opts.keep_all = keep_all;
    struct osprey_ruleset *rs;
    if (osprey_ruleset_create(&rs, cfg, &opts) < 0) {
        fprintf(out, "osprey: out of memory\n");
        return -1;
    }
    struct rules_file_list list;
    if (rules_file_list(&list, cfg, files, nfiles) < 0) {
        fprintf(out, "osprey: out of memory\n");
        osprey_ruleset_free(rs);
        return -1;
    }
    if (list.n == 0)
        fprintf(out, "osprey: no rule files: give -S FILE or set rule-files in the "
                     "configuration\n");
    for (size_t i = 0; i < list.n; i++) {
        if (osprey_ruleset_add_file(rs, list.paths[i]) < 0 &&
            osprey_ruleset_stats(rs)->config_errors == 0) {
            fprintf(out, "osprey: out of memory\n");
            rules_file_list_free(&list);
            osprey_ruleset_free(rs);
            return -1;
        }
    }
    int empty = list.n == 0;
    rules_file_list_free(&list);
    ruleset_finish(rs);
    *rsp = rs;
    return empty;
}

int osprey_rules_check(const struct osprey_config *cfg, const char *const *files, int nfiles,
                       FILE *out)
{
    struct osprey_ruleset *rs;
    int rc = rules_load_for_report(cfg, files, nfiles, false, out, &rs);
    if (rc < 0)
        return 1;
    rules_print_diags(rs, out);
    rules_print_summary(rs, out);
    const struct osprey_rules_stats *s = osprey_ruleset_stats(rs);
    int status = rc == 0 && s->rejected == 0 && s->config_errors == 0 ? 0 : 1;
    osprey_ruleset_free(rs);
    return status;
}
