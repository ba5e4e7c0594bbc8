/* opt_nfs.c — Suricata's NFS integer keywords, comparisons on the NFS parser's fields of the
 * transaction in force (to the server: a call that starts one):
 *
 *   nfs_procedure:<cmp>|NAME       the procedure (v4: the compound's main operation); unlike
 *                                  the other integer keywords a range is inclusive (2<>4 is
 *                                  2, 3 or 4), as Suricata documents; a NAME (getattr, any
 *                                  case) is the procedure of that name in the table of the
 *                                  flow's version (v3's GETATTR is 1, v4's 9)
 *   nfs.version:<cmp>, nfs_version the flow's NFS version (2, 3 or 4) */
#include <ctype.h>
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "registry.h"

static int parse_u32(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    return cm ? parse_cmp(c, val, strlen(val), 0, UINT32_MAX, CMP_DASH_EXCL, cm) : -1;
}

static int parse_procedure(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    const char *v = val;
    while (*v == ' ')
        v++;
    size_t n = strlen(v);
    while (n && v[n - 1] == ' ')
        n--;
    if (n && (isalpha((unsigned char)v[0]) || v[0] == '_')) {
        /* a name (getattr): its number in the table of the flow's version, as Suricata
         * reads it; it compares the field nfs_procedure.name, where names are one id */
        if (!opt_field_named("nfs_procedure.name", v, n, &cm->lo))
            return opt_error(c, v, "unknown NFS procedure '%.*s'", (int)n, v);
        cm->op = CMP_EQ;
        cm->flags = OPT_CMP_BY_NAME;
        return 0;
    }
    if (parse_cmp(c, val, strlen(val), 0, UINT32_MAX, CMP_DASH_EXCL, cm) < 0)
        return -1;
    if (cm->op == CMP_RANGE) /* inclusive for this keyword */
        cm->op = CMP_RANGE_INCL;
    return 0;
}

#define NFS_FIELD(name, parse) {name, OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_NFS_TRANSACTION, parse, true, NULL}
static const struct opt_def DEFS[] = {
    NFS_FIELD("nfs_procedure", parse_procedure),
    NFS_FIELD("nfs.version", parse_u32),
    NFS_FIELD("nfs_version", parse_u32),
};
#undef NFS_FIELD
OPT_TABLE(opt_table_nfs, DEFS);
