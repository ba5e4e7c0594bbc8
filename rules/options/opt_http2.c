/* opt_http2.c — Suricata's HTTP/2 frame keywords. Each is a comparison on the HTTP/2
 * parser's field of the same name (det_unit_field), true when any frame of the
 * transaction's side matches (the parsers' http2.frames rows: a rule runs once per
 * transaction and direction, when the stream is over; stream 0's frames are each their own):
 *
 *   http2.frametype:[!]DATA|HEADERS|…|CONTINUATION|N   http2.errorcode:[!]NO_ERROR|…|N
 *   http2.priority:<cmp>   http2.window:<cmp>   http2.size_update:<cmp>
 *   http2.settings:SETTINGS_NAME|N[<cmp>]   (a setting, and its value compared)
 *
 * Names are the values the parser's fields register (osprey_field_value), any case; all but
 * http2.settings take the integer keywords' grammar (OPT_INT_PARSER, opt_int.c). The
 * settings field holds the setting's id in its high 32 bits and its value in the low ones,
 * so one comparison covers both. */
#include <ctype.h>
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"

/* the integer grammar (opt_int.c): [!]NAME of the field's values, or a comparison */
OPT_INT_PARSER(parse_frametype, 255, INT_CMP | INT_NAMES, "name", "")
OPT_INT_PARSER(parse_errorcode, UINT32_MAX, INT_CMP | INT_NAMES, "name", "")
OPT_INT_PARSER(parse_u8, 255, INT_CMP, "value", "")
OPT_INT_PARSER(parse_u32, UINT32_MAX, INT_CMP, "value", "")

/* SETTINGS_NAME[<cmp>]: the comparison moved into the setting's band of values */
static int parse_settings(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    const char *v = val;
    while (isspace((unsigned char)*v))
        v++;
    size_t n = 0;
    while (isalnum((unsigned char)v[n]) || v[n] == '_')
        n++;
    int64_t id;
    if (!n)
        return opt_error(c, v, "no setting named");
    if (!opt_field_named("http2.settings", v, n, &id)) {
        if (isalpha((unsigned char)v[0]))
            return opt_error(c, v, "unknown setting '%.*s'", (int)n, v);
        if (parse_num(c, v, n, 0, UINT16_MAX, false, &id, "setting") < 0)
            return -1;
    }
    const int64_t base = id << 32, top = base | UINT32_MAX;
    const char *rest = v + n;
    while (isspace((unsigned char)*rest))
        rest++;
    if (!*rest) { /* the setting, any value */
        *cm = (struct opt_cmp){.op = CMP_RANGE_INCL, .lo = base, .hi = top};
        return 0;
    }
    struct opt_cmp k;
    if (*rest == '=' && rest[1] != '=') /* "=N" as Suricata writes equality */
        rest++;
    if (parse_cmp(c, rest, strlen(rest), 0, UINT32_MAX, CMP_DASH_EXCL, &k) < 0)
        return -1;
    switch (k.op) {
    case CMP_EQ: *cm = (struct opt_cmp){.op = CMP_EQ, .lo = base | k.lo}; break;
    case CMP_LT: *cm = (struct opt_cmp){.op = CMP_RANGE, .lo = base - 1, .hi = base | k.lo}; break;
    case CMP_LE: *cm = (struct opt_cmp){.op = CMP_RANGE_INCL, .lo = base, .hi = base | k.lo}; break;
    case CMP_GT: *cm = (struct opt_cmp){.op = CMP_RANGE, .lo = base | k.lo, .hi = top + 1}; break;
    case CMP_GE: *cm = (struct opt_cmp){.op = CMP_RANGE_INCL, .lo = base | k.lo, .hi = top}; break;
    case CMP_RANGE:
        *cm = (struct opt_cmp){.op = CMP_RANGE, .lo = base | k.lo, .hi = base | k.hi};
        break;
    default:
        return opt_error(c, rest, "a comparison http2.settings does not take");
    }
    return 0;
}

/* each reads the HTTP/2 transaction's side (the parsers' http2.frames rows) */
#define H2_FIELD(name, parse)                                                              \
    {name, OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_HTTP2_FRAMES, parse, true, NULL}
static const struct opt_def DEFS[] = {
    H2_FIELD("http2.frametype", parse_frametype),
    H2_FIELD("http2.errorcode", parse_errorcode),
    H2_FIELD("http2.priority", parse_u8),
    H2_FIELD("http2.window", parse_u32),
    H2_FIELD("http2.size_update", parse_u32),
    H2_FIELD("http2.settings", parse_settings),
};
OPT_TABLE(opt_table_http2, DEFS);
