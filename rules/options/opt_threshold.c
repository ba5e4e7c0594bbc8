/* opt_threshold.c — threshold and detection_filter: how often a match may alert.
 *
 *   threshold:type limit|threshold|both|backoff, track by_src|by_dst|by_rule|by_both|by_flow,
 *             count N, seconds N          (backoff: count N, multiplier N, no seconds)
 *   detection_filter:track by_src|by_dst|by_rule|by_both|by_flow, count N, seconds N
 * (the track words are enum thr_track's order: the parser stores the word's index)
 * Fields in any order, each once, all required.
 */
#include <string.h>

#include "opt_eval.h"
#include "opt_params.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

enum { T_TYPE = 1, T_TRACK = 2, T_COUNT = 4, T_SECONDS = 8, T_MULT = 16 }; /* THRESHOLD[] bits */

static const char *const TYPES[] = {"limit", "threshold", "both", "backoff", NULL};
static const char *const TRACKS[] = {"by_src", "by_dst", "by_rule", "by_both", "by_flow", NULL};

/* Which of them are required depends on the type: parse_common checks. */
static const struct opt_param THRESHOLD[] = {
    {.name = "type", .type = PT_ENUM, .words = TYPES, PARAM_AT(struct opt_threshold, type)},
    {.name = "track", .type = PT_ENUM, .words = TRACKS, PARAM_AT(struct opt_threshold, track)},
    {.name = "count", .type = PT_NUM, .lo = 1, .hi = UINT32_MAX,
     PARAM_AT(struct opt_threshold, count)},
    {.name = "seconds", .type = PT_NUM, .lo = 1, .hi = UINT32_MAX,
     PARAM_AT(struct opt_threshold, seconds)},
    {.name = "multiplier", .type = PT_NUM, .lo = 1, .hi = UINT32_MAX,
     PARAM_AT(struct opt_threshold, multiplier)},
};
static const struct opt_param DETECTION_FILTER[] = {
    {.name = "track", .type = PT_ENUM, .flags = P_REQUIRED, .words = TRACKS,
     PARAM_AT(struct opt_threshold, track)},
    {.name = "count", .type = PT_NUM, .flags = P_REQUIRED, .lo = 1, .hi = UINT32_MAX,
     PARAM_AT(struct opt_threshold, count)},
    {.name = "seconds", .type = PT_NUM, .flags = P_REQUIRED, .lo = 1, .hi = UINT32_MAX,
     PARAM_AT(struct opt_threshold, seconds)},
};

static int parse_common(struct rule_ctx *c, char *val, bool filter)
{
    static const struct opt_params SPEC = {OPT_PARAMS(THRESHOLD), .item = "field",
                                           .empty = "empty field"};
    static const struct opt_params FSPEC = {OPT_PARAMS(DETECTION_FILTER), .item = "field",
                                            .empty = "empty field"};
    struct opt_threshold *t = opt_arg_new(c, sizeof *t);
    if (t == NULL)
        return -1;
    if (filter) {
        t->type = THR_DETECTION_FILTER;
        return opt_params_parse(c, val, &FSPEC, t, NULL);
    }
    uint32_t seen;
    if (opt_params_parse(c, val, &SPEC, t, &seen) < 0)
        return -1;
    unsigned need = T_TYPE | T_TRACK | T_COUNT |
                    (t->type == THR_BACKOFF && (seen & T_TYPE) ? T_MULT : T_SECONDS);
    if ((seen & T_MULT) && !(need & T_MULT))
        return opt_error(c, val, "multiplier is only for type backoff");
    if ((seen & T_SECONDS) && !(need & T_SECONDS))
        return opt_error(c, val, "type backoff takes no seconds");
    unsigned missing = need & ~seen;
    if (missing)
        return opt_error(c, val, "missing '%s'", THRESHOLD[__builtin_ctz(missing)].name);
    return 0;
}

static int parse_threshold(struct rule_ctx *c, char *val)
{
    return parse_common(c, val, false);
}

static int parse_detection_filter(struct rule_ctx *c, char *val)
{
    return parse_common(c, val, true);
}

static const struct opt_def DEFS[] = {
    {"threshold", OPT_MATCH, D_CLASSIC, ARG_REQUIRED, 0, parse_threshold, true,
     threshold_compile_check},
    {"detection_filter", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_detection_filter, true,
     threshold_compile_check},
};
OPT_TABLE(opt_table_threshold, DEFS);

/* --- compile and evaluate ------------------------------------------------------------- */

const char *threshold_compile_check(const void *arg)
{
    (void)arg;
    return NULL;
}

/* Suricata's backoff: the `count`-th event alerts, then the count*multiplier-th, then every
 * time the event number is multiplied again (count 1, multiplier 10: the 1st, 10th, 100th …;
 * count 5, multiplier 5: the 5th, 25th, 125th …). It has no window: the count of a tracked
 * key never restarts. */
static bool backoff_event(const struct opt_threshold *t, struct thr_state *st, uint64_t now_us)
{
    if (st->count == 0)
        st->start_us = now_us; /* (only for the table's eviction of its oldest entries) */
    if (st->count < UINT32_MAX)
        st->count++;
    if (st->count < t->count)
        return false;
    if (st->count == t->count) {
        st->next = (uint64_t)t->count * t->multiplier;
        return true;
    }
    if (st->count != st->next)
        return false;
    st->next *= t->multiplier;
    return true;
}

/* Suricata's meanings, per tracked key and window of `seconds` from its first event:
 *   limit      the first `count` events alert;
 *   threshold  every `count`-th event alerts;
 *   both       the `count`-th event alerts, once per window;
 *   detection_filter  every event after the first `count` alerts;
 *   backoff    see backoff_event. */
bool threshold_event(const struct opt_threshold *t, struct thr_state *st, uint64_t now_us)
{
    if (t->type == THR_BACKOFF)
        return backoff_event(t, st, now_us);
    if (st->count == 0 || now_us - st->start_us >= (uint64_t)t->seconds * 1000000u) {
        st->start_us = now_us;
        st->count = 0;
    }
    st->count++;
    switch (t->type) {
    case THR_LIMIT:
        return st->count <= t->count;
    case THR_THRESHOLD:
        if (st->count < t->count)
            return false;
        st->count = 0;
        return true;
    case THR_BOTH:
        return st->count == t->count;
    case THR_DETECTION_FILTER:
        return st->count > t->count;
    default:
        return true;
    }
}
