/* rule.h — the state of one rule being parsed, shared by the header parser and every option.
 *
 * A rule is parsed in one pass over its options, left to right, with the state the dialects
 * need: the sticky buffer in force, its transforms, the last content (for classic modifiers),
 * the byte_extract/byte_math variables defined so far. Errors are recorded, not printed: the
 * first syntax error wins over everything; the first semantic error (unknown variable,
 * classtype …) wins over duplicates and unsupported options.
 */
#ifndef RULES_RULE_H
#define RULES_RULE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "osprey_rules.h"

struct osprey_ruleset;
struct opt_def;
struct opt_content;

/* Where a piece of a logical rule came from: continued lines and stripped comment marks make
 * logical offsets differ from physical columns. */
struct rule_seg {
    uint32_t off;  /* logical offset where this segment starts */
    uint32_t line; /* physical line */
    uint32_t col;  /* 1-based column of that offset on the line */
};

struct rule_err {
    bool set;
    uint32_t line, col; /* 0 when not tied to a position */
    char key[64];       /* summary class */
    char msg[384];
};

/* Transforms applied to the sticky buffer in force (Suricata): kept as a chain so contents
 * of the same buffer share it. */
struct xform_chain {
    const struct xform_chain *prev;
    uint16_t kw;       /* transform keyword */
    const void *arg;   /* e.g. xor key, pcrexform regex */
};

enum { RULE_MAX_VARS = 32 };

/* Rule-level options that may appear once. */
enum {
    META_SID = 1 << 0,
    META_GID = 1 << 1,
    META_REV = 1 << 2,
    META_MSG = 1 << 3,
    META_CLASSTYPE = 1 << 4,
    META_PRIORITY = 1 << 5,
    META_TARGET = 1 << 6,
    META_TARGET_DST = 1 << 7,
};

struct rule_ctx {
    struct osprey_ruleset *rs;
    struct arena *ar;  /* the AST */
    struct arena *tmp; /* scratch for this rule, released after it */
    const char *text;  /* logical rule text (tokenised in place) */
    const struct rule_seg *segs;
    uint32_t nsegs;
    bool disabled;
    bool snort3;       /* Snort 3 grammar for this rule */
    bool suricata;     /* uses Suricata-only keywords */
    struct osprey_rule *rule;

    /* option walk */
    struct osprey_rule_option *opt; /* current option */
    const struct opt_def *def;      /* its definition */
    const char *kwpos;              /* its keyword in text */
    uint16_t buffer;                /* sticky buffer in force */
    const struct xform_chain *xforms;
    uint16_t xform_at, nxforms;     /* the transforms as a range of the options */
    struct opt_content *last_content;
    struct osprey_rule_option *last_content_opt;
    struct osprey_rule_option *last_payload_opt; /* the payload option before this one */
    bool fast_pattern_seen;
    struct osprey_rule_option *sticky_opt; /* last sticky buffer selected */
    const char *sticky_pos;
    uint8_t side;                           /* enum osprey_buffer_side of the buffer in force */
    bool buffer_used;                       /* a payload option ran on the buffer in force */
    bool skipped;         /* requires: not met: the rule is left out without an error */
    bool absent_only;     /* plain `absent` on the buffer in force: nothing else inspects it */
    bool xform_pending;   /* a transform after the buffer's uses, nothing inspects it yet */
    uint32_t meta_seen;                     /* META_* given once only */
    const char *vars[RULE_MAX_VARS]; /* byte_extract / byte_math names */
    uint32_t nvars;

    struct rule_err syntax, semantic;
    int unsupported_kw; /* first unsupported keyword, -1 for none */
    const char *unsupported_why; /* with it: why its arguments do not compile (or NULL) */
};

/* Record an error at pos (a pointer into c->text, or NULL) and return -1. The message is
 * printf-formatted; " (col N)" is appended when pos is given. */
int rule_syntax_error(struct rule_ctx *c, const char *pos, const char *key, const char *fmt,
                      ...) __attribute__((format(printf, 4, 5)));
int rule_semantic_error(struct rule_ctx *c, const char *pos, const char *key, const char *fmt,
                        ...) __attribute__((format(printf, 4, 5)));
/* A syntax error in the current option: key "syntax error in KW", message "KW: …". */
int opt_error(struct rule_ctx *c, const char *pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Out of memory while parsing. */
int rule_oom(struct rule_ctx *c);

/* Position of p (pointer into c->text) as line and 1-based column. */
void rule_where(const struct rule_ctx *c, const char *p, uint32_t *line, uint32_t *col);

/* Byte variables (byte_extract, byte_math results) usable as numbers by later options. */
int rule_define_var(struct rule_ctx *c, const char *pos, const char *name, size_t n);
bool rule_has_var(const struct rule_ctx *c, const char *name, size_t n);

/* Parse one logical rule. Returns the rule (in c->ar) with its status decided by the caller
 * from c->syntax/semantic/unsupported_kw, or NULL when the text is not even a rule shape. */
struct osprey_rule *rule_parse(struct rule_ctx *c, char *text, uint32_t len);

#endif
