/* opt_rfb.c — Suricata's RFB integer keywords (rfb.name is a sticky buffer: opt_buffers.c),
 * comparisons on the RFB parser's fields, run once the security handshake is over (the
 * parser's rfb.auth row, det_unit_field):
 *
 *   rfb.sectype:<cmp>                      the security type chosen (2: VNC authentication)
 *   rfb.secresult:ok|fail|toomany|unknown|<cmp>   the SecurityResult (0 ok, 1 fail …) */
#include <ctype.h>
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"

/* the integer grammar (opt_int.c) */
OPT_INT_PARSER(parse_sectype, UINT32_MAX, INT_CMP, "value", "")

static int parse_secresult(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    const char *v = val;
    while (isspace((unsigned char)*v))
        v++;
    size_t n = strlen(v);
    while (n && isspace((unsigned char)v[n - 1]))
        n--;
    bool neg = n && *v == '!';
    if (n > (size_t)neg && isalpha((unsigned char)v[neg])) {
        char w[16];
        int fld = osprey_field_find("rfb.secresult");
        int64_t r;
        size_t k = n - neg;
        if (k >= sizeof w)
            k = sizeof w - 1;
        for (size_t i = 0; i < k; i++)
            w[i] = (char)tolower((unsigned char)v[neg + i]);
        w[k] = 0;
        if (fld < 0 || !osprey_field_value((uint16_t)fld, w, &r))
            return opt_error(c, v + neg, "unknown result '%.*s' (ok, fail, toomany, unknown)",
                             (int)(n - neg), v + neg);
        cm->op = neg ? CMP_NE : CMP_EQ;
        cm->lo = r;
        if (r == 3) { /* unknown: any value past toomany */
            cm->op = neg ? CMP_LT : CMP_GE;
        }
        return 0;
    }
    return parse_cmp(c, v, n, 0, UINT32_MAX, CMP_DASH_EXCL, cm);
}

#define RFB_FIELD(name, parse) \
    {name, OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_RFB_AUTH, parse, true, NULL}
static const struct opt_def DEFS[] = {
    RFB_FIELD("rfb.sectype", parse_sectype),
    RFB_FIELD("rfb.secresult", parse_secresult),
};
#undef RFB_FIELD
OPT_TABLE(opt_table_rfb, DEFS);
