/* opt_websocket.c — Suricata 8's WebSocket integer keywords (websocket.payload is a sticky
 * buffer: opt_buffers.c), comparisons on the WebSocket parser's fields of the frame in force
 * (det_unit_field):
 *
 *   websocket.opcode:[!]NAME|<cmp>     continuation, text, binary, close, ping, pong, or 0-15
 *   websocket.mask:<cmp>               the masking key, big-endian (an unmasked frame has none)
 *   websocket.flags:<cmp>|&M=V|[!]fin,[!]comp   the first byte's four upper bits
 *
 * Names are the values the parser's fields register (osprey_field_value). */
#include <ctype.h>
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"

/* field's value named s[0..n) (case-insensitive); false when it has none */
static bool named(const char *field, const char *s, size_t n, int64_t *v)
{
    char w[32];
    int fld = osprey_field_find(field);
    if (fld < 0 || n == 0 || n >= sizeof w)
        return false;
    for (size_t i = 0; i < n; i++)
        w[i] = (char)tolower((unsigned char)s[i]);
    w[n] = 0;
    return osprey_field_value((uint16_t)fld, w, v);
}

static const char *trim(const char *v, size_t *n)
{
    while (isspace((unsigned char)*v))
        v++;
    *n = strlen(v);
    while (*n && isspace((unsigned char)v[*n - 1]))
        (*n)--;
    return v;
}

static int parse_opcode(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    size_t n;
    const char *v = trim(val, &n);
    bool neg = n && *v == '!';
    int64_t op;
    if (named("websocket.opcode", v + neg, n - neg, &op)) {
        cm->op = neg ? CMP_NE : CMP_EQ;
        cm->lo = op;
        return 0;
    }
    if (n > (size_t)neg && isalpha((unsigned char)v[neg]))
        return opt_error(c, v + neg, "unknown opcode '%.*s' (continuation, text, binary, "
                                     "close, ping, pong, or a number)", (int)(n - neg), v + neg);
    return parse_cmp(c, v, n, 0, 255, CMP_DASH_EXCL, cm);
}

static int parse_mask(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    return cm ? parse_cmp(c, val, strlen(val), 0, UINT32_MAX, CMP_DASH_EXCL, cm) : -1;
}

/* "&M=V": the bits of M equal V (Suricata's bitmask form of its integers) */
static int parse_bitmask(struct rule_ctx *c, const char *v, size_t n, struct opt_cmp *cm)
{
    const char *eq = memchr(v, '=', n);
    int64_t m, want;
    if (!eq)
        return opt_error(c, v, "'&MASK=VALUE' wanted");
    if (parse_num(c, v + 1, (size_t)(eq - v - 1), 0, 255, true, &m, "mask") < 0 ||
        parse_num(c, eq + 1, n - (size_t)(eq + 1 - v), 0, 255, true, &want, "value") < 0)
        return -1;
    cm->op = CMP_MASK;
    cm->hi = m;
    cm->lo = want;
    return 0;
}

static int parse_flags(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    size_t n;
    const char *v = trim(val, &n);
    if (n && *v == '&')
        return parse_bitmask(c, v, n, cm);
    if (!n || !isalpha((unsigned char)v[*v == '!']))
        return parse_cmp(c, v, n, 0, 255, CMP_DASH_EXCL, cm);
    /* "[!]flag, [!]flag …": CMP_MASK over the bits named, those without '!' wanted set */
    cm->op = CMP_MASK;
    struct list_iter it;
    const char *item;
    size_t k;
    list_init(&it, v, n, ',');
    while (list_next(&it, &item, &k)) {
        bool neg = k && *item == '!';
        int64_t bit;
        if (!named("websocket.flags", item + neg, k - neg, &bit))
            return opt_error(c, item, "unknown flag '%.*s' (fin, comp)", (int)k, item);
        if (cm->hi & bit)
            return opt_error(c, item, "flag '%.*s' named twice", (int)(k - neg), item + neg);
        cm->hi |= bit;
        if (!neg)
            cm->lo |= bit;
    }
    if (!cm->hi)
        return opt_error(c, val, "no flag");
    return 0;
}

#define WS_FIELD(name, parse) \
    {name, OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_WEBSOCKET_PAYLOAD, parse, true, NULL}
static const struct opt_def DEFS[] = {
    WS_FIELD("websocket.opcode", parse_opcode),
    WS_FIELD("websocket.mask", parse_mask),
    WS_FIELD("websocket.flags", parse_flags),
};
#undef WS_FIELD
OPT_TABLE(opt_table_websocket, DEFS);
