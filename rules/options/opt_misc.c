/* opt_misc.c — the remaining options, each small.
 *
 *   tag:session[,N,packets|seconds|bytes] | host,N,packets|seconds|bytes,src|dst   (classic)
 *   tag:session|host_src|host_dst, packets N|seconds N|bytes N                     (Snort 3)
 *   ber_data:0xNN  ber_skip:0xNN[,optional]    (asn1 has its own file: opt_asn1.c)
 *   base64_decode[:bytes N][,offset N][,relative]
 *   rpc:APP,VERSION|*,PROCEDURE|*               noalert   ftpbounce
 *   alert   (Suricata 8: a pass rule that also alerts; other actions alert already)
 */
#include <string.h>

#include "buffers.h"
#include "opt_params.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

static int parse_tag(struct rule_ctx *c, char *val)
{
    static const char *const KINDS[] = {"session", "host", "host_src", "host_dst", NULL};
    static const char *const METRICS[] = {"packets", "seconds", "bytes", NULL};
    static const char *const SIDES[] = {"src", "dst", NULL};
    struct opt_tag *t = opt_arg_new(c, sizeof *t);
    if (t == NULL)
        return -1;
    const char *f[5];
    size_t fl[5];
    int k = list_split(val, strlen(val), ',', f, fl, 5);
    int kind = parse_choice(c, f[0], fl[0], KINDS, "tag type");
    if (kind < 0)
        return -1;
    t->kind = kind == 0 ? TAG_SESSION : TAG_HOST;
    t->dir = kind == 3;
    t->metric = TAG_PACKETS;
    t->count = 256;
    if (k == 1)
        return kind == 0 ? 0 : opt_error(c, val, "host tags need a count and a metric");
    const char *w, *v;
    size_t wn, vn;
    split_word(f[1], fl[1], &w, &wn, &v, &vn);
    int64_t x;
    if (vn) {
        /* Snort 3: "packets 5" (the last metric given counts) */
        for (int i = 1; i < k; i++) {
            split_word(f[i], fl[i], &w, &wn, &v, &vn);
            int m = parse_choice(c, w, wn, METRICS, "metric");
            if (m < 0 || parse_num(c, v, vn, 1, UINT32_MAX, false, &x, "count") < 0)
                return -1;
            t->metric = (uint8_t)m;
            t->count = (uint32_t)x;
        }
        return 0;
    }
    if (parse_num(c, f[1], fl[1], 1, UINT32_MAX, false, &x, "count") < 0)
        return -1;
    t->count = (uint32_t)x;
    if (k < 3)
        return opt_error(c, val, "missing metric (packets, seconds, bytes)");
    int m = parse_choice(c, f[2], fl[2], METRICS, "metric");
    if (m < 0)
        return -1;
    t->metric = (uint8_t)m;
    if (kind == 1) {
        if (k != 4)
            return opt_error(c, val, "host tags end with src or dst");
        int d = parse_choice(c, f[3], fl[3], SIDES, "direction");
        t->dir = (uint8_t)(d == 1);
        return d < 0 ? -1 : 0;
    }
    return k == 3 ? 0 : opt_error(c, f[3], "unexpected '%.*s'", (int)fl[3], f[3]);
}

static int parse_ber(struct rule_ctx *c, char *val)
{
    const char *comma = strchr(val, ',');
    size_t n = comma ? (size_t)(rtrim(val, comma) - val) : strlen(val);
    int64_t x;
    if (parse_num(c, val, n, 0, 255, true, &x, "BER type") < 0)
        return -1;
    if (comma) {
        const char *o = skip_ws(comma + 1, comma + 1 + strlen(comma + 1));
        if (strcmp(c->def->name, "ber_skip") != 0 || strcmp(o, "optional") != 0)
            return opt_error(c, o, "unexpected '%s'", o);
    }
    return 0;
}

static const struct opt_param BASE64_DECODE[] = {
    {.name = "bytes", .type = PT_NUM, .lo = 1, .hi = 65535, PARAM_AT(struct opt_base64, bytes)},
    {.name = "offset", .type = PT_NUM, .lo = 0, .hi = 65535,
     PARAM_AT(struct opt_base64, offset)},
    {.name = "relative", .type = PT_FLAG, PARAM_AT(struct opt_base64, relative)},
};

static int parse_base64_decode(struct rule_ctx *c, char *val)
{
    static const struct opt_params SPEC = {OPT_PARAMS(BASE64_DECODE), .item = "field",
                                           .unknown = PU_LIST};
    struct opt_base64 *b = opt_arg_new(c, sizeof *b);
    if (b == NULL)
        return -1;
    return val ? opt_params_parse(c, val, &SPEC, b, NULL) : 0;
}

static int parse_rpc(struct rule_ctx *c, char *val)
{
    const char *f[4];
    size_t fl[4];
    int k = list_split(val, strlen(val), ',', f, fl, 4);
    if (k < 1 || k > 3)
        return opt_error(c, val, "expected 'APPLICATION[,VERSION|*[,PROCEDURE|*]]'");
    struct opt_rpc *r = opt_arg_new(c, sizeof *r);
    if (!r)
        return -1;
    r->any_vers = r->any_proc = true;
    for (int i = 0; i < k; i++) {
        int64_t x;
        if (i > 0 && slice_eq(f[i], fl[i], "*"))
            continue;
        if (parse_num(c, f[i], fl[i], 0, UINT32_MAX, false, &x, "number") < 0)
            return -1;
        if (i == 0)
            r->prog = (uint32_t)x;
        else if (i == 1)
            r->vers = (uint32_t)x, r->any_vers = false;
        else
            r->proc = (uint32_t)x, r->any_proc = false;
    }
    return 0;
}

static const struct opt_def DEFS[] = {
    {"tag", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_tag, true, NULL},
    {"ber_data", OPT_PAYLOAD, D_S3, ARG_REQUIRED, 0, parse_ber, false, NULL},
    {"ber_skip", OPT_PAYLOAD, D_S3, ARG_REQUIRED, 0, parse_ber, false, NULL},
    {"base64_decode", OPT_PAYLOAD, D_ALL, ARG_OPTIONAL, 0, parse_base64_decode, true, NULL},
    {"rpc", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_rpc, true, NULL},
    {"noalert", OPT_MATCH, D_SURI, ARG_NONE, 0, NULL, true, NULL},
    {"alert", OPT_MATCH, D_SURI, ARG_NONE, 0, NULL, true, NULL},
    {"ftpbounce", OPT_MATCH, D_CLASSIC, ARG_NONE, BUF_FTP_COMMAND, NULL, true, NULL},
};
OPT_TABLE(opt_table_misc, DEFS);
