/* osprey_rules.h — Snort 2.9, Snort 3 and Suricata/ET rules parsed into one checked AST.
 *
 * A ruleset is built from files (or text) against a configuration: variables come from
 * `vars.address-groups` / `vars.port-groups`, classtypes, reference systems and thresholds from
 * the files named by `classification-file`, `reference-config-file` and `threshold-file`.
 *
 * Every rule read ends in exactly one state:
 *   accepted  parsed, checked, every option implemented: it is in the ruleset;
 *   rejected  an enabled rule that is malformed (syntax), refers to something unknown
 *             (variable, classtype, reference system), duplicates a sid, or uses an option that
 *             parses but is not implemented yet ("unsupported option X") — one diagnostic
 *             `file:line: sid N: reason` says which, the first problem found;
 *   disabled  a commented-out rule (`# alert ...`): parsed for syntax only, never loaded.
 * A malformed rule never stops the others from loading. Nothing here prints or exits except
 * osprey_rules_check/osprey_rules_dump, which print to the stream they are given.
 *
 * Dialects are told apart per rule (see rules/README.md): Snort 3 by its markers (`service:`,
 * `content:"x",nocase`, sticky `http_uri;` before a content, Snort 3-only keywords) — and once
 * a file showed Snort 3 syntax, its ambiguous rules are read as Snort 3 too; otherwise the
 * classic grammar Snort 2.9 and Suricata share (`content:"x"; http_uri;` modifiers), with
 * Suricata's sticky buffers, transforms and keywords. A dialect can also be forced.
 *
 * Thread safety: a ruleset is built by one thread; once built it is read-only.
 */
#ifndef OSPREY_RULES_H
#define OSPREY_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct osprey_config;
struct osprey_ruleset;

enum osprey_rule_action {
    OSPREY_ACTION_ALERT,
    OSPREY_ACTION_LOG,
    OSPREY_ACTION_PASS,
    OSPREY_ACTION_DROP,
    OSPREY_ACTION_REJECT,
    OSPREY_ACTION_REJECTSRC,
    OSPREY_ACTION_REJECTDST,
    OSPREY_ACTION_REJECTBOTH,
    OSPREY_ACTION_SDROP,
    OSPREY_ACTION_BLOCK,   /* Snort 3 */
    OSPREY_ACTION_REACT,   /* Snort 3 */
    OSPREY_ACTION_REWRITE, /* Snort 3 */
    OSPREY_ACTION_FILE_ID, /* Snort 3 file identification rule: `file_id (...)` */
    OSPREY_ACTION_ACCEPT,  /* Suricata 8 firewall rules: `accept:<scope>` */
};

/* Suricata 8's action scope (`accept:hook`, `drop:flow`): written only on firewall rules, and
 * a rule with one is a firewall rule (docs/rules.md "Firewall mode"). */
enum osprey_action_scope {
    OSPREY_SCOPE_NONE,   /* a threat-detection rule */
    OSPREY_SCOPE_PACKET, /* accept:packet, drop:packet */
    OSPREY_SCOPE_FLOW,   /* accept:flow, drop:flow */
    OSPREY_SCOPE_HOOK,   /* accept:hook: the hook's table accepts, the next one decides */
    OSPREY_SCOPE_TX,     /* accept:tx: the transaction's remaining hooks are accepted */
};

enum osprey_rule_dialect {
    OSPREY_DIALECT_AUTO,     /* per rule, from its markers (the default) */
    OSPREY_DIALECT_SNORT2,   /* classic grammar, no Suricata-only keyword seen */
    OSPREY_DIALECT_SNORT3,
    OSPREY_DIALECT_SURICATA, /* classic grammar with Suricata keywords */
};

enum osprey_rule_dir {
    OSPREY_DIR_TO,   /* -> */
    OSPREY_DIR_BOTH, /* <> */
    OSPREY_DIR_TX,   /* => Suricata 8's transactional rule: request and response of one
                        transaction (the options pick the side; src is the client) */
};

/* The side a sticky buffer's argument names (`http.connection: to_client;`), for buffers
 * both messages have, in a => rule. */
enum osprey_buffer_side { OSPREY_SIDE_ANY, OSPREY_SIDE_TO_SERVER, OSPREY_SIDE_TO_CLIENT };

enum osprey_rule_status {
    OSPREY_RULE_ACCEPTED,
    OSPREY_RULE_REJECTED,
    OSPREY_RULE_DISABLED,
};

/* An address, IPv6 numbering: IPv4 a.b.c.d is ::ffff:a.b.c.d (hi = 0, lo = 0xffffXXXXXXXX). */
struct osprey_ip {
    uint64_t hi, lo;
};
struct osprey_ip_range {
    struct osprey_ip lo, hi; /* inclusive */
};
/* Sorted, disjoint, non-adjacent ranges; `any` is the one range ::–ffff:…:ffff. Never empty:
 * an expression matching nothing is rejected. */
struct osprey_ip_set {
    uint32_t n;
    const struct osprey_ip_range *r;
};
struct osprey_port_range {
    uint16_t lo, hi; /* inclusive */
};
struct osprey_port_set {
    uint32_t n;
    const struct osprey_port_range *r;
};

struct osprey_rule_endpoint {
    const char *addr_text, *port_text; /* as written, e.g. "$HOME_NET", "[80,443]" */
    const struct osprey_ip_set *addr;  /* variables resolved, negations applied */
    const struct osprey_port_set *port;
};

struct osprey_rule_option {
    const char *keyword; /* as written: "http_uri" and "http.uri" stay apart (same buffer) */
    const char *value;   /* argument as written, rule escapes kept; NULL when there is none */
    uint16_t kw;         /* index in the keyword table (osprey_rules_keyword_name) */
    uint16_t buffer;     /* inspection buffer in force for this option (osprey_rules_buffer_name);
                            for a content it is the content's own buffer after modifiers */
    uint16_t xform_at;   /* Suricata transforms applied to that buffer (to_lowercase …): the */
    uint16_t nxforms;    /* options opts[xform_at .. xform_at + nxforms), in order */
    uint32_t line, col;  /* where the keyword starts (1-based) */
    const void *arg;     /* the parsed argument; its type per keyword is in rules/options/ */
    uint8_t side;        /* enum osprey_buffer_side of the sticky buffer in force */
};

struct osprey_rule {
    const char *file;
    uint32_t line; /* first line of the rule (continued rules span more) */
    enum osprey_rule_status status;
    enum osprey_rule_dialect dialect; /* as detected (never AUTO) */
    enum osprey_rule_action action;
    enum osprey_action_scope scope; /* NONE unless a firewall rule */
    const char *proto;     /* canonical protocol word: "tcp", "http", "file" … */
    const char *hook;      /* Suricata 8's rule hook (`tls:client_hello_done`,
                              `tcp:flow_start`): the word after the protocol's ':', or NULL */
    bool headerless;       /* Snort 3 `alert http (...)`: addresses and ports are any */
    struct osprey_rule_endpoint src, dst;
    enum osprey_rule_dir dir;
    uint32_t gid, sid, rev; /* gid defaults to 1, rev to 0 */
    int32_t priority;       /* from priority:, else from the classtype, else 0 */
    const char *msg;        /* unescaped; NULL without msg */
    const char *classtype;  /* NULL without classtype */
    uint32_t nopts;
    const struct osprey_rule_option *opts; /* in rule order */
    const char *reason;     /* why it was rejected (kept rules of a keep_all ruleset only) */
};

struct osprey_rules_options {
    enum osprey_rule_dialect dialect; /* AUTO unless forced */
    bool keep_all;                    /* keep rejected and disabled rules too (dump, tests) */
    bool quiet_disabled;              /* no diagnostics for malformed disabled rules */
    /* Files overriding the configuration's classification-file, reference-config-file and
     * threshold-file; NULL takes the configuration's (none without a configuration),
     * "" loads none. */
    const char *classification_file;
    const char *reference_file;
    const char *threshold_file;
};

/* Counts over everything added so far. "read" = enabled + disabled. */
struct osprey_rules_stats {
    uint32_t files;
    uint32_t read;
    uint32_t enabled;
    uint32_t disabled;
    uint32_t accepted;               /* enabled and loaded */
    uint32_t rejected;               /* enabled and not loaded, for any reason */
    uint32_t syntax_errors;          /* enabled rules rejected as malformed */
    uint32_t unsupported;            /* enabled rules rejected only for unsupported options */
    uint32_t disabled_parsed;        /* disabled rules that parse */
    uint32_t disabled_syntax_errors; /* disabled rules that do not */
    uint32_t duplicate_sids;         /* rules rejected as a duplicate of an earlier gid:sid:rev */
    uint32_t conflicting_revs;       /* rules rejected as an older revision of a loaded sid */
    uint32_t skipped;                /* enabled rules left out quietly: their requires: is not
                                        met (neither accepted nor rejected) */
    uint32_t config_errors;          /* bad lines in classification/reference/threshold files,
                                        unreadable rule files, bad variables */
    uint64_t arena_bytes;            /* memory held by the ruleset's AST */
};

enum osprey_rules_diag_kind {
    OSPREY_DIAG_REJECTED, /* an enabled rule was not loaded */
    OSPREY_DIAG_DISABLED, /* a commented-out rule is malformed (informational) */
    OSPREY_DIAG_CONFIG,   /* a configuration file, variable or rule file problem */
    OSPREY_DIAG_WARNING,  /* loaded anyway */
};

struct osprey_rules_diag {
    enum osprey_rules_diag_kind kind;
    const char *file;
    uint32_t line;
    uint32_t sid;     /* 0 when unknown */
    const char *text; /* the reason, e.g. "unsupported option content" */
    const char *key;  /* its summary class, e.g. "unsupported option content",
                         "syntax error in pcre", "unknown variable", "duplicate sid" */
};

/* Create an empty ruleset. cfg may be NULL (no variables; no classification, reference or
 * threshold file unless opts names one), opts may be NULL (defaults). Problems in the
 * configuration files become OSPREY_DIAG_CONFIG diagnostics. Returns 0, or -1 when out of
 * memory. */
int osprey_ruleset_create(struct osprey_ruleset **out, const struct osprey_config *cfg,
                          const struct osprey_rules_options *opts);
void osprey_ruleset_free(struct osprey_ruleset *rs);

/* Parse every rule of a file / of text[0..len) (name is used in diagnostics). Returns 0, or -1
 * when the file cannot be read (a CONFIG diagnostic) or memory ran out. Rules are added in
 * order; a later rule with the same gid:sid is reported against the earlier one. */
int osprey_ruleset_add_file(struct osprey_ruleset *rs, const char *path);
int osprey_ruleset_add_text(struct osprey_ruleset *rs, const char *name, const char *text,
                            size_t len);

/* The rules kept: accepted ones in file order (with keep_all, every rule read). */
size_t osprey_ruleset_count(const struct osprey_ruleset *rs);
const struct osprey_rule *osprey_ruleset_rule(const struct osprey_ruleset *rs, size_t i);

const struct osprey_rules_stats *osprey_ruleset_stats(const struct osprey_ruleset *rs);
size_t osprey_ruleset_diag_count(const struct osprey_ruleset *rs);
const struct osprey_rules_diag *osprey_ruleset_diag(const struct osprey_ruleset *rs, size_t i);

/* Option keywords: the table every dialect's keywords are looked up in. */
size_t osprey_rules_keyword_count(void);
const char *osprey_rules_keyword_name(size_t kw);
/* Implemented: a rule using the keyword compiles (check mode and the compiler decide alike;
 * a particular argument form may still be refused, with its reason). Otherwise the keyword is
 * parsed and checked only, and its rules are rejected as `unsupported option KEYWORD`. */
bool osprey_rules_keyword_implemented(size_t kw);
/* The dialects that have keyword kw (OSPREY_KW_* bits, 0 past the end). */
enum { OSPREY_KW_SNORT2 = 1, OSPREY_KW_SNORT3 = 2, OSPREY_KW_SURICATA = 4 };
unsigned osprey_rules_keyword_dialects(size_t kw);
/* What kind of option keyword kw is: "meta", "match", "payload", "modifier", "sticky",
 * "http-legacy" or "transform" (NULL past the end). */
const char *osprey_rules_keyword_kind(size_t kw);
/* The buffer a sticky or http-legacy keyword selects ("http.uri" …), NULL for the others. */
const char *osprey_rules_keyword_buffer(size_t kw);
/* Rules using keyword kw so far: enabled ones and disabled ones (each rule counted once). */
void osprey_ruleset_keyword_uses(const struct osprey_ruleset *rs, size_t kw, uint32_t *enabled,
                                 uint32_t *disabled);
/* Name of an inspection buffer ("pkt_data", "http.uri", …). */
const char *osprey_rules_buffer_name(unsigned buffer);

/* Check mode (`osprey -T`): load files[0..nfiles) — or, when nfiles is 0, the configuration's
 * rule-files under default-rule-path — print one line per rejected rule (`file:line: sid N:
 * reason`), then a summary: rules read, accepted, rejected by reason, and every option keyword
 * seen with its counts and whether it is implemented. Returns the exit status: 0 when no rule
 * was rejected and no configuration error was found, 1 otherwise. */
int osprey_rules_check(const struct osprey_config *cfg, const char *const *files, int nfiles,
                       FILE *out);

/* `osprey --dump-rules`: every rule read (accepted, rejected and disabled) as one JSON object
 * per line: header, resolved addresses and ports, options with their buffers. Same exit
 * status as osprey_rules_check. */
int osprey_rules_dump(const struct osprey_config *cfg, const char *const *files, int nfiles,
                      FILE *out);

#endif
