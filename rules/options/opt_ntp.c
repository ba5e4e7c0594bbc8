/* opt_ntp.c — Suricata 8's NTP integer keywords (ntp.reference_id is a sticky buffer:
 * opt_buffers.c), comparisons on the NTP parser's fields of the message in force:
 *
 *   ntp.version:<cmp>    the header's version (1-4)
 *   ntp.stratum:<cmp>    0-255 (a control message has none)
 *   ntp.mode:[!]<cmp>|[!]name   0-7, or Suricata's names (client, server, broadcast … the
 *                        values the parser's field registers)
 *
 * <cmp> is Suricata's unsigned integer syntax (N, !N, <N, >N, <=N, >=N, A-B, A<>B). */
#include <ctype.h>
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"

OPT_INT_PARSER(parse_u8, 255, INT_CMP, "value", "") /* the integer grammar (opt_int.c) */

static int parse_mode(struct rule_ctx *c, char *val)
{
    while (isspace((unsigned char)*val))
        val++;
    bool neg = *val == '!';
    const char *w = val + neg;
    size_t n = strlen(w);
    while (n && isspace((unsigned char)w[n - 1]))
        n--;
    if (n && isalpha((unsigned char)w[0])) {
        char name[32];
        int64_t v;
        int fld = osprey_field_find("ntp.mode");
        if (n >= sizeof name)
            return opt_error(c, w, "unknown mode '%.*s'", (int)n, w);
        for (size_t i = 0; i < n; i++)
            name[i] = (char)tolower((unsigned char)w[i]);
        name[n] = 0;
        if (fld < 0 || !osprey_field_value((uint16_t)fld, name, &v))
            return opt_error(c, w, "unknown mode '%s' (client, server, broadcast … or 0-7)",
                             name);
        struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
        if (!cm)
            return -1;
        cm->op = neg ? CMP_NE : CMP_EQ;
        cm->lo = v;
        return 0;
    }
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    return cm ? parse_cmp(c, val, strlen(val), 0, 7, CMP_DASH_EXCL, cm) : -1;
}

#define NTP_FIELD(name, parse)                                                             \
    {name, OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_NTP_REFERENCE_ID, parse, true, NULL}
static const struct opt_def DEFS[] = {
    NTP_FIELD("ntp.version", parse_u8),
    NTP_FIELD("ntp.stratum", parse_u8),
    NTP_FIELD("ntp.mode", parse_mode),
};
#undef NTP_FIELD
OPT_TABLE(opt_table_ntp, DEFS);
