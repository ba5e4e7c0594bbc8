/* opt_dce.c — DCE/RPC: dce_iface, dce_opnum (dce_stub_data is a buffer).
 *
 *   dce_iface:[uuid ]UUID[,<|>|=|!VERSION][,any_frag]
 *   dce_opnum:N|N-M[,N|N-M…]  (Snort 3 may quote it: dce_opnum:"15")
 */
#include <string.h>

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

static int parse_dce_iface(struct rule_ctx *c, char *val)
{
    struct list_iter it;
    const char *item;
    size_t n;
    int k = 0;
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
            continue;
        }
        if (slice_eq(item, n, "any_frag"))
            continue;
        const char *p = item;
        if (n && strchr("<>=!", *p)) {
            p++;
            int64_t v;
            if (parse_num(c, p, n - 1, 0, 65535, false, &v, "interface version") < 0)
                return -1;
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
        }
    }
    return 0;
}

static const struct opt_def DEFS[] = {
    {"dce_iface", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_dce_iface, false, NULL},
    {"dce_opnum", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_dce_opnum, false, NULL},
};
OPT_TABLE(opt_table_dce, DEFS);
