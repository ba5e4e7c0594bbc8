/* tls_units.h — the TLS options that are not buffers, as units (tls_units.c): ssl_state,
 * ssl_version, tls.version, tls.cert_chain_len, tls_cert_notbefore/notafter,
 * tls_cert_expired/valid, and the legacy string matches tls.fingerprint, tls.subject,
 * tls.issuerdn. Each reads what the TLS parser saw (its fields and buffers, by name)
 * under the TLS event its value comes with. Private to rules/compile/. */
#ifndef RULES_TLS_UNITS_H
#define RULES_TLS_UNITS_H

#include <stdbool.h>
#include <stdint.h>

#include "detect_int.h"
#include "opt_args.h"
#include "osprey_rules.h"
#include "registry.h"

/* The option's test (its row's parser says it: struct opt_tls, opt_args.h); from DT_CHAIN_LEN
 * on, options on the server's certificate. */
enum det_tls_test {
    DT_STATE = OPT_TLS_STATE, DT_SSL_VERSION = OPT_TLS_SSL_VERSION, DT_VERSION = OPT_TLS_VERSION,
    DT_CHAIN_LEN = OPT_TLS_CHAIN_LEN, DT_NOTBEFORE = OPT_TLS_NOTBEFORE,
    DT_NOTAFTER = OPT_TLS_NOTAFTER, DT_EXPIRED = OPT_TLS_EXPIRED, DT_VALID = OPT_TLS_VALID,
    DT_STRING = OPT_TLS_STRING,
};

/* One option, compiled (plain data but for str, which points into the rule's AST). */
struct det_tls {
    uint8_t test;          /* enum det_tls_test */
    uint8_t side;          /* the rule's direction: 0 either, 1 to server, 2 to client */
    bool negated;          /* ssl_version:!…, tls.subject:!"…" … */
    uint16_t ob;           /* DT_STRING: the parser buffer searched */
    bool hex;              /* DT_STRING: the fingerprint's hex, in any case */
    uint16_t f_client, f_server, f_state, f_chain, f_before, f_after; /* the parsers' TLS
                              fields (registry ids) the tests read */
    uint32_t set, neg_set; /* DT_STATE: tls.state's bits wanted, and wanted absent;
                              DT_SSL_VERSION: bit i = version i of sslv2 … tls1.3 */
    struct opt_cmp cmp;    /* DT_VERSION (EQ), DT_CHAIN_LEN, DT_NOTBEFORE, DT_NOTAFTER */
    uint32_t len;          /* DT_STRING: the bytes looked for */
    const uint8_t *str;
};

/* Does TLS unit option o look at both sides (the client's version in one chain, the server's
 * in the other, as Suricata inspects a rule without direction in each)? */
bool det_tls_two_sided(const struct osprey_rule_option *o);
/* The direction TLS unit option o implies, as det_app_buffer_side: 2 (to client) for the
 * options on the server's certificate, else 0. */
int det_tls_side(const struct osprey_rule_option *o);
/* The TLS event the option's value comes with (its base), for a rule of direction side. */
uint16_t det_tls_base(const struct osprey_rule_option *o, int side);
/* Compile option o for a rule of direction side into *out; NULL, or why it cannot be. */
const char *det_tls_compile(const struct osprey_rule_option *o, int side, struct det_tls *out);
/* Does the flow's TLS state satisfy it now? */
bool det_tls_match(const struct det_tls *t, struct mon_ctx *ctx, struct mon_flow *f);

#endif
