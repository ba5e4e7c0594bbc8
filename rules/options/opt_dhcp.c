/* opt_dhcp.c — Suricata's DHCP integer keywords, comparisons on the DHCP parser's fields of
 * the message in force (det_unit_field; no value when the message lacks the option):
 *
 *   dhcp.leasetime:<cmp>        option 51, the IP address lease time (seconds)
 *   dhcp.rebinding_time:<cmp>   option 59        dhcp.renewal_time:<cmp>   option 58
 *
 * <cmp> is Suricata's unsigned integer syntax: N, !N, <N, >N, <=N, >=N, A-B and A<>B
 * (both exclusive). */
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "registry.h"

static int parse_u64(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    return cm ? parse_cmp(c, val, strlen(val), 0, UINT32_MAX, CMP_DASH_EXCL, cm) : -1;
}

#define DHCP_FIELD(name)                                                                   \
    {name, OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_DHCP_TRANSACTION, parse_u64, true, NULL}
static const struct opt_def DEFS[] = {
    DHCP_FIELD("dhcp.leasetime"),
    DHCP_FIELD("dhcp.rebinding_time"),
    DHCP_FIELD("dhcp.renewal_time"),
};
#undef DHCP_FIELD
OPT_TABLE(opt_table_dhcp, DEFS);
