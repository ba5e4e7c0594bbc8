/* opt_flow.c — flow:to_server,established … (every dialect).
 *
 * Words: to_server/from_client, to_client/from_server, established, not_established,
 * stateless, only_stream/no_stream, only_frag/no_frag. A word twice, two directions or two
 * contradicting states are errors. */
#include <string.h>

#include "opt_eval.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

static const struct {
    const char *word;
    uint32_t flag;
} WORDS[] = {
    {"to_server", FLOW_TO_SERVER},       {"from_client", FLOW_TO_SERVER},
    {"to_client", FLOW_TO_CLIENT},       {"from_server", FLOW_TO_CLIENT},
    {"established", FLOW_ESTABLISHED},   {"not_established", FLOW_NOT_ESTABLISHED},
    {"stateless", FLOW_STATELESS},       {"only_stream", FLOW_ONLY_STREAM},
    {"no_stream", FLOW_NO_STREAM},       {"only_frag", FLOW_ONLY_FRAG},
    {"no_frag", FLOW_NO_FRAG},
};

static const uint32_t EXCLUSIVE[] = {
    FLOW_TO_SERVER | FLOW_TO_CLIENT,
    FLOW_ESTABLISHED | FLOW_NOT_ESTABLISHED | FLOW_STATELESS,
    FLOW_ONLY_STREAM | FLOW_NO_STREAM,
    FLOW_ONLY_FRAG | FLOW_NO_FRAG,
};

static int parse_flow(struct rule_ctx *c, char *val)
{
    struct opt_flow *f = opt_arg_new(c, sizeof *f);
    if (f == NULL)
        return -1;
    struct list_iter it;
    const char *w;
    size_t n;
    list_init(&it, val, strlen(val), ',');
    while (list_next(&it, &w, &n)) {
        size_t k = 0;
        while (k < sizeof WORDS / sizeof WORDS[0] && !slice_eq(w, n, WORDS[k].word))
            k++;
        if (k == sizeof WORDS / sizeof WORDS[0])
            return opt_error(c, w, n ? "unknown flow option '%.*s'" : "empty item%.*s", (int)n,
                             w);
        uint32_t flag = WORDS[k].flag;
        if (f->flags & flag)
            return opt_error(c, w, "'%.*s' repeats a setting", (int)n, w);
        for (size_t e = 0; e < sizeof EXCLUSIVE / sizeof EXCLUSIVE[0]; e++)
            if ((EXCLUSIVE[e] & flag) && (f->flags & EXCLUSIVE[e]))
                return opt_error(c, w, "'%.*s' contradicts an earlier flow option", (int)n, w);
        f->flags |= flag;
    }
    return 0;
}

static const struct opt_def DEFS[] = {
    {"flow", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_flow, true, flow_compile_check},
};
OPT_TABLE(opt_table_flow, DEFS);

/* --- compile and evaluate ------------------------------------------------------------- */

const char *flow_compile_check(const void *arg)
{
    const struct opt_flow *f = arg;
    (void)f; /* every flow word is honoured */
    return NULL;
}

/* Suricata's meaning: direction and state refer to the flow the inspected data belongs to;
 * stateless matches whatever the state; only_stream/no_stream pick the stream or the packet
 * (the compiler already chose the base event accordingly, this keeps the filter honest). */
bool flow_match(const struct opt_flow *f, const struct flow_view *v)
{
    uint32_t fl = f->flags;
    if ((fl & (FLOW_TO_SERVER | FLOW_TO_CLIENT | FLOW_ESTABLISHED | FLOW_NOT_ESTABLISHED)) &&
        !v->has_flow)
        return false;
    if ((fl & FLOW_TO_SERVER) && !v->to_server)
        return false;
    if ((fl & FLOW_TO_CLIENT) && v->to_server)
        return false;
    if ((fl & FLOW_ESTABLISHED) && !v->established)
        return false;
    if ((fl & FLOW_NOT_ESTABLISHED) && v->established)
        return false;
    if ((fl & FLOW_ONLY_STREAM) && !v->stream)
        return false;
    if ((fl & FLOW_NO_STREAM) && v->stream)
        return false;
    if ((fl & FLOW_ONLY_FRAG) && !v->reassembled)
        return false;
    if ((fl & FLOW_NO_FRAG) && v->reassembled)
        return false;
    return true;
}
