/* opt_threshold.c — threshold and detection_filter: how often a match may alert.
 *
 *   threshold:type limit|threshold|both|backoff, track by_src|by_dst|by_rule|by_both|by_flow,
 *             count N, seconds N          (backoff: count N, multiplier N, no seconds)
 *   detection_filter:track by_src|by_dst|by_rule, count N, seconds N
 * Fields in any order, each once, all required.
 */
#include <string.h>

#include "opt_eval.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

enum { T_TYPE = 1, T_TRACK = 2, T_COUNT = 4, T_SECONDS = 8, T_MULT = 16 };

static int parse_common(struct rule_ctx *c, char *val, bool filter)
{
    static const char *const TYPES[] = {"limit", "threshold", "both", "backoff", NULL};
    static const char *const TRACKS[] = {"by_src", "by_dst", "by_rule", "by_both", "by_flow",
                                         NULL};
    static const char *const FTRACKS[] = {"by_src", "by_dst", "by_rule", NULL};
    struct opt_threshold *t = opt_arg_new(c, sizeof *t);
    if (t == NULL)
        return -1;
    if (filter)
        t->type = THR_DETECTION_FILTER;
    unsigned seen = 0;
    struct list_iter it;
    const char *item;
    size_t n;
    list_init(&it, val, strlen(val), ',');
    while (list_next(&it, &item, &n)) {
        const char *w, *v;
        size_t wn, vn;
        split_word(item, n, &w, &wn, &v, &vn);
        unsigned bit = slice_eq(w, wn, "type")         ? T_TYPE
                     : slice_eq(w, wn, "track")        ? T_TRACK
                     : slice_eq(w, wn, "count")        ? T_COUNT
                     : slice_eq(w, wn, "seconds")      ? T_SECONDS
                     : slice_eq(w, wn, "multiplier")   ? T_MULT : 0;
        if (bit == 0 || (filter && (bit == T_TYPE || bit == T_MULT)))
            return opt_error(c, item, n ? "unknown field '%.*s'" : "empty field%.*s", (int)wn,
                             w);
        if (seen & bit)
            return opt_error(c, w, "'%.*s' given twice", (int)wn, w);
        seen |= bit;
        int64_t x;
        int k;
        switch (bit) {
        case T_TYPE:
            if ((k = parse_choice(c, v, vn, TYPES, "type")) < 0)
                return -1;
            t->type = (uint8_t)k;
            break;
        case T_TRACK:
            if ((k = parse_choice(c, v, vn, filter ? FTRACKS : TRACKS, "track")) < 0)
                return -1;
            t->track = (uint8_t)k;
            break;
        default:
            if (parse_num(c, v, vn, 1, UINT32_MAX, false, &x, bit == T_COUNT ? "count"
                                                          : bit == T_SECONDS ? "seconds"
                                                                             : "multiplier") < 0)
                return -1;
            if (bit == T_COUNT)
                t->count = (uint32_t)x;
            else if (bit == T_SECONDS)
                t->seconds = (uint32_t)x;
            else
                t->multiplier = (uint32_t)x;
        }
    }
    unsigned need = filter ? T_TRACK | T_COUNT | T_SECONDS
                  : t->type == THR_BACKOFF && (seen & T_TYPE) ? T_TYPE | T_TRACK | T_COUNT | T_MULT
                                                               : T_TYPE | T_TRACK | T_COUNT | T_SECONDS;
    if ((seen & T_MULT) && !(need & T_MULT))
        return opt_error(c, val, "multiplier is only for type backoff");
    if ((seen & T_SECONDS) && !(need & T_SECONDS))
        return opt_error(c, val, "type backoff takes no seconds");
    static const char *const NAMES[] = {"type", "track", "count", "seconds", "multiplier"};
    unsigned missing = need & ~seen;
    if (missing)
        return opt_error(c, val, "missing '%s'", NAMES[__builtin_ctz(missing)]);
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
    const struct opt_threshold *t = arg;
    return t->type == THR_BACKOFF ? "type backoff" : NULL;
}

/* Suricata's meanings, per tracked key and window of `seconds` from its first event:
 *   limit      the first `count` events alert;
 *   threshold  every `count`-th event alerts;
 *   both       the `count`-th event alerts, once per window;
 *   detection_filter  every event after the first `count` alerts. */
bool threshold_event(const struct opt_threshold *t, struct thr_state *st, uint64_t now_us)
{
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
