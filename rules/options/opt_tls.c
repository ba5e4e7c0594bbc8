/* opt_tls.c — TLS/SSL and SSH state options.
 *
 *   ssl_state:[!]client_hello|server_hello|client_keyx|server_keyx|unknown[,|…]
 *   ssl_version:[!]sslv2|sslv3|tls1.0|tls1.1|tls1.2|tls1.3[,…]
 *   tls.version:1.0|1.1|1.2|1.3|0xNNNN         tls.fingerprint:[!]"aa:bb:…" (legacy)
 *   tls.subject:[!]"…", tls.issuerdn:[!]"…"     tls.store, tls.cert_expired, tls.cert_valid,
 *   tls_cert_expired, tls_cert_valid                                       (no argument)
 *   tls.cert_chain_len:N|<N|>N|A<>B|!N
 *   tls_cert_notbefore / tls_cert_notafter (and tls.cert_*): DATE|<DATE|>DATE|DATE<>DATE
 *   ssh.protoversion:"2.0"|"1.x"  ssh.softwareversion:"…"   (legacy Suricata)
 */
#include <string.h>

#include "opt_util.h"
#include "registry.h"
#include "text.h"

/* The TLS units' arguments (struct opt_tls): each fills its part; TLS_PARSER (below) makes
 * each keyword's parser, which says its test. */
static int fill_ssl_state(struct rule_ctx *c, char *val, struct opt_tls *t)
{
    static const char *const S[] = {"client_hello", "server_hello", "client_keyx",
                                    "server_keyx", "unknown", NULL};
    return parse_words(c, val, strchr(val, '|') ? '|' : ',', true, S, &t->words);
}

static int fill_ssl_version(struct rule_ctx *c, char *val, struct opt_tls *t)
{
    static const char *const V[] = {"sslv2", "sslv3", "tls1.0", "tls1.1", "tls1.2", "tls1.3",
                                    NULL};
    return parse_words(c, val, ',', true, V, &t->words);
}

static int fill_tls_version(struct rule_ctx *c, char *val, struct opt_tls *t)
{
    static const char *const V[] = {"1.0", "1.1", "1.2", "1.3", NULL};
    struct opt_cmp *cm = &t->cmp;
    size_t n = strlen(val);
    uint64_t x;
    cm->op = CMP_EQ;
    if (n > 2 && val[0] == '0' && (val[1] == 'x' || val[1] == 'X')) {
        if (!slice_u64(val, n, true, 0xffff, &x))
            return opt_error(c, val, "invalid version '%s'", val);
        cm->lo = (int64_t)x;
        return 0;
    }
    int k = parse_choice(c, val, n, V, "TLS version");
    if (k < 0)
        return -1;
    cm->lo = 0x0301 + k; /* "1.0" is 0x0301 on the wire */
    return 0;
}

/* A date as Suricata's tls_cert_notbefore/notafter write it: YYYY[-MM[-DD[THH[:MM[:SS]]]]]
 * (UTC), as seconds since 1970. false when it is not one. */
static bool date_epoch(const char *s, size_t n, int64_t *out)
{
    static const char SEP[] = {0, '-', '-', 'T', ':', ':'};
    static const int LO[] = {1970, 1, 1, 0, 0, 0}, HI[] = {9999, 12, 31, 23, 59, 59};
    int v[6] = {1970, 1, 1, 0, 0, 0};
    size_t at = 0;
    for (int f = 0; f < 6 && at < n; f++) {
        if (f && s[at++] != SEP[f])
            return false;
        size_t w = f ? 2 : 4;
        if (at + w > n)
            return false;
        v[f] = 0;
        for (size_t k = 0; k < w; k++, at++) {
            if (!is_digit(s[at]))
                return false;
            v[f] = v[f] * 10 + (s[at] - '0');
        }
        if (v[f] < LO[f] || v[f] > HI[f])
            return false;
    }
    if (at != n)
        return false;
    /* days before the month, then the leap days of the years before */
    static const int BEFORE[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    int y = v[0];
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    int64_t days = (int64_t)(y - 1970) * 365 + ((y - 1) / 4 - 1969 / 4) -
                   ((y - 1) / 100 - 1969 / 100) + ((y - 1) / 400 - 1969 / 400) +
                   BEFORE[v[1] - 1] + (leap && v[1] > 2) + v[2] - 1;
    *out = days * 86400 + v[3] * 3600 + v[4] * 60 + v[5];
    return true;
}

/* tls_cert_notbefore / tls_cert_notafter: DATE, <DATE, >DATE or DATE<>DATE (ends included,
 * as Suricata compares them). */
static int fill_cert_date(struct rule_ctx *c, char *val, struct opt_tls *t)
{
    struct opt_cmp *cm = &t->cmp;
    const char *end = val + strlen(val), *s = skip_ws(val, end);
    const char *range = strstr(s, "<>");
    bool ok;
    if (range) {
        cm->op = CMP_RANGE_INCL;
        ok = date_epoch(s, (size_t)(range - s), &cm->lo) &&
             date_epoch(range + 2, (size_t)(end - range - 2), &cm->hi) && cm->lo <= cm->hi;
    } else if (*s == '<' || *s == '>') {
        cm->op = *s == '<' ? CMP_LE : CMP_GE;
        s = skip_ws(s + 1, end);
        ok = date_epoch(s, (size_t)(end - s), &cm->lo);
    } else {
        cm->op = CMP_EQ;
        ok = date_epoch(s, (size_t)(end - s), &cm->lo);
    }
    return ok ? 0 : opt_error(c, val, "expected a date like 2015, 2015-10-22 or "
                              "2015-10-22T14:30:00, after '<', '>' or around '<>'");
}

static int fill_chain_len(struct rule_ctx *c, char *val, struct opt_tls *t)
{
    return parse_cmp(c, val, strlen(val), 0, UINT32_MAX, 0, &t->cmp);
}

static int fill_fingerprint(struct rule_ctx *c, char *val, struct opt_tls *t)
{
    struct opt_str *s = &t->str;
    if (parse_neg_string(c, val, true, 0, s) < 0)
        return -1;
    /* 20 bytes as hex pairs separated by ':' */
    for (uint32_t i = 0; i < s->len; i++) {
        char ch = (char)s->bytes[i];
        if (i % 3 == 2 ? ch != ':' : !is_xdigit(ch))
            return opt_error(c, val, "expected a fingerprint like \"aa:bb:cc:...\"");
    }
    if (s->len != 59)
        return opt_error(c, val, "a SHA-1 fingerprint has 20 bytes (59 characters)");
    return 0;
}

static int fill_neg_str(struct rule_ctx *c, char *val, struct opt_tls *t)
{
    return parse_neg_string(c, val, true, 0, &t->str);
}

static int fill_none(struct rule_ctx *c, char *val, struct opt_tls *t)
{
    (void)c, (void)val, (void)t;
    return 0;
}

#define TLS_PARSER(fn, test_, fill, ...)                                                    \
    static int fn(struct rule_ctx *c, char *val)                                            \
    {                                                                                       \
        struct opt_tls *t = opt_arg_new(c, sizeof *t);                                      \
        if (!t)                                                                             \
            return -1;                                                                      \
        *t = (struct opt_tls){.test = test_, __VA_ARGS__};                                  \
        return fill(c, val, t);                                                             \
    }
TLS_PARSER(parse_ssl_state, OPT_TLS_STATE, fill_ssl_state)
TLS_PARSER(parse_ssl_version, OPT_TLS_SSL_VERSION, fill_ssl_version, .two_sided = true)
TLS_PARSER(parse_tls_version, OPT_TLS_VERSION, fill_tls_version, .two_sided = true)
TLS_PARSER(parse_chain_len, OPT_TLS_CHAIN_LEN, fill_chain_len)
TLS_PARSER(parse_notbefore, OPT_TLS_NOTBEFORE, fill_cert_date)
TLS_PARSER(parse_notafter, OPT_TLS_NOTAFTER, fill_cert_date)
TLS_PARSER(parse_expired, OPT_TLS_EXPIRED, fill_none)
TLS_PARSER(parse_valid, OPT_TLS_VALID, fill_none)
/* the legacy string matches on the server's first certificate */
TLS_PARSER(parse_fingerprint, OPT_TLS_STRING, fill_fingerprint,
           .buffer = "tls.cert_fingerprint", .hex = true)
TLS_PARSER(parse_subject, OPT_TLS_STRING, fill_neg_str, .buffer = "tls.cert_subject")
TLS_PARSER(parse_issuerdn, OPT_TLS_STRING, fill_neg_str, .buffer = "tls.cert_issuer")

/* ssh.softwareversion (not implemented): a string */
static int parse_neg_str(struct rule_ctx *c, char *val)
{
    struct opt_str *s = opt_arg_new(c, sizeof *s);
    return s ? parse_neg_string(c, val, true, 0, s) : -1;
}

static int parse_ssh_protoversion(struct rule_ctx *c, char *val)
{
    struct opt_str *s = opt_arg_new(c, sizeof *s);
    if (s == NULL)
        return -1;
    if (*val == '"')
        return parse_neg_string(c, val, false, 0, s);
    return is_name(val, strlen(val), NULL) ? 0
                                           : opt_error(c, val, "invalid version '%s'", val);
}

#define FLAG(name, done) {name, OPT_MATCH, D_SURI, ARG_NONE, 0, NULL, done, NULL}
/* implemented: compiled as units by rules/compile/tls_units.c (the parser's struct opt_tls
 * says which test) */
#define TLS_UNIT(name, dial, parse) {name, OPT_MATCH, dial, ARG_REQUIRED, 0, parse, true, NULL}
#define TLS_FLAG(name, parse) {name, OPT_MATCH, D_SURI, ARG_NONE, 0, parse, true, NULL}

static const struct opt_def DEFS[] = {
    TLS_UNIT("ssl_state", D_ALL, parse_ssl_state),
    TLS_UNIT("ssl_version", D_ALL, parse_ssl_version),
    TLS_UNIT("tls.version", D_SURI, parse_tls_version),
    TLS_UNIT("tls.fingerprint", D_SURI, parse_fingerprint),
    TLS_UNIT("tls.subject", D_SURI, parse_subject),
    TLS_UNIT("tls.issuerdn", D_SURI, parse_issuerdn),
    TLS_UNIT("tls.cert_chain_len", D_SURI, parse_chain_len),
    TLS_UNIT("tls_cert_notbefore", D_SURI, parse_notbefore),
    TLS_UNIT("tls_cert_notafter", D_SURI, parse_notafter),
    TLS_UNIT("tls.cert_notbefore", D_SURI, parse_notbefore),
    TLS_UNIT("tls.cert_notafter", D_SURI, parse_notafter),
    {"ssh.protoversion", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_ssh_protoversion, false, NULL},
    {"ssh.softwareversion", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_neg_str, false, NULL},
    FLAG("tls.store", false),
    TLS_FLAG("tls.cert_expired", parse_expired),
    TLS_FLAG("tls.cert_valid", parse_valid),
    TLS_FLAG("tls_cert_expired", parse_expired),
    TLS_FLAG("tls_cert_valid", parse_valid),
};
OPT_TABLE(opt_table_tls, DEFS);
