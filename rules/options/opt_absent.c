/* opt_absent.c — absent[: or_else] (Suricata 8), on the sticky buffer in force.
 *
 *   http.referer; absent;                          the transaction has no such buffer
 *   http.referer; absent: or_else; content:!"x";   no such buffer, or the options after it
 *                                                  on the buffer hold
 * It comes first on its buffer; plain `absent` is the buffer's only inspection.
 */
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

static int parse_absent(struct rule_ctx *c, char *val)
{
    bool *or_else = opt_arg_new(c, sizeof *or_else);
    if (or_else == NULL)
        return -1;
    if (c->buffer == BUF_PKT || c->buffer == BUF_RAW)
        return opt_error(c, c->kwpos, "needs a sticky buffer before it");
    if (c->buffer_used)
        return opt_error(c, c->kwpos, "must come first on its buffer");
    if (val) {
        if (strcmp(val, "or_else") != 0)
            return opt_error(c, val, "expected 'or_else', got '%s'", val);
        *or_else = true;
    }
    c->absent_only = !*or_else;
    return 0;
}

static const struct opt_def DEFS[] = {
    {"absent", OPT_PAYLOAD, D_SURI, ARG_OPTIONAL, 0, parse_absent, true, NULL},
};
OPT_TABLE(opt_table_absent, DEFS);
