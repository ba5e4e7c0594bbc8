/* opt_ipflags.c — IP and TCP header bits: flags, fragbits, ipopts, ip_proto, sameip.
 *
 *   flags:[!|*|+]FSRPAUCE0[,MASK]   (modifier may also follow the letters: "A+", "SF*";
 *                                    1 and 2 are the old names of C and E; 0 = no flags)
 *   fragbits:[!|*|+]MDR             ipopts:rr|eol|nop|ts|sec|esec|lsrr|lsrre|ssrr|satid|any
 *   ip_proto:[!|<|>]NUMBER|NAME     sameip
 */
#include <string.h>

#include "opt_util.h"
#include "registry.h"
#include "text.h"

/* Letters with an optional modifier before or after; returns the letters' end. */
static int bits_field(struct rule_ctx *c, const char *s, size_t n, const char *letters,
                      bool allow_zero, bool allow_mod)
{
    const char *p = s, *end = s + n;
    bool mod = false;
    if (allow_mod && p < end && strchr("!*+", *p)) {
        mod = true;
        p++;
    }
    const char *ls = p;
    while (p < end && !strchr("!*+", *p)) {
        if (!strchr(letters, *p) && !(allow_zero && *p == '0'))
            return opt_error(c, p, "unknown flag '%c' (expected %s)", *p, letters);
        if (memchr(ls, *p, (size_t)(p - ls)))
            return opt_error(c, p, "flag '%c' given twice", *p);
        p++;
    }
    if (p == ls)
        return opt_error(c, s, "no flags given");
    if (allow_zero && memchr(ls, '0', (size_t)(p - ls)) && p - ls > 1)
        return opt_error(c, ls, "0 (no flags) cannot be combined with other flags");
    if (p < end) {
        if (!allow_mod || mod)
            return opt_error(c, p, "unexpected '%c'", *p);
        p++;
    }
    if (p != end)
        return opt_error(c, p, "unexpected '%.*s'", (int)(end - p), p);
    return 0;
}

static int parse_flags(struct rule_ctx *c, char *val)
{
    char *comma = strchr(val, ',');
    size_t n = comma ? (size_t)(rtrim(val, comma) - val) : strlen(val);
    if (bits_field(c, val, n, "FSRPAUCE12", true, true) < 0)
        return -1;
    if (comma) {
        const char *m = skip_ws(comma + 1, comma + 1 + strlen(comma + 1));
        if (bits_field(c, m, strlen(m), "FSRPAUCE12", false, false) < 0)
            return -1;
    }
    return 0;
}

static int parse_fragbits(struct rule_ctx *c, char *val)
{
    return bits_field(c, val, strlen(val), "MDR", false, true);
}

static int parse_ipopts(struct rule_ctx *c, char *val)
{
    static const char *const OPTS[] = {"rr", "eol", "nop", "ts", "sec", "esec", "lsrr",
                                       "lsrre", "ssrr", "satid", "any", NULL};
    return parse_choice(c, val, strlen(val), OPTS, "IP option") < 0 ? -1 : 0;
}

static int parse_ip_proto(struct rule_ctx *c, char *val)
{
    static const char *const NAMES[] = {"ip", "icmp", "igmp", "ggp", "ipip", "tcp", "egp",
                                        "pup", "udp", "idp", "ipv6", "rsvp", "gre", "esp", "ah",
                                        "icmpv6", "ipv6-icmp", "pim", "sctp", "udplite", NULL};
    const char *p = val;
    if (*p == '!' || *p == '<' || *p == '>')
        p = skip_ws(p + 1, p + 1 + strlen(p + 1));
    size_t n = strlen(p);
    if (n && is_alpha(*p))
        return parse_choice(c, p, n, NAMES, "protocol name") < 0 ? -1 : 0;
    int64_t v;
    return parse_num(c, p, n, 0, 255, false, &v, "protocol number");
}

static const struct opt_def DEFS[] = {
    {"flags", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_flags, false},
    {"tcp.flags", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_flags, false},
    {"fragbits", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_fragbits, false},
    {"ipopts", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_ipopts, false},
    {"ip_proto", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_ip_proto, false},
    {"sameip", OPT_MATCH, D_ALL, ARG_NONE, 0, NULL, false},
};
OPT_TABLE(opt_table_ipflags, DEFS);
