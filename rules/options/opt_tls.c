/* opt_tls.c — TLS/SSL and SSH state options.
 *
 *   ssl_state:[!]client_hello|server_hello|client_keyx|server_keyx|unknown[,|…]
 *   ssl_version:[!]sslv2|sslv3|tls1.0|tls1.1|tls1.2|tls1.3[,…]
 *   tls.version:1.0|1.1|1.2|1.3|0xNNNN         tls.fingerprint:[!]"aa:bb:…" (legacy)
 *   tls.subject:[!]"…", tls.issuerdn:[!]"…"     tls.store, tls.cert_expired, tls.cert_valid,
 *   tls_cert_expired, tls_cert_valid                                       (no argument)
 *   ssh.protoversion:"2.0"|"1.x"  ssh.softwareversion:"…"   (legacy Suricata)
 */
#include <string.h>

#include "opt_util.h"
#include "registry.h"
#include "text.h"

static int parse_ssl_state(struct rule_ctx *c, char *val)
{
    static const char *const S[] = {"client_hello", "server_hello", "client_keyx",
                                    "server_keyx", "unknown", NULL};
    struct opt_words *w = opt_arg_new(c, sizeof *w);
    return w ? parse_words(c, val, strchr(val, '|') ? '|' : ',', true, S, w) : -1;
}

static int parse_ssl_version(struct rule_ctx *c, char *val)
{
    static const char *const V[] = {"sslv2", "sslv3", "tls1.0", "tls1.1", "tls1.2", "tls1.3",
                                    NULL};
    struct opt_words *w = opt_arg_new(c, sizeof *w);
    return w ? parse_words(c, val, ',', true, V, w) : -1;
}

static int parse_tls_version(struct rule_ctx *c, char *val)
{
    static const char *const V[] = {"1.0", "1.1", "1.2", "1.3", NULL};
    size_t n = strlen(val);
    uint64_t x;
    if (n > 2 && val[0] == '0' && (val[1] == 'x' || val[1] == 'X'))
        return slice_u64(val, n, true, 0xffff, &x) ? 0
                                                   : opt_error(c, val, "invalid version '%s'",
                                                               val);
    return parse_choice(c, val, n, V, "TLS version") < 0 ? -1 : 0;
}

static int parse_fingerprint(struct rule_ctx *c, char *val)
{
    struct opt_str *s = opt_arg_new(c, sizeof *s);
    if (s == NULL || parse_neg_string(c, val, true, 0, s) < 0)
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

#define FLAG(name) {name, OPT_MATCH, D_SURI, ARG_NONE, 0, NULL, false}

static const struct opt_def DEFS[] = {
    {"ssl_state", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_ssl_state, false},
    {"ssl_version", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_ssl_version, false},
    {"tls.version", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_tls_version, false},
    {"tls.fingerprint", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_fingerprint, false},
    {"tls.subject", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_neg_str, false},
    {"tls.issuerdn", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_neg_str, false},
    {"ssh.protoversion", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_ssh_protoversion, false},
    {"ssh.softwareversion", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_neg_str, false},
    FLAG("tls.store"),
    FLAG("tls.cert_expired"),
    FLAG("tls.cert_valid"),
    FLAG("tls_cert_expired"),
    FLAG("tls_cert_valid"),
};
OPT_TABLE(opt_table_tls, DEFS);
