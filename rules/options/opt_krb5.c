/* opt_krb5.c — Suricata's Kerberos 5 keywords that are not sticky buffers (krb5.cname and
 * krb5.sname are: opt_buffers.c). Each reads the Kerberos parser's fields of the message in
 * force (either side's):
 *
 *   krb5_msg_type:<cmp>        the message type (10 AS-REQ, 11 AS-REP, 12 TGS-REQ,
 *                              13 TGS-REP, 30 KRB-ERROR)
 *   krb5_err_code:<cmp>        a KRB-ERROR's error code
 *   krb5.ticket_encryption:[!]weak | etype[,etype…]   a reply's ticket encryption type: weak
 *                              (all but AES and Camellia) or not, or one of the types listed
 *                              (names as Suricata spells them, "rc4-hmac", or numbers)
 *
 * The type names are the values the parser's field registers (osprey_field_value). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"
#include "text.h"

static int parse_msg_type(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    return cm ? parse_cmp(c, val, strlen(val), 0, 255, CMP_DASH_EXCL, cm) : -1;
}

static int parse_err_code(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    return cm ? parse_cmp(c, val, strlen(val), INT32_MIN, INT32_MAX, CMP_DASH_EXCL, cm) : -1;
}

static int parse_ticket_encryption(struct rule_ctx *c, char *val)
{
    struct opt_krb5_enc *x = opt_arg_new(c, sizeof *x);
    if (!x)
        return -1;
    x->field = osprey_field_find("krb5.ticket_encryption");
    x->weak_field = osprey_field_find("krb5.ticket_weak_encryption");
    x->weak = -1;
    struct list_iter it;
    const char *item;
    size_t n;
    list_init(&it, val, strlen(val), ',');
    while (list_next(&it, &item, &n)) {
        char w[48];
        if (n == 0 || n >= sizeof w)
            return opt_error(c, item, "expected weak, !weak or an encryption type");
        memcpy(w, item, n);
        w[n] = 0;
        if (!strcmp(w, "weak") || !strcmp(w, "!weak")) {
            if (x->weak >= 0)
                return opt_error(c, item, "weak named twice");
            x->weak = w[0] != '!';
            continue;
        }
        int64_t e;
        if (x->n >= OPT_KRB5_ETYPES)
            return opt_error(c, item, "more than %d encryption types", OPT_KRB5_ETYPES);
        if (x->field >= 0 && osprey_field_value((uint16_t)x->field, w, &e)) {
            x->etype[x->n++] = (int32_t)e;
            continue;
        }
        if (isalpha((unsigned char)w[0]))
            return opt_error(c, item, "unknown encryption type '%s'", w);
        if (parse_num(c, item, n, INT32_MIN, INT32_MAX, false, &e, "encryption type") < 0)
            return -1;
        x->etype[x->n++] = (int32_t)e;
    }
    if (x->weak < 0 && !x->n)
        return opt_error(c, val, "expected weak, !weak or an encryption type");
    return 0;
}

#define KRB5_FIELD(name, buf, parse) {name, OPT_MATCH, D_SURI, ARG_REQUIRED, buf, parse, true, NULL}
static const struct opt_def DEFS[] = {
    KRB5_FIELD("krb5_msg_type", BUF_KRB5_TRANSACTION, parse_msg_type),
    KRB5_FIELD("krb5_err_code", BUF_KRB5_TRANSACTION, parse_err_code),
    KRB5_FIELD("krb5.ticket_encryption", BUF_KRB5_TRANSACTION, parse_ticket_encryption),
};
#undef KRB5_FIELD
OPT_TABLE(opt_table_krb5, DEFS);
