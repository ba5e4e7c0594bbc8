/* opt_enip.c — Suricata 8's EtherNet/IP keywords (enip.product_name and enip.service_name are
 * sticky buffers: opt_buffers.c), comparisons on the ENIP parser's fields of the message in
 * force (either side's; the parser's enip.pdu rows):
 *
 *   enip_command:<cmp>|<name>     the encapsulation command (99, list_identity …)
 *   cip_service:<service>[,<class>[,<attribute>]]   a CIP request of that service (and class,
 *                                 and attribute) — one request holds all of them
 *   enip.status:<cmp>|<name>      the encapsulation status (100, invalid_cmd …)
 *   enip.protocol_version, enip.cip_status, enip.cip_extendedstatus,
 *   enip.cip_class, enip.cip_instance, enip.cip_attribute, enip.vendor_id,
 *   enip.device_type, enip.product_code, enip.revision, enip.identity_status, enip.serial,
 *   enip.state, enip.capabilities:<cmp>   Suricata's integer syntax on that field */
#include <ctype.h>
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"

static int parse_u32(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    return cm ? parse_cmp(c, val, strlen(val), 0, UINT32_MAX, CMP_DASH_EXCL, cm) : -1;
}

/* <cmp> or a name of the field's values (enip_command, enip.status) */
static int parse_named(struct rule_ctx *c, char *val, const char *field, int64_t max)
{
    while (isspace((unsigned char)*val))
        val++;
    size_t n = strlen(val);
    while (n && isspace((unsigned char)val[n - 1]))
        n--;
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    if (n && isalpha((unsigned char)*val)) {
        char name[32];
        int fld = osprey_field_find(field);
        if (n >= sizeof name)
            return opt_error(c, val, "unknown value '%.*s'", (int)n, val);
        for (size_t i = 0; i < n; i++)
            name[i] = (char)tolower((unsigned char)val[i]);
        name[n] = 0;
        if (fld < 0 || !osprey_field_value((uint16_t)fld, name, &cm->lo))
            return opt_error(c, val, "unknown value '%s'", name);
        cm->op = CMP_EQ;
        return 0;
    }
    return parse_cmp(c, val, n, 0, max, CMP_DASH_EXCL, cm);
}

static int parse_command(struct rule_ctx *c, char *val)
{
    return parse_named(c, val, "enip.command", 65535);
}

static int parse_status(struct rule_ctx *c, char *val)
{
    return parse_named(c, val, "enip.status", UINT32_MAX);
}

/* service[,class[,attribute]] as one CMP_MASK on enip.cip_path (service << 48 | class << 24
 * | attribute, 24 bits each) */
static int parse_cip_service(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    static const int SHIFT[3] = {48, 24, 0};
    static const int64_t MAX[3] = {127, 0xfffffe, 0xfffffe};
    static const char *const WHAT[3] = {"service", "class", "attribute"};
    int k = 0;
    cm->op = CMP_MASK;
    for (char *tok = val; tok; k++) {
        if (k == 3)
            return opt_error(c, tok, "at most service, class, attribute");
        char *comma = strchr(tok, ',');
        if (comma)
            *comma = 0;
        while (isspace((unsigned char)*tok))
            tok++;
        size_t n = strlen(tok);
        while (n && isspace((unsigned char)tok[n - 1]))
            n--;
        int64_t v;
        if (parse_num(c, tok, n, 0, MAX[k], false, &v, WHAT[k]))
            return -1;
        cm->hi |= (k == 0 ? (int64_t)0xff : 0xffffff) << SHIFT[k];
        cm->lo |= v << SHIFT[k];
        tok = comma ? comma + 1 : NULL;
    }
    return 0;
}

#define ENIP_FIELD(name, parse) \
    {name, OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_ENIP_PDU, parse, true, NULL}
static const struct opt_def DEFS[] = {
    ENIP_FIELD("enip_command", parse_command),
    ENIP_FIELD("cip_service", parse_cip_service),
    ENIP_FIELD("enip.status", parse_status),
    ENIP_FIELD("enip.protocol_version", parse_u32),
    ENIP_FIELD("enip.cip_status", parse_u32),
    ENIP_FIELD("enip.cip_extendedstatus", parse_u32),
    ENIP_FIELD("enip.cip_class", parse_u32),
    ENIP_FIELD("enip.cip_instance", parse_u32),
    ENIP_FIELD("enip.cip_attribute", parse_u32),
    ENIP_FIELD("enip.vendor_id", parse_u32),
    ENIP_FIELD("enip.device_type", parse_u32),
    ENIP_FIELD("enip.product_code", parse_u32),
    ENIP_FIELD("enip.revision", parse_u32),
    ENIP_FIELD("enip.identity_status", parse_u32),
    ENIP_FIELD("enip.serial", parse_u32),
    ENIP_FIELD("enip.state", parse_u32),
    ENIP_FIELD("enip.capabilities", parse_u32),
};
#undef ENIP_FIELD
OPT_TABLE(opt_table_enip, DEFS);
