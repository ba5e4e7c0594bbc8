/* registry.h — the table of rule option keywords.
 *
 * Each options file (opt_*.c) owns the rows of its keywords: name, which dialects have it,
 * what kind of option it is (how it interacts with buffers and contents), whether it takes an
 * argument, the argument parser, whether the engine implements it and, for an implemented one,
 * which of its argument forms the engine does not run yet (check). How an implemented option
 * becomes units of a rule's chain is the compiler's: rules/compile/plan_table.c names the plan
 * function of each keyword (the options library does not know the compiler). registry.c only
 * lists the files' tables (data); a keyword's id is its position in that concatenation. The
 * rules core reads them (rules/core/keywords.c) and reaches a keyword through its row only.
 */
#ifndef RULES_REGISTRY_H
#define RULES_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rule_ctx;

enum opt_kind {
    OPT_META,        /* about the rule, not the traffic: msg, sid, classtype … */
    OPT_MATCH,       /* a test that needs no buffer: flow, flowbits, dsize … */
    OPT_PAYLOAD,     /* a test on the buffer in force: content, pcre, byte_test, bsize … */
    OPT_MODIFIER,    /* changes the last content: nocase, depth, fast_pattern … */
    OPT_STICKY,      /* selects the buffer for what follows: http.uri, file_data … */
    OPT_HTTP_LEGACY, /* http_uri & co: a content modifier in Snort 2 / Suricata (applies to
                        the content before it), a sticky buffer in Snort 3 */
    OPT_TRANSFORM,   /* changes the sticky buffer in force: to_lowercase, dotprefix … */
};

enum {
    D_S2 = 1,   /* Snort 2.9 */
    D_S3 = 2,   /* Snort 3 */
    D_SURI = 4, /* Suricata 7 / ET Open */
    D_CLASSIC = D_S2 | D_SURI,
    D_ALL = D_S2 | D_S3 | D_SURI,
};

enum opt_argmode {
    ARG_NONE,     /* `nocase;` — a value is an error */
    ARG_REQUIRED, /* `depth:4;` */
    ARG_OPTIONAL, /* `fast_pattern;` or `fast_pattern:only;` */
};

/* Parse the option's argument (NUL-terminated, trimmed; NULL when absent) into the AST:
 * set c->opt->arg and return 0, or report through opt_error() and return -1. */
typedef int (*opt_parse_fn)(struct rule_ctx *c, char *val);

/* Can the detection engine run an implemented option with this parsed argument (c->opt->arg,
 * never NULL here)? NULL, or why not: the rule is then refused as unsupported, with that
 * reason (check mode -T and the compiler ask the same function). */
typedef const char *(*opt_check_fn)(const void *arg);

struct opt_def {
    const char *name;
    uint8_t kind;     /* enum opt_kind */
    uint8_t dialects; /* D_* */
    uint8_t arg;      /* enum opt_argmode */
    uint16_t buffer;  /* OPT_STICKY, OPT_HTTP_LEGACY: the buffer selected. OPT_MATCH: the
                         app buffer whose event the keyword is evaluated under (urilen:
                         http.uri; dns.opcode: any DNS message's …), or 0 (BUF_PKT) for a
                         keyword that needs no app-layer message: the compiler reads it
                         here, so a protocol's match keyword needs no compiler edit */
    opt_parse_fn parse;
    bool implemented;
    opt_check_fn check; /* implemented options: the argument forms not run yet (NULL: all
                           run). How an option compiles is rules/compile/plan_table.c's. */
};

struct opt_table {
    const struct opt_def *defs;
    size_t n;
};

#define OPT_TABLE(name, rows)                                                   \
    const struct opt_table name = {rows, sizeof rows / sizeof rows[0]}

/* The tables, one per options file. */
extern const struct opt_table opt_table_msg, opt_table_ids, opt_table_classtype,
    opt_table_reference, opt_table_metadata, opt_table_target, opt_table_content, opt_table_pcre,
    opt_table_buffers, opt_table_transforms, opt_table_flow, opt_table_flowbits,
    opt_table_byte, opt_table_compare, opt_table_ipflags, opt_table_threshold,
    opt_table_events, opt_table_tls, opt_table_file, opt_table_dce, opt_table_app, opt_table_mqtt,
    opt_table_smb,
    opt_table_misc, opt_table_asn1, opt_table_geoip, opt_table_pktprop, opt_table_hints, opt_table_absent,
    opt_table_entropy, opt_table_dataset, opt_table_krb5, opt_table_ldap, opt_table_snmp;
extern const struct opt_table opt_table_dhcp, opt_table_ntp, opt_table_ike;
extern const struct opt_table opt_table_http2;
extern const struct opt_table opt_table_pop3;
extern const struct opt_table opt_table_nfs;
extern const struct opt_table opt_table_websocket, opt_table_rfb;
extern const struct opt_table opt_table_lua;
extern const struct opt_table opt_table_modbus, opt_table_dnp3, opt_table_enip;

/* All of them, in keyword-id order (registry.c: data the core reads). */
extern const struct opt_table *const *const opt_tables;
extern const size_t opt_ntables;

/* ---- reading the table (rules/core/keywords.c) ---- */

/* NULL when this implemented option's argument compiles, or why not (def->check). */
const char *opt_compile_check(const struct opt_def *def, const void *arg);

/* Is the keyword implemented: its row says so, or it is a sticky buffer whose buffer a parser
 * registers (parsers/include/osprey_parsers.h), so a protocol's buffers become implemented
 * when it arrives, with no change here? */
bool opt_def_implemented(const struct opt_def *d);

/* Keyword id → definition (NULL past the end), and the number of keywords. */
const struct opt_def *opt_def_by_id(size_t kw);
size_t opt_def_count(void);

/* A name → id index, built per ruleset (the rows by id: opt_def_by_id). */
struct opt_index {
    size_t n;
    uint16_t *hash;             /* by name's hash: id + 1, 0 empty; hmask + 1 slots */
    size_t hmask;
};
int opt_index_build(struct opt_index *ix);
void opt_index_free(struct opt_index *ix);
/* Id of the keyword s[0..n), or -1. */
int opt_index_find(const struct opt_index *ix, const char *s, size_t n);

#endif
