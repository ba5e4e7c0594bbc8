/* opt_params.h — one declarative parser for the "key [value], key [value] …" arguments of
 * option keywords (Snort 3's Parameter tables): a keyword lists its keys — name, type (flag,
 * number in a range, word of a list, name, quoted string, or its own parser), required or
 * not, repeatable or not, and where the value goes in its argument struct — and
 * opt_params_parse reads the argument, reporting through opt_error() as
 * `file:line: sid N: KEYWORD: what is wrong`. Used by base64_decode, from_base64,
 * zlib_deflate, gunzip, entropy, asn1, threshold / detection_filter, file_meta and the
 * Snort 3 HTTP buffer selectors. */
#ifndef RULES_OPT_PARAMS_H
#define RULES_OPT_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "rule.h"

enum opt_param_type {
    PT_FLAG,   /* the key alone (`relative`): a value is an error; stores true (a bool) */
    PT_NUM,    /* key N: a decimal number in [lo, hi]; stores it (1, 2, 4 or 8 bytes) */
    PT_ENUM,   /* key WORD: one of words; stores its index (1, 2 or 4 bytes) */
    PT_NAME,   /* key NAME: letters, digits, '_', '-', '.' ("KEY needs WHAT" when not) */
    PT_STRING, /* key "quoted": nothing may follow the closing quote */
    PT_CUSTOM, /* key VALUE: the param's parse function reads the value */
};

enum { P_REQUIRED = 1, P_REPEAT = 2,
       P_UNLISTED = 4 /* not named in the known keys of PU_LIST / PU_CHOICE messages */ };

struct opt_param {
    const char *name;
    uint8_t type;              /* enum opt_param_type */
    uint8_t flags;             /* P_REQUIRED (else optional), P_REPEAT (else at most once),
                                  P_UNLISTED */
    int64_t lo, hi;            /* PT_NUM: the range */
    const char *const *words;  /* PT_ENUM: the words (NULL-terminated) */
    const char *what;          /* the value in messages (NULL: the key's name); PT_NAME: what
                                  it needs ("a name") */
    size_t off;                /* where the value goes in the argument struct, */
    uint8_t size;              /* and its width in bytes (0: not stored) */
    int (*parse)(struct rule_ctx *c, void *arg, const char *v, size_t vn); /* PT_CUSTOM */
};
/* .off and .size of a struct field */
#define PARAM_AT(type, field) .off = offsetof(type, field), .size = sizeof(((type *)0)->field)

enum opt_params_unknown {
    PU_PLAIN,  /* unknown field 'x' */
    PU_LIST,   /* unknown argument 'x' (bytes, offset, mode) */
    PU_CHOICE, /* unknown asn1 check 'x' (expected one of: …) */
};

struct opt_params {
    const struct opt_param *p;
    size_t n;
    const char *item;     /* what a key is called in messages: "field", "argument" … */
    uint8_t unknown;      /* enum opt_params_unknown: how an unknown key is reported */
    bool words;           /* items are separated by commas or spaces, a value is the next
                             word after spaces (asn1), instead of "key value" between commas */
    const char *empty;    /* the message for an empty item (NULL: an unknown key '') */
    const char *missing;  /* the message for a missing required key (NULL: "missing 'KEY'") */
};
#define OPT_PARAMS(rows) .p = rows, .n = sizeof rows / sizeof rows[0]

/* Read val (NUL-terminated) into arg by spec. *seen (may be NULL): bit i set for each key
 * p[i] given (at most 32 keys). 0, or -1 after opt_error(). */
int opt_params_parse(struct rule_ctx *c, const char *val, const struct opt_params *spec,
                     void *arg, uint32_t *seen);

#endif
