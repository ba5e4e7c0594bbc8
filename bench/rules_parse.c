/* rules_parse.c — time and memory to parse a ruleset (ET Open 2019: ~27k rules).
 *
 * Usage: bench-rules-parse [-n RUNS] FILE...   (run from the repository root, so the shipped
 * etc/classification.config and etc/reference.config are used like `osprey -T` would).
 * Each run builds a fresh ruleset from the files (read, split, parse, resolve variables,
 * compile-check every pcre with PCRE2) and frees it; the best and median wall times are
 * printed. A last run keeps every rule's AST (as if all were accepted) for the memory a fully
 * loaded ruleset takes, and the process's peak RSS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "osprey_config.h"
#include "osprey_rules.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int runs = 5, first = 1;
    if (argc > 2 && strcmp(argv[1], "-n") == 0) {
        runs = atoi(argv[2]);
        first = 3;
    }
    if (first >= argc || runs < 1) {
        fprintf(stderr, "usage: %s [-n RUNS] FILE...\n", argv[0]);
        return 2;
    }
    struct osprey_config *cfg;
    if (osprey_config_load(&cfg, NULL, NULL, 0, stderr) < 0)
        return 1;
    double *t = calloc((size_t)runs, sizeof *t);
    struct osprey_rules_stats st;
    memset(&st, 0, sizeof st);
    for (int r = 0; r < runs; r++) {
        double t0 = now();
        struct osprey_ruleset *rs;
        if (osprey_ruleset_create(&rs, cfg, NULL) < 0)
            return 1;
        for (int i = first; i < argc; i++)
            osprey_ruleset_add_file(rs, argv[i]);
        t[r] = now() - t0;
        st = *osprey_ruleset_stats(rs);
        osprey_ruleset_free(rs);
    }
    qsort(t, (size_t)runs, sizeof *t, by_value);
    struct osprey_rules_options keep = {0};
    keep.keep_all = true;
    struct osprey_ruleset *all;
    double k0 = now();
    if (osprey_ruleset_create(&all, cfg, &keep) < 0)
        return 1;
    for (int i = first; i < argc; i++)
        osprey_ruleset_add_file(all, argv[i]);
    double kt = now() - k0;
    uint64_t kept_bytes = osprey_ruleset_stats(all)->arena_bytes;
    size_t kept = osprey_ruleset_count(all);
    osprey_ruleset_free(all);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("rules-parse: %u rules (%u enabled, %u disabled) from %u files\n", st.read,
           st.enabled, st.disabled, st.files);
    printf("  parse time   best %.3f s, median %.3f s over %d runs (%.0f rules/s)\n", t[0],
           t[runs / 2], runs, st.read / t[0]);
    printf("  AST memory   %.1f MiB with every rule kept (%zu rules, %.0f bytes/rule; "
           "parse %.3f s)\n",
           (double)kept_bytes / (1 << 20), kept, (double)kept_bytes / (double)kept, kt);
    printf("  peak RSS     %.1f MiB\n", (double)ru.ru_maxrss / 1024);
    free(t);
    osprey_config_free(cfg);
    return 0;
}
