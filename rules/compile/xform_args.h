/* xform_args.h — the transforms that take an argument or may grow the buffer (from_base64,
 * xor, pcrexform, zlib_deflate, gunzip): their prepared form and evaluation. The argument-less
 * ones are opt_transforms.c's xform_apply. Private to rules/compile/. */
#ifndef RULES_XFORM_ARGS_H
#define RULES_XFORM_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/* One step of a transform chain, ready to run (built once when the rules compile). */
struct det_xstep {
    const char *name;     /* the keyword */
    const void *arg;      /* its parsed argument (opt_args.h), or NULL */
    uint8_t *key;         /* xor: the key bytes */
    uint32_t keylen;
    void *code;           /* pcrexform: the compiled regex */
};

/* luaxform's output may be this many bytes longer than its input (the rest is cut); it
 * runs in the worker's Lua state (unit_lua.c det_lua_xform), not in xstep_apply. */
#define XFORM_LUA_GROWTH 65536u

/* Fill s for transform `name` with parsed argument arg; -1 on a bad argument or no memory. */
int xstep_prepare(struct det_xstep *s, const char *name, const void *arg);
void xstep_free(struct det_xstep *s);
/* Whether the step is one of this file's. */
bool xstep_has_own(const char *name);
/* The most bytes the step can output for n input bytes. */
uint32_t xstep_out_max(const struct det_xstep *s, uint32_t n);
/* Run the step: in[0..n) → out (room for xstep_out_max); md: pcre2 match data. Returns the
 * output length. */
uint32_t xstep_apply(const struct det_xstep *s, const uint8_t *in, uint32_t n, uint8_t *out,
                     void *md);

#endif
