/* list_keywords.c — `osprey --list-keywords`: every rule keyword the registry knows, as CSV.
 *
 * One line per keyword in registry order (stable: the order of rules/options/registry.c), so
 * tools/compat-table.py and scripts can read it. No field holds a comma or a quote: keyword,
 * kind and buffer names are identifiers, dialects are joined with '|'. */
#include "list_keywords.h"

#include "options.h"
#include "osprey_rules.h"

static void print_dialects(FILE *out, unsigned d)
{
    static const struct {
        unsigned bit;
        const char *name;
    } NAMES[] = {{OSPREY_KW_SNORT2, "snort2"},
                 {OSPREY_KW_SNORT3, "snort3"},
                 {OSPREY_KW_SURICATA, "suricata"}};
    const char *sep = "";
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (d & NAMES[i].bit) {
            fprintf(out, "%s%s", sep, NAMES[i].name);
            sep = "|";
        }
}

int osprey_list_keywords(FILE *out)
{
    fprintf(out, "keyword,dialects,kind,status,buffer\n");
    size_t n = osprey_rules_keyword_count();
    for (size_t kw = 0; kw < n; kw++) {
        const char *buffer = osprey_rules_keyword_buffer(kw);
        fprintf(out, "%s,", osprey_rules_keyword_name(kw));
        print_dialects(out, osprey_rules_keyword_dialects(kw));
        fprintf(out, ",%s,%s,%s\n", osprey_rules_keyword_kind(kw),
                osprey_rules_keyword_implemented(kw) ? "implemented" : "parsed-only",
                buffer ? buffer : "");
    }
    if (fflush(out) != 0 || ferror(out)) {
        perror("osprey: writing the keyword list");
        return OSPREY_EXIT_FAILURE;
    }
    return OSPREY_EXIT_OK;
}
