/* opt_ldap.c — Suricata 8's LDAP keywords that are not sticky buffers (ldap.request.dn …
 * are: opt_buffers.c). Names are the values the LDAP parser's fields register
 * (osprey_field_value: "search_request", "size_limit_exceeded"):
 *
 *   ldap.request.operation:<name|N>                the request's operation
 *   ldap.responses.operation:<name|N>[,<index>]    a response's operation
 *   ldap.responses.result_code:<name|N>[,<index>]  a response's result code
 *   ldap.responses.count:<cmp>                     the number of responses
 *
 * index: any (the default), all, N (from the first, 0 …) or -N (from the last, -1 …). The
 * response keywords hold once per transaction, on the response that made them true
 * (compile/unit_fields.c). */
#include <ctype.h>
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"
#include "text.h"

/* "name" or a number into cm (equality) for field's named values */
static int value(struct rule_ctx *c, const char *field, const char *s, size_t n, int64_t max,
                 struct opt_cmp *cm)
{
    char w[48];
    int fld = osprey_field_find(field);
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n && n < sizeof w && fld >= 0) {
        memcpy(w, s, n);
        w[n] = 0;
        if (osprey_field_value((uint16_t)fld, w, &cm->lo)) {
            cm->op = CMP_EQ;
            return 0;
        }
    }
    if (n && isalpha((unsigned char)*s))
        return opt_error(c, s, "unknown value '%.*s'", (int)n, s);
    if (parse_num(c, s, n, 0, max, false, &cm->lo, "value") < 0)
        return -1;
    cm->op = CMP_EQ;
    return 0;
}

static int parse_request_operation(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    return cm ? value(c, "ldap.request.operation", val, strlen(val), 255, cm) : -1;
}

/* "value[,index]" of a response list field */
static int parse_indexed(struct rule_ctx *c, char *val, const char *field, int64_t max)
{
    struct opt_field_index *x = opt_arg_new(c, sizeof *x);
    if (!x)
        return -1;
    x->field = osprey_field_find(field);
    x->mode = FIDX_ANY;
    const char *comma = strchr(val, ',');
    size_t vn = comma ? (size_t)(comma - val) : strlen(val);
    if (value(c, field, val, vn, max, &x->cm) < 0)
        return -1;
    if (!comma)
        return 0;
    const char *ix = comma + 1;
    size_t n = strlen(ix);
    while (n && isspace((unsigned char)*ix))
        ix++, n--;
    while (n && isspace((unsigned char)ix[n - 1]))
        n--;
    if (n == 3 && !strncmp(ix, "any", 3))
        return 0;
    if (n == 3 && !strncmp(ix, "all", 3)) {
        x->mode = FIDX_ALL;
        return 0;
    }
    int64_t at;
    if (parse_num(c, ix, n, INT32_MIN, INT32_MAX, false, &at, "index") < 0)
        return -1;
    x->mode = FIDX_AT;
    x->index = (int32_t)at;
    return 0;
}

static int parse_responses_operation(struct rule_ctx *c, char *val)
{
    return parse_indexed(c, val, "ldap.responses.operation", 255);
}

static int parse_result_code(struct rule_ctx *c, char *val)
{
    return parse_indexed(c, val, "ldap.responses.result_code", UINT32_MAX);
}

static int parse_count(struct rule_ctx *c, char *val)
{
    struct opt_field_index *x = opt_arg_new(c, sizeof *x);
    if (!x)
        return -1;
    x->field = osprey_field_find("ldap.responses.count");
    x->mode = FIDX_COUNT;
    return parse_cmp(c, val, strlen(val), 0, UINT32_MAX, CMP_DASH_EXCL, &x->cm);
}

#define LDAP_FIELD(name, buf, parse) {name, OPT_MATCH, D_SURI, ARG_REQUIRED, buf, parse, true, NULL}
static const struct opt_def DEFS[] = {
    LDAP_FIELD("ldap.request.operation", BUF_LDAP_REQUEST_DN, parse_request_operation),
    LDAP_FIELD("ldap.responses.operation", BUF_LDAP_RESPONSES_DN, parse_responses_operation),
    LDAP_FIELD("ldap.responses.result_code", BUF_LDAP_RESPONSES_DN, parse_result_code),
    LDAP_FIELD("ldap.responses.count", BUF_LDAP_RESPONSES_DN, parse_count),
};
#undef LDAP_FIELD
OPT_TABLE(opt_table_ldap, DEFS);
