/* opt_asn1.c — asn1: decode BER objects from the buffer and match when a node trips a check.
 *
 *   asn1:[bitstring_overflow][, double_overflow][, oversize_length N]
 *        [, absolute_offset N | relative_offset [-]N]
 *
 * Items are separated by commas or spaces (Suricata takes both: "oversize_length 10
 * absolute_offset 0"); each valued item has its number after a space. Snort 2's debugging
 * `print` is taken and does nothing. The walker and the checks are rules/compile/asn1.c.
 */
#include <string.h>

#include "opt_params.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

enum { K_BITSTRING, K_DOUBLE, K_PRINT, K_OVERSIZE, K_ABSOLUTE, K_RELATIVE }; /* ASN1[] */

static const struct opt_param ASN1[] = {
    {.name = "bitstring_overflow", .type = PT_FLAG,
     PARAM_AT(struct opt_asn1, bitstring_overflow)},
    {.name = "double_overflow", .type = PT_FLAG, PARAM_AT(struct opt_asn1, double_overflow)},
    {.name = "print", .type = PT_FLAG}, /* Snort 2's debugging: nothing to keep */
    {.name = "oversize_length", .type = PT_NUM, .lo = 0, .hi = UINT32_MAX,
     PARAM_AT(struct opt_asn1, oversize_length)},
    {.name = "absolute_offset", .type = PT_NUM, .lo = 0, .hi = 65535,
     PARAM_AT(struct opt_asn1, offset)},
    {.name = "relative_offset", .type = PT_NUM, .lo = -65535, .hi = 65535,
     PARAM_AT(struct opt_asn1, offset)},
};

static int parse_asn1(struct rule_ctx *c, char *val)
{
    static const struct opt_params SPEC = {OPT_PARAMS(ASN1), .item = "asn1 check",
                                           .unknown = PU_CHOICE, .words = true};
    struct opt_asn1 *a = opt_arg_new(c, sizeof *a);
    uint32_t seen;
    if (a == NULL || opt_params_parse(c, val, &SPEC, a, &seen) < 0)
        return -1;
    a->has_oversize = seen & (1u << K_OVERSIZE);
    a->has_absolute = seen & (1u << K_ABSOLUTE);
    a->has_relative = seen & (1u << K_RELATIVE);
    if (a->has_absolute && a->has_relative)
        return opt_error(c, val, "absolute_offset and relative_offset together");
    return 0;
}

static const struct opt_def DEFS[] = {
    {"asn1", OPT_PAYLOAD, D_ALL, ARG_REQUIRED, 0, parse_asn1, true, NULL},
};
OPT_TABLE(opt_table_asn1, DEFS);
