/* opt_ike.c — Suricata's IKE keywords that are not sticky buffers (ike.init_spi,
 * ike.resp_spi, ike.vendor, ike.key_exchange_payload, ike.nonce_payload are: opt_buffers.c),
 * comparisons on the IKE parser's fields of the message in force:
 *
 *   ike.exchtype:<cmp>                         the exchange type (IKEv1 1-6, 32; IKEv2 34-37)
 *   ike.key_exchange_payload_length:<cmp>      IKEv1: the key exchange data's bytes
 *   ike.nonce_payload_length:<cmp>             IKEv1: the nonce's bytes
 *   ike.chosen_sa_attribute:<name>=<value>     the chosen transform's attribute (IKEv1: the
 *       message's first transform; IKEv2: alg_enc, alg_auth, alg_prf, alg_dh), names as
 *       Suricata's: alg_enc, alg_hash, alg_auth, alg_dh, alg_prf, sa_life_type,
 *       sa_life_duration, sa_key_length …
 *
 * <cmp> is Suricata's unsigned integer syntax (N, !N, <N, >N, <=N, >=N, A-B, A<>B). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"

/* the integer grammar (opt_int.c) */
OPT_INT_PARSER(parse_u8, 255, INT_CMP, "value", "")
OPT_INT_PARSER(parse_u32, UINT32_MAX, INT_CMP, "value", "")

static int parse_attr(struct rule_ctx *c, char *val)
{
    struct opt_ike_attr *x = opt_arg_new(c, sizeof *x);
    if (!x)
        return -1;
    while (isspace((unsigned char)*val))
        val++;
    char *eq = strchr(val, '=');
    if (!eq)
        return opt_error(c, val, "expected <attribute>=<value>");
    size_t n = (size_t)(eq - val);
    while (n && isspace((unsigned char)val[n - 1]))
        n--;
    char field[96];
    if (snprintf(field, sizeof field, "ike.chosen_sa_attribute.%.*s", (int)n, val) >=
            (int)sizeof field ||
        (x->field = osprey_field_find(field)) < 0)
        return opt_error(c, val, "unknown attribute '%.*s' (alg_enc, alg_hash, alg_auth, "
                         "alg_dh, alg_prf, sa_life_type, sa_life_duration, sa_key_length …)",
                         (int)n, val);
    char *v = eq + 1;
    while (isspace((unsigned char)*v))
        v++;
    int64_t num;
    if (parse_num(c, v, strlen(v), 0, UINT32_MAX, false, &num, "attribute value") < 0)
        return -1;
    x->cmp.op = CMP_EQ;
    x->cmp.lo = num;
    return 0;
}

#define IKE_FIELD(name, parse)                                                             \
    {name, OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_IKE_TRANSACTION, parse, true, NULL}
static const struct opt_def DEFS[] = {
    IKE_FIELD("ike.exchtype", parse_u8),
    IKE_FIELD("ike.key_exchange_payload_length", parse_u32),
    IKE_FIELD("ike.nonce_payload_length", parse_u32),
    IKE_FIELD("ike.chosen_sa_attribute", parse_attr),
};
#undef IKE_FIELD
OPT_TABLE(opt_table_ike, DEFS);
