/* opt_ipflags.c — IP and TCP header bits: flags, fragbits, ipopts, ip_proto, sameip.
 *
 *   flags:[!|*|+]FSRPAUCE0[,MASK]   (modifier may also follow the letters: "A+", "SF*";
 *                                    1 and 2 are the old names of C and E; 0 = no flags)
 *   fragbits:[!|*|+]MDR             ipopts:rr|eol|nop|ts|sec|esec|lsrr|lsrre|ssrr|satid|any
 *   ip_proto:[!|<|>]NUMBER|NAME     sameip
 */
#include <stdlib.h>
#include <string.h>

#include "opt_eval.h"
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
    {"flags", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_flags, true, NULL},
    {"tcp.flags", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_flags, true, NULL},
    {"fragbits", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_fragbits, true, NULL},
    {"ipopts", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_ipopts, true, NULL},
    {"ip_proto", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_ip_proto, true, NULL},
    {"sameip", OPT_MATCH, D_ALL, ARG_NONE, 0, NULL, true, NULL},
};
OPT_TABLE(opt_table_ipflags, DEFS);

/* --- compile and evaluate (flags) ----------------------------------------------------- */

static uint8_t flag_bit(char ch)
{
    switch (ch) {
    case 'F': return 0x01;
    case 'S': return 0x02;
    case 'R': return 0x04;
    case 'P': return 0x08;
    case 'A': return 0x10;
    case 'U': return 0x20;
    case 'E': case '2': return 0x40;
    case 'C': case '1': return 0x80;
    default: return 0;
    }
}

void tcpflags_compile(const char *value, struct tcpflags *out)
{
    out->bits = out->ignore = 0;
    out->mod = 0;
    const char *p = value;
    for (; *p && *p != ','; p++) {
        if (strchr("!*+", *p))
            out->mod = *p;
        else
            out->bits |= flag_bit(*p);
    }
    if (*p == ',')
        for (p++; *p; p++)
            out->ignore |= flag_bit(*p);
}

/* Snort's meaning: exact (ignoring the masked flags), + all of them and maybe others,
 * * any of them, ! none of them. */
bool tcpflags_match(const struct tcpflags *t, uint8_t flags)
{
    flags &= (uint8_t)~t->ignore;
    switch (t->mod) {
    case '+': return (flags & t->bits) == t->bits;
    case '*': return (flags & t->bits) != 0;
    case '!': return (flags & t->bits) == 0;
    default: return flags == t->bits;
    }
}

/* --- compile and evaluate (ip_proto; sameip is a one-line test in the compiler) -------- */

void ipproto_compile(const char *value, struct ipproto *out)
{
    static const struct {
        const char *name;
        uint8_t num;
    } NAMES[] = {{"ip", 0},     {"icmp", 1},  {"igmp", 2},   {"ggp", 3},        {"ipip", 4},
                 {"tcp", 6},    {"egp", 8},   {"pup", 12},   {"udp", 17},       {"idp", 22},
                 {"ipv6", 41},  {"rsvp", 46}, {"gre", 47},   {"esp", 50},       {"ah", 51},
                 {"icmpv6", 58}, {"ipv6-icmp", 58}, {"pim", 103}, {"sctp", 132},
                 {"udplite", 136}};
    const char *p = value;
    out->op = 0;
    if (*p == '!' || *p == '<' || *p == '>')
        out->op = *p++;
    while (*p == ' ' || *p == '\t')
        p++;
    out->proto = (uint8_t)strtoul(p, NULL, 10);
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (!strcmp(NAMES[i].name, p))
            out->proto = NAMES[i].num;
}

bool ipproto_match(const struct ipproto *t, uint8_t proto)
{
    switch (t->op) {
    case '!': return proto != t->proto;
    case '<': return proto < t->proto;
    case '>': return proto > t->proto;
    default: return proto == t->proto;
    }
}

/* --- compile and evaluate (fragbits) -------------------------------------------------- */

void fragbits_compile(const char *value, struct tcpflags *out)
{
    out->bits = out->ignore = 0;
    out->mod = 0;
    for (const char *p = value; *p; p++) {
        switch (*p) {
        case 'M': out->bits |= FRAGBIT_M; break;
        case 'D': out->bits |= FRAGBIT_D; break;
        case 'R': out->bits |= FRAGBIT_R; break;
        case '!': case '*': case '+': out->mod = *p; break;
        default: break;
        }
    }
}

/* The modifiers mean what they mean for flags (exact, +, *, !); the fragment offset shares
 * the byte and is masked off. */
bool fragbits_match(const struct tcpflags *t, uint8_t ipflags)
{
    return tcpflags_match(t, (uint8_t)(ipflags & (FRAGBIT_R | FRAGBIT_D | FRAGBIT_M)));
}

/* --- compile and evaluate (ipopts) ---------------------------------------------------- */

uint16_t ipopts_compile(const char *value)
{
    /* option types (RFC 791, 1108): lsrre is Snort's name for the loose source route that
     * MS99-038 abuses, the same option as lsrr */
    static const struct {
        const char *name;
        uint16_t type;
    } OPTS[] = {{"eol", 0},    {"nop", 1},     {"rr", 7},     {"ts", 68},   {"sec", 130},
                {"lsrr", 131}, {"lsrre", 131}, {"esec", 133}, {"satid", 136}, {"ssrr", 137},
                {"any", IPOPT_ANY}};
    for (size_t i = 0; i < sizeof OPTS / sizeof OPTS[0]; i++)
        if (!strcmp(OPTS[i].name, value))
            return OPTS[i].type;
    return IPOPT_ANY; /* the parser accepted only the names above */
}

/* Walk the options as the receiver would: EOL ends the list, NOP is one byte, the others
 * carry a length; a malformed length ends the walk (what came before still counts, the
 * malformed option does not). */
bool ipopts_match(uint16_t want, const uint8_t *opts, uint32_t len)
{
    if (want == IPOPT_ANY)
        return len > 0;
    uint32_t i = 0;
    while (i < len) {
        uint8_t t = opts[i];
        if (t == 0 || t == 1) {
            if (t == want)
                return true;
            if (t == 0)
                return false;
            i++;
            continue;
        }
        if (i + 1 >= len || opts[i + 1] < 2 || i + opts[i + 1] > len)
            return false; /* an option the receiver would reject is not "present" */
        if (t == want)
            return true;
        i += opts[i + 1];
    }
    return false;
}
