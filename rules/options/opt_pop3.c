/* opt_pop3.c — Suricata 8's POP3 keywords that compare (pop3.args and pop3.response are
 * sticky buffers: opt_buffers.c), each on the POP3 parser's field of the same name
 * (det_unit_field) of the transaction in force:
 *
 *   pop3.command:[!]RETR|USER|…|N    the command (names case-insensitive, the values the
 *                                     parser's field registers: osprey_field_value)
 *   pop3.status:[!]ok|err            the response's status (+OK / -ERR also spelled so) */
#include <ctype.h>
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"

/* "[!]name" of field's named values, or a number (command) */
static int parse_named(struct rule_ctx *c, char *val, const char *field, int64_t max)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    const char *v = val;
    while (isspace((unsigned char)*v))
        v++;
    bool neg = *v == '!';
    v += neg;
    size_t n = strlen(v);
    while (n && isspace((unsigned char)v[n - 1]))
        n--;
    char w[32];
    int fld = osprey_field_find(field);
    if (n && n < sizeof w && fld >= 0 && !isdigit((unsigned char)v[0])) {
        for (size_t i = 0; i < n; i++)
            w[i] = (char)tolower((unsigned char)v[i]);
        w[n] = 0;
        int64_t x;
        if (!osprey_field_value((uint16_t)fld, w, &x))
            return opt_error(c, v, "unknown value '%.*s' for %s", (int)n, v, field);
        cm->op = neg ? CMP_NE : CMP_EQ;
        cm->lo = x;
        return 0;
    }
    return parse_cmp(c, val, strlen(val), 0, max, CMP_DASH_EXCL, cm);
}

static int parse_command(struct rule_ctx *c, char *val)
{
    return parse_named(c, val, "pop3.command", 255);
}

static int parse_status(struct rule_ctx *c, char *val)
{
    return parse_named(c, val, "pop3.status", 1);
}

#define POP3_FIELD(name, buf, parse) {name, OPT_MATCH, D_SURI, ARG_REQUIRED, buf, parse, true, NULL}
static const struct opt_def DEFS[] = {
    POP3_FIELD("pop3.command", BUF_POP3_ARGS, parse_command),     /* runs on the request */
    POP3_FIELD("pop3.status", BUF_POP3_RESPONSE, parse_status),   /* runs on the response */
};
#undef POP3_FIELD
OPT_TABLE(opt_table_pop3, DEFS);
