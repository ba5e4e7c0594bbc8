/* opt_smb.c — Suricata's SMB integer keyword (the SMB buffers are sticky: opt_buffers.c):
 *
 *   smb.version:1|2     the SMB version of the transaction (its request's header: 1 for
 *                       SMB1, 2 for SMB2/3), a comparison on the parser's smb.version field
 *                       (det_unit_field), under each SMB request and response.
 *
 * Suricata 8 accepts only 1 and 2 (with an optional '!'). */
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "registry.h"

static int parse_version(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    const char *v = val;
    while (*v == ' ' || *v == '\t')
        v++;
    bool neg = *v == '!';
    v += neg;
    size_t n = strlen(v);
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    if (n != 1 || (v[0] != '1' && v[0] != '2'))
        return opt_error(c, val, "smb.version is 1 or 2, not '%s'", val);
    cm->op = neg ? CMP_NE : CMP_EQ;
    cm->lo = v[0] - '0';
    return 0;
}

static const struct opt_def DEFS[] = {
    /* read under each SMB request and response (the parsers' smb.transaction rows) */
    {"smb.version", OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_SMB_TRANSACTION, parse_version, true,
     NULL},
};
OPT_TABLE(opt_table_smb, DEFS);
