/* opt_content.c — content and its modifiers, in both grammars.
 *
 *   classic (Snort 2, Suricata): content:[!]"abc|0d 0a|"; nocase; depth:4; offset:2;
 *                                distance:0; within:10; fast_pattern[:only|:O,L]; rawbytes;
 *                                startswith; endswith; replace:"…"; uricontent:"…"
 *   Snort 3:                     content:[!]"abc", nocase, depth 4, offset 2, distance 0,
 *                                within 10, fast_pattern, fast_pattern_offset O,
 *                                fast_pattern_length L
 * Modifiers fold into the content's struct opt_content. Checks are Suricata's: each modifier
 * once; depth/offset not with distance/within; startswith alone; depth and within at least
 * the pattern length; one fast_pattern per rule; positions in range; replace as long as the
 * content. Positions may name a byte_extract/byte_math variable.
 */
#include <string.h>

#include "buffers.h"
#include "opt_eval.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

#define POS_MAX 65535

static int once(struct rule_ctx *c, bool already)
{
    return already ? opt_error(c, c->kwpos, "given twice for the same content") : 0;
}

/* depth, offset, distance, within: value and conflicts. pos is the value in the text. */
static int set_position(struct rule_ctx *c, struct opt_content *ct, int which, const char *s,
                        size_t n, const char *name)
{
    if (ct->has & which)
        return opt_error(c, s, "%s given twice for the same content", name);
    bool absolute = which & (CONTENT_DEPTH | CONTENT_OFFSET);
    if (absolute && (ct->has & (CONTENT_DISTANCE | CONTENT_WITHIN)))
        return opt_error(c, s, "%s cannot be combined with distance/within on the same content",
                         name);
    if (!absolute && (ct->has & (CONTENT_DEPTH | CONTENT_OFFSET)))
        return opt_error(c, s, "%s cannot be combined with depth/offset on the same content",
                         name);
    if (ct->startswith)
        return opt_error(c, s, "%s cannot be combined with startswith", name);
    if (ct->fp_only)
        return opt_error(c, s, "%s cannot be combined with fast_pattern:only", name);
    int64_t v = 0;
    const char *var = NULL;
    int64_t min = which == CONTENT_DISTANCE ? -POS_MAX : which == CONTENT_OFFSET ? 0 : 1;
    if (parse_num_or_var(c, s, n, min, POS_MAX, false, &var, &v, name) < 0)
        return -1;
    if (var == NULL && (which & (CONTENT_DEPTH | CONTENT_WITHIN)) && v < (int64_t)ct->len)
        return opt_error(c, s, "%s %lld is less than the content length %u", name,
                         (long long)v, ct->len);
    ct->has |= (uint8_t)which;
    switch (which) {
    case CONTENT_DEPTH: ct->depth = (int32_t)v; ct->depth_var = var; break;
    case CONTENT_OFFSET: ct->offset = (int32_t)v; ct->offset_var = var; break;
    case CONTENT_DISTANCE: ct->distance = (int32_t)v; ct->distance_var = var; break;
    default: ct->within = (int32_t)v; ct->within_var = var; break;
    }
    return 0;
}

static int set_fast_pattern(struct rule_ctx *c, struct opt_content *ct, const char *pos)
{
    if (ct->fast_pattern)
        return opt_error(c, pos, "given twice for the same content");
    if (c->fast_pattern_seen)
        return opt_error(c, pos, "only one content of a rule can be the fast pattern");
    ct->fast_pattern = true;
    c->fast_pattern_seen = true;
    return 0;
}

static int fp_slice_check(struct rule_ctx *c, struct opt_content *ct, const char *pos)
{
    if (ct->fp_slice && (uint64_t)ct->fp_offset + ct->fp_length > ct->len)
        return opt_error(c, pos, "fast_pattern slice %u,%u goes past the content (%u bytes)",
                         ct->fp_offset, ct->fp_length, ct->len);
    return 0;
}

/* Snort 3: `, nocase, depth 4, fast_pattern …` after the string. */
static int snort3_args(struct rule_ctx *c, struct opt_content *ct, const char *s,
                       const char *end)
{
    struct list_iter it;
    const char *item;
    size_t n;
    list_init(&it, s, (size_t)(end - s), ',');
    while (list_next(&it, &item, &n)) {
        const char *w, *v;
        size_t wn, vn;
        if (n == 0)
            return opt_error(c, item, "empty argument after ','");
        split_word(item, n, &w, &wn, &v, &vn);
        bool takes_value = !slice_eq(w, wn, "nocase") && !slice_eq(w, wn, "fast_pattern");
        if (!takes_value && vn)
            return opt_error(c, v, "%.*s takes no value", (int)wn, w);
        if (takes_value && vn == 0 &&
            (slice_eq(w, wn, "depth") || slice_eq(w, wn, "offset") ||
             slice_eq(w, wn, "distance") || slice_eq(w, wn, "within") ||
             slice_eq(w, wn, "fast_pattern_offset") || slice_eq(w, wn, "fast_pattern_length")))
            return opt_error(c, w, "%.*s needs a value", (int)wn, w);
        if (slice_eq(w, wn, "nocase")) {
            if (ct->nocase)
                return opt_error(c, w, "nocase given twice");
            ct->nocase = true;
        } else if (slice_eq(w, wn, "fast_pattern")) {
            if (set_fast_pattern(c, ct, w) < 0)
                return -1;
        } else if (slice_eq(w, wn, "depth")) {
            if (set_position(c, ct, CONTENT_DEPTH, v, vn, "depth") < 0)
                return -1;
        } else if (slice_eq(w, wn, "offset")) {
            if (set_position(c, ct, CONTENT_OFFSET, v, vn, "offset") < 0)
                return -1;
        } else if (slice_eq(w, wn, "distance")) {
            if (set_position(c, ct, CONTENT_DISTANCE, v, vn, "distance") < 0)
                return -1;
        } else if (slice_eq(w, wn, "within")) {
            if (set_position(c, ct, CONTENT_WITHIN, v, vn, "within") < 0)
                return -1;
        } else if (slice_eq(w, wn, "fast_pattern_offset") ||
                   slice_eq(w, wn, "fast_pattern_length")) {
            int64_t x;
            bool off = w[13] == 'o';
            if (parse_num(c, v, vn, off ? 0 : 1, POS_MAX, false, &x, "fast pattern slice") < 0)
                return -1;
            ct->fp_slice = true;
            if (off)
                ct->fp_offset = (uint32_t)x;
            else
                ct->fp_length = (uint32_t)x;
        } else {
            return opt_error(c, w, "unknown content argument '%.*s'", (int)wn, w);
        }
    }
    if (ct->fp_slice) {
        if (ct->fp_length == 0)
            ct->fp_length = ct->len > ct->fp_offset ? ct->len - ct->fp_offset : 0;
        return fp_slice_check(c, ct, s);
    }
    return 0;
}

static int parse_content_common(struct rule_ctx *c, char *val, bool uri)
{
    const char *end = val + strlen(val), *p = val;
    struct opt_content *ct = opt_arg_new(c, sizeof *ct);
    if (ct == NULL)
        return -1;
    if (*p == '!') {
        ct->negated = true;
        p = skip_ws(p + 1, end);
    }
    if (*p != '"')
        return opt_error(c, p, "the pattern must be in double quotes");
    const char *after;
    if (parse_quoted(c, p, end, QS_CONTENT, &ct->pattern, &ct->len, &after) < 0)
        return -1;
    ct->buffer = c->buffer;
    if (uri) {
        ct->buffer = BUF_HTTP_URI;
        ct->buffer_from_modifier = true;
        c->opt->buffer = BUF_HTTP_URI;
    }
    c->last_content = ct;
    c->last_content_opt = c->opt;
    after = skip_ws(after, end);
    if (after == end)
        return 0;
    if (*after != ',')
        return opt_error(c, after, "unexpected text after the pattern");
    if (uri)
        return opt_error(c, after, "uricontent takes no Snort 3 arguments");
    return snort3_args(c, ct, after + 1, end);
}

static int parse_content(struct rule_ctx *c, char *val)
{
    return parse_content_common(c, val, false);
}

static int parse_uricontent(struct rule_ctx *c, char *val)
{
    return parse_content_common(c, val, true);
}

/* --- classic modifiers (c->last_content is set: the walk checked) ---------------------- */

static int parse_nocase(struct rule_ctx *c, char *val)
{
    (void)val;
    if (once(c, c->last_content->nocase) < 0)
        return -1;
    c->last_content->nocase = true;
    return 0;
}

static int parse_rawbytes(struct rule_ctx *c, char *val)
{
    (void)val;
    if (once(c, c->last_content->rawbytes) < 0)
        return -1;
    c->last_content->rawbytes = true;
    return 0;
}

static int parse_depth(struct rule_ctx *c, char *val)
{
    return set_position(c, c->last_content, CONTENT_DEPTH, val, strlen(val), "depth");
}

static int parse_offset(struct rule_ctx *c, char *val)
{
    return set_position(c, c->last_content, CONTENT_OFFSET, val, strlen(val), "offset");
}

static int parse_distance(struct rule_ctx *c, char *val)
{
    return set_position(c, c->last_content, CONTENT_DISTANCE, val, strlen(val), "distance");
}

static int parse_within(struct rule_ctx *c, char *val)
{
    return set_position(c, c->last_content, CONTENT_WITHIN, val, strlen(val), "within");
}

static int parse_fast_pattern(struct rule_ctx *c, char *val)
{
    struct opt_content *ct = c->last_content;
    if (set_fast_pattern(c, ct, c->kwpos) < 0)
        return -1;
    if (val == NULL)
        return 0;
    if (strcmp(val, "only") == 0) {
        if (ct->negated)
            return opt_error(c, val, "fast_pattern:only cannot be used on a negated content");
        if (ct->has)
            return opt_error(c, val, "fast_pattern:only cannot be combined with depth, offset, "
                                     "distance or within");
        ct->fp_only = true;
        return 0;
    }
    const char *comma = strchr(val, ',');
    if (comma == NULL)
        return opt_error(c, val, "expected 'only' or 'OFFSET,LENGTH', got '%s'", val);
    int64_t o, l;
    const char *ls = skip_ws(comma + 1, comma + 1 + strlen(comma + 1));
    if (parse_num(c, val, (size_t)(rtrim(val, comma) - val), 0, POS_MAX, false, &o,
                  "offset") < 0 ||
        parse_num(c, ls, strlen(ls), 1, POS_MAX, false, &l, "length") < 0)
        return -1;
    ct->fp_slice = true;
    ct->fp_offset = (uint32_t)o;
    ct->fp_length = (uint32_t)l;
    return fp_slice_check(c, ct, val);
}

static int parse_startswith(struct rule_ctx *c, char *val)
{
    (void)val;
    struct opt_content *ct = c->last_content;
    if (once(c, ct->startswith) < 0)
        return -1;
    if (ct->has)
        return opt_error(c, c->kwpos, "cannot be combined with depth, offset, distance or "
                                      "within");
    ct->startswith = true;
    return 0;
}

static int parse_endswith(struct rule_ctx *c, char *val)
{
    (void)val;
    /* Repeating it changes nothing; Suricata accepts that, and ET ships such a rule. */
    c->last_content->endswith = true;
    return 0;
}

static int parse_replace(struct rule_ctx *c, char *val)
{
    struct opt_content *ct = c->last_content;
    if (once(c, ct->has_replace) < 0)
        return -1;
    if (ct->negated)
        return opt_error(c, val, "cannot replace a negated content");
    struct opt_str s;
    memset(&s, 0, sizeof s);
    if (parse_neg_string(c, val, false, QS_CONTENT, &s) < 0)
        return -1;
    if (s.len != ct->len)
        return opt_error(c, val, "the replacement (%u bytes) must be as long as the content "
                                 "(%u bytes)", s.len, ct->len);
    ct->replace = s.bytes;
    ct->replace_len = s.len;
    ct->has_replace = true;
    return 0;
}

static const struct opt_def DEFS[] = {
    {"content", OPT_PAYLOAD, D_ALL, ARG_REQUIRED, 0, parse_content, true, content_compile_check},
    {"uricontent", OPT_PAYLOAD, D_CLASSIC, ARG_REQUIRED, 0, parse_uricontent, true, NULL},
    {"nocase", OPT_MODIFIER, D_ALL, ARG_NONE, 0, parse_nocase, true, NULL},
    {"rawbytes", OPT_MODIFIER, D_CLASSIC, ARG_NONE, 0, parse_rawbytes, true, NULL},
    {"depth", OPT_MODIFIER, D_CLASSIC, ARG_REQUIRED, 0, parse_depth, true, NULL},
    {"offset", OPT_MODIFIER, D_CLASSIC, ARG_REQUIRED, 0, parse_offset, true, NULL},
    {"distance", OPT_MODIFIER, D_CLASSIC, ARG_REQUIRED, 0, parse_distance, true, NULL},
    {"within", OPT_MODIFIER, D_CLASSIC, ARG_REQUIRED, 0, parse_within, true, NULL},
    {"fast_pattern", OPT_MODIFIER, D_CLASSIC, ARG_OPTIONAL, 0, parse_fast_pattern, true, NULL},
    {"startswith", OPT_MODIFIER, D_SURI, ARG_NONE, 0, parse_startswith, true, NULL},
    {"endswith", OPT_MODIFIER, D_SURI, ARG_NONE, 0, parse_endswith, true, NULL},
    {"replace", OPT_MODIFIER, D_CLASSIC, ARG_REQUIRED, 0, parse_replace, false, NULL},
};
OPT_TABLE(opt_table_content, DEFS);

/* --- compile and evaluate ------------------------------------------------------------- */

const char *content_compile_check(const void *arg)
{
    const struct opt_content *ct = arg;
    if (!buffer_inspectable(ct->buffer))
        return "content in a buffer Osprey does not fill yet";
    if (ct->has_replace)
        return "replace (inline mode only)";
    if (ct->len == 0)
        return "empty content";
    return NULL;
}

bool content_is_relative(const struct opt_content *ct)
{
    return (ct->has & (CONTENT_DISTANCE | CONTENT_WITHIN)) != 0;
}

void content_fast_bytes(const struct opt_content *ct, const uint8_t **p, uint32_t *len)
{
    if (ct->fp_slice) {
        *p = ct->pattern + ct->fp_offset;
        *len = ct->fp_length;
    } else {
        *p = ct->pattern;
        *len = ct->len;
    }
}

int64_t content_find(const struct opt_content *ct, const uint8_t *buf, int64_t from,
                     int64_t last_start)
{
    if (from > last_start)
        return -1;
    int64_t at = content_search(buf + from, (size_t)(last_start - from) + ct->len, ct->pattern,
                                ct->len, ct->nocase);
    return at < 0 ? -1 : from + at;
}

/* Suricata's arithmetic: offset/depth count from the buffer start (depth from offset on);
 * distance moves the start past the previous match's end; within bounds the end from that
 * same point plus distance; startswith/endswith pin the window to the buffer's ends. */
bool content_window(const struct opt_content *ct, int64_t prev_end, int64_t len,
                    int64_t *start, int64_t *end)
{
    int64_t s = 0, e = len;
    if (ct->startswith) {
        e = ct->len;
    } else if (content_is_relative(ct)) {
        int64_t base = prev_end + ((ct->has & CONTENT_DISTANCE) ? ct->distance : 0);
        s = base < 0 ? 0 : base;
        if (ct->has & CONTENT_WITHIN)
            e = base + ct->within;
    } else {
        if (ct->has & CONTENT_OFFSET)
            s = ct->offset;
        if (ct->has & CONTENT_DEPTH)
            e = s + ct->depth;
    }
    if (e > (int64_t)len)
        e = len;
    if (ct->endswith && e == (int64_t)len)
        s = s > e - ct->len ? s : e - ct->len;
    else if (ct->endswith)
        return false; /* the window stops before the buffer's end */
    *start = s;
    *end = e;
    return e - s >= (int64_t)ct->len;
}

/* --- byte variables as positions (bound per evaluation: see opt_eval.h) ----------------- */

void content_var_names(const struct opt_content *ct, const char *names[BYTE_VAR_FIELDS])
{
    names[0] = ct->offset_var;
    names[1] = ct->depth_var;
    names[2] = ct->distance_var;
    names[3] = ct->within_var;
}

/* Values as the numbers would have been parsed: offset >= 0, depth and within at least the
 * content's length (a shorter window cannot hold it: no match), distance any. */
bool content_bind(const struct opt_content *ct, const int64_t vals[BYTE_VAR_FIELDS],
                  struct opt_content *out)
{
    const char *names[BYTE_VAR_FIELDS];
    content_var_names(ct, names);
    *out = *ct;
    for (int i = 0; i < BYTE_VAR_FIELDS; i++) {
        if (!names[i])
            continue;
        int64_t v = vals[i];
        if (v < (i == 2 ? -INT32_MAX : 0) || v > INT32_MAX)
            return false;
        if ((i == 1 || i == 3) && v < (int64_t)ct->len)
            return false;
        switch (i) {
        case 0: out->offset = (int32_t)v; break;
        case 1: out->depth = (int32_t)v; break;
        case 2: out->distance = (int32_t)v; break;
        default: out->within = (int32_t)v; break;
        }
    }
    return true;
}
