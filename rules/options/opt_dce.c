/* opt_dce.c — DCE/RPC: dce_iface / dcerpc.iface, dce_opnum / dcerpc.opnum (dce_stub_data
 * is a buffer). Each fills a struct opt_dce; rules/compile/dce_units.c runs it on the
 * DCERPC parser's fields.
 *
 *   dce_iface:[uuid ]UUID[,<|>|=|!VERSION][,any_frag]
 *   dce_opnum:N|N-M[,N|N-M…]  (Snort 3 may quote it: dce_opnum:"15"; at most
 *                              OPT_DCE_RANGES items)
 */
#include <string.h>

#include "buffers.h"
#include "opt_args.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

static bool is_uuid(const char *s, size_t n)
{
    static const int GROUPS[] = {8, 4, 4, 4, 12};
    size_t p = 0;
    for (int g = 0; g < 5; g++) {
        for (int i = 0; i < GROUPS[g]; i++, p++)
            if (p >= n || !is_xdigit(s[p]))
                return false;
        if (g < 4 && (p >= n || s[p++] != '-'))
            return false;
    }
    return p == n;
}

static uint8_t hexval(char c)
{
    return (uint8_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
}

/* A checked UUID's text into its 16 bytes. */
static void uuid_bytes(uint8_t out[16], const char *s)
{
    for (int k = 0; k < 16; s++) {
        if (*s == '-')
            continue;
        out[k++] = (uint8_t)(hexval(s[0]) << 4 | hexval(s[1]));
        s++;
    }
}

static int parse_dce_iface(struct rule_ctx *c, char *val)
{
    struct list_iter it;
    const char *item;
    size_t n;
    int k = 0;
    struct opt_dce *a = opt_arg_new(c, sizeof *a);
    if (!a)
        return -1;
    a->iface = true;
    list_init(&it, val, strlen(val), ',');
    while (list_next(&it, &item, &n)) {
        if (k++ == 0) {
            const char *w, *v;
            size_t wn, vn;
            split_word(item, n, &w, &wn, &v, &vn);
            if (slice_eq(w, wn, "uuid")) {
                item = v;
                n = vn;
            }
            if (!is_uuid(item, n))
                return opt_error(c, item, "expected a UUID like "
                                          "4b324fc8-1670-01d3-1278-5a47bf6ee188");
            uuid_bytes(a->uuid, item);
            continue;
        }
        if (slice_eq(item, n, "any_frag")) {
            a->any_frag = true;
            continue;
        }
        const char *p = item;
        if (n && strchr("<>=!", *p)) {
            p++;
            int64_t v;
            if (parse_num(c, p, n - 1, 0, 65535, false, &v, "interface version") < 0)
                return -1;
            a->ver_op = *item;
            a->ver = (uint16_t)v;
            continue;
        }
        return opt_error(c, item, "unexpected '%.*s' (VERSION comparison or any_frag)", (int)n,
                         item);
    }
    return 0;
}

static int parse_dce_opnum(struct rule_ctx *c, char *val)
{
    char *p = val, *end = val + strlen(val);
    struct opt_dce *o = opt_arg_new(c, sizeof *o);
    if (!o)
        return -1;
    if (*p == '"') {
        if (end - p < 2 || end[-1] != '"')
            return opt_error(c, p, "missing closing quote");
        p++;
        end--;
    }
    struct list_iter it;
    const char *item;
    size_t n;
    list_init(&it, p, (size_t)(end - p), ',');
    while (list_next(&it, &item, &n)) {
        const char *dash = memchr(item, '-', n);
        int64_t a, b;
        if (dash) {
            if (parse_num(c, item, (size_t)(dash - item), 0, 65535, false, &a, "opnum") < 0 ||
                parse_num(c, dash + 1, (size_t)(item + n - dash - 1), 0, 65535, false, &b,
                          "opnum") < 0)
                return -1;
            if (b < a)
                return opt_error(c, item, "opnum range %.*s is reversed", (int)n, item);
        } else if (parse_num(c, item, n, 0, 65535, false, &a, "opnum") < 0) {
            return -1;
        } else {
            b = a;
        }
        if (o->n == OPT_DCE_RANGES)
            return opt_error(c, item, "more than %d opnums or ranges", OPT_DCE_RANGES);
        o->lo[o->n] = (uint16_t)a;
        o->hi[o->n++] = (uint16_t)b;
    }
    if (!o->n)
        return opt_error(c, val, "expected an opnum");
    return 0;
}

static const struct opt_def DEFS[] = {
    {"dce_iface", OPT_MATCH, D_ALL, ARG_REQUIRED, BUF_DCE_STUB, parse_dce_iface, true, NULL},
    {"dce_opnum", OPT_MATCH, D_ALL, ARG_REQUIRED, BUF_DCE_STUB, parse_dce_opnum, true, NULL},
    /* Suricata's names of the same */
    {"dcerpc.iface", OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_DCE_STUB, parse_dce_iface, true, NULL},
    {"dcerpc.opnum", OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_DCE_STUB, parse_dce_opnum, true, NULL},
};
OPT_TABLE(opt_table_dce, DEFS);
