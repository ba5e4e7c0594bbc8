/* opt_snmp.c — Suricata's SNMP integer keywords (snmp.community and snmp.usm are sticky
 * buffers: opt_buffers.c), comparisons on the SNMP parser's fields of the message in force:
 *
 *   snmp.version:<cmp>     1 (v1), 2 (v2c) or 3
 *   snmp.pdu_type:<cmp>    0 get_request … 8 report (an encrypted v3 PDU has none) */
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "registry.h"

static int parse_u32(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    return cm ? parse_cmp(c, val, strlen(val), 0, UINT32_MAX, CMP_DASH_EXCL, cm) : -1;
}

#define SNMP_FIELD(name, buf, parse) {name, OPT_MATCH, D_SURI, ARG_REQUIRED, buf, parse, true, NULL}
static const struct opt_def DEFS[] = {
    SNMP_FIELD("snmp.version", BUF_SNMP_COMMUNITY, parse_u32),
    SNMP_FIELD("snmp.pdu_type", BUF_SNMP_COMMUNITY, parse_u32),
};
#undef SNMP_FIELD
OPT_TABLE(opt_table_snmp, DEFS);
