/* opt_msg.c — msg:"text"; the alert message (implemented).
 *
 * Quotes are optional in Snort 2; escapes \" \\ \; \: are decoded and any other backslash is
 * kept as written (ET messages such as "UA (^IE[\d\s])" rely on that). */
#include <string.h>

#include "opt_util.h"
#include "registry.h"
#include "text.h"

static int parse_msg(struct rule_ctx *c, char *val)
{
    if (c->meta_seen & META_MSG)
        return opt_error(c, c->kwpos, "given twice");
    c->meta_seen |= META_MSG;
    const char *end = val + strlen(val);
    if (*val != '"') {
        /* Unquoted: the text as is. */
        c->rule->msg = val;
        return 0;
    }
    const uint8_t *s;
    uint32_t n;
    const char *after;
    if (parse_quoted(c, val, end, QS_ALLOW_EMPTY, &s, &n, &after) < 0)
        return -1;
    after = skip_ws(after, end);
    if (after < end)
        return opt_error(c, after, "unexpected text after the closing quote");
    c->rule->msg = (const char *)s;
    return 0;
}

static const struct opt_def DEFS[] = {
    {"msg", OPT_META, D_ALL, ARG_REQUIRED, 0, parse_msg, true, NULL},
};
OPT_TABLE(opt_table_msg, DEFS);
