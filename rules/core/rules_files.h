/* rules_files.h — which rule files to load, and the report helpers check.c and dump.c share. */
#ifndef RULES_FILES_H
#define RULES_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct osprey_config;
struct osprey_ruleset;

struct rules_file_list {
    char **paths;
    size_t n;
};

/* files[0..nfiles) when given (like Suricata's -S: only these), else the configuration's
 * rule-files, each relative name joined to default-rule-path. */
int rules_file_list(struct rules_file_list *l, const struct osprey_config *cfg,
                    const char *const *files, int nfiles);
void rules_file_list_free(struct rules_file_list *l);

/* Create a ruleset and load the files. Returns 0, 1 when there were no files to load, -1 on
 * failure (a message was printed to out). */
int rules_load_for_report(const struct osprey_config *cfg, const char *const *files, int nfiles,
                          bool keep_all, FILE *out, struct osprey_ruleset **rs);
void rules_print_diags(const struct osprey_ruleset *rs, FILE *out);
void rules_print_summary(const struct osprey_ruleset *rs, FILE *out);

#endif
