/* test_registry.c — the option table's invariants: every keyword once, findable by name,
 * with a dialect, an argument rule that matches its parser, a buffer where it selects one, and
 * "implemented" exactly for the options the engine handles today. */
#include <string.h>

#include "buffers.h"
#include "osprey_rules.h"
#include "registry.h"
#include "unit.h"

static const char *const IMPLEMENTED[] = {
    "msg", "sid", "gid", "rev", "classtype", "priority", "reference", "metadata", "target",
    /* rules/compile/: compile + evaluate beside the parser */
    "content", "nocase", "rawbytes", "depth", "offset", "distance", "within", "fast_pattern",
    "startswith", "endswith", "flow", "dsize", "pcre", "isdataat", "threshold",
    "detection_filter", "flowbits", "itype", "icode", "ttl", "tos", "id", "icmp_id", "icmp_seq",
    "seq", "ack", "window", "flags", "byte_test", "byte_jump", "ip_proto", "sameip",
    "fragbits", "fragoffset", "ipopts", "byte_extract", "byte_math", NULL};

static bool listed(const char *name)
{
    for (int i = 0; IMPLEMENTED[i]; i++)
        if (strcmp(IMPLEMENTED[i], name) == 0)
            return true;
    return false;
}

int main(void)
{
    size_t n = opt_def_count();
    CHECK(n == osprey_rules_keyword_count());
    CHECK(n > 200);
    struct opt_index ix;
    CHECK(opt_index_build(&ix) == 0);
    for (size_t i = 0; i < n; i++) {
        const struct opt_def *d = opt_def_by_id(i);
        CHECK(d != NULL && d->name && d->name[0]);
        CHECK(strcmp(osprey_rules_keyword_name(i), d->name) == 0);
        /* unique: the index finds this very row */
        int found = opt_index_find(&ix, d->name, strlen(d->name));
        if (found != (int)i)
            fprintf(stderr, "keyword %s: index gives %d, row %zu\n", d->name, found, i);
        CHECK(found == (int)i);
        CHECK(d->dialects != 0 && (d->dialects & ~D_ALL) == 0);
        if (d->arg == ARG_REQUIRED && d->parse == NULL)
            fprintf(stderr, "keyword %s takes an argument nobody checks\n", d->name);
        CHECK(d->arg != ARG_REQUIRED || d->parse != NULL);
        if (d->kind == OPT_STICKY || d->kind == OPT_HTTP_LEGACY)
            CHECK(d->buffer < BUF_COUNT && (d->buffer != BUF_PKT ||
                                            strcmp(d->name, "pkt_data") == 0));
        else
            CHECK(d->buffer == 0);
        if (d->implemented != listed(d->name))
            fprintf(stderr, "keyword %s: implemented=%d\n", d->name, d->implemented);
        CHECK(d->implemented == listed(d->name));
        CHECK(osprey_rules_keyword_implemented(i) == d->implemented);
    }
    CHECK(opt_def_by_id(n) == NULL);
    CHECK(osprey_rules_keyword_name(n) == NULL);
    CHECK(opt_index_find(&ix, "contentx", 8) == -1);
    CHECK(opt_index_find(&ix, "conten", 6) == -1);
    CHECK(opt_index_find(&ix, "content", 7) >= 0);
    for (unsigned b = 0; b < BUF_COUNT; b++)
        CHECK(strcmp(osprey_rules_buffer_name(b), "?") != 0);
    CHECK(strcmp(osprey_rules_buffer_name(BUF_COUNT), "?") == 0);
    CHECK(strcmp(osprey_rules_buffer_name(BUF_HTTP_URI), "http.uri") == 0);
    opt_index_free(&ix);
    return unit_report("test_registry");
}
