/* rlua.h — Lua rules (the `lua:` / `luajit:` keyword) and the `luaxform` transform on Lua 5.4,
 * in Suricata 8's sandbox: the interface of rules/lua/ to rules/options/ (a script is loaded
 * and its init() run when its rule is read) and rules/compile/ (each worker runs its own
 * lua_State per script). Nothing here is global or shared between threads: a script is
 * read-only once loaded; a state belongs to one worker. Private to rules/. */
#ifndef RULES_RLUA_H
#define RULES_RLUA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "osprey_detect.h"

struct mon_ctx;
struct mon_flow;
struct mon_packet;
struct osprey_rule;
struct osprey_scratch;

/* security.lua: as Suricata 8's keys (common/config/config_schema.c). */
struct rlua_limits {
    bool allow_rules;          /* security.lua.allow-rules: no → lua rules are refused */
    uint64_t max_bytes;        /* security.lua.max-bytes: a state's memory (0: no limit) */
    uint64_t max_instructions; /* security.lua.max-instructions: per call (0: no limit) */
};
#define RLUA_DEFAULT_MAX_BYTES 500000u
#define RLUA_DEFAULT_MAX_INSTRUCTIONS 500000u

/* What a script's init() asked for (Suricata's `needs` table). */
enum rlua_need {
    RLUA_NEED_PACKET = 1u << 0,  /* args.packet: the whole packet */
    RLUA_NEED_PAYLOAD = 1u << 1, /* args.payload: the packet's payload */
    RLUA_NEED_BUFFER = 1u << 2,  /* args.buffer: the sticky buffer */
    RLUA_NEED_STREAM = 1u << 3,  /* args.stream: the stream window */
};

#define RLUA_MAX_VARS 16
/* A loaded script: its text (run again in each worker's state), what init() declared. */
struct rlua_script {
    char *path;
    char *chunk;                 /* "@NAME": Lua's messages say "NAME:LINE: …" */
    char *src;
    size_t srclen;
    bool xform;                  /* a luaxform script (transform(), no init/match) */
    unsigned needs;              /* enum rlua_need */
    char *app_buffer;            /* a named buffer init() asked for ("http.request_line" …),
                                    NULL: none; the first one only */
    uint32_t nflowvars, nflowints;
    char *flowvars[RLUA_MAX_VARS]; /* flowvar.register / flowint.register in init() */
    char *flowints[RLUA_MAX_VARS];
    struct rlua_limits lim;
    char *log_dir;               /* default-log-dir, for suricata.config.log_path (NULL: .) */
};

/* Read the script at path and run its init() (a luaxform script: check it defines
 * transform()) in a sandbox of these limits. NULL with why filled (a file, syntax, init
 * error or a limit); out of memory reads "out of memory". */
struct rlua_script *rlua_script_load(const char *path, const struct rlua_limits *lim, bool xform,
                                     char *why, size_t whylen);
void rlua_script_free(struct rlua_script *s);

/* A worker's counters: struct osprey_detect_lua (osprey_detect.h, stats.detect.lua.*). */

/* Flow variables, as the compiler keeps them (rules/compile/unit_lua.c): the libraries
 * suricata.flowvar and suricata.flowint read and write the same variables as the flowint
 * keyword and pcre captures. */
struct rlua_host {
    const uint8_t *(*flowvar_get)(void *arg, const char *name, uint32_t *len);
    bool (*flowvar_set)(void *arg, const char *name, const uint8_t *val, uint32_t len);
    bool (*flowint_get)(void *arg, const char *name, int64_t *out);
    bool (*flowint_set)(void *arg, const char *name, int64_t v);
};

/* What one run inspects (valid during the call only). */
struct rlua_input {
    struct mon_ctx *ctx;
    struct mon_flow *f;             /* NULL: no flow */
    const struct mon_packet *p;     /* NULL: none */
    const uint8_t *buf;             /* the sticky buffer, else the payload/stream */
    uint32_t len;
    bool to_server;
    const struct osprey_rule *rule;
    const struct rlua_host *host;
    void *host_arg;
    struct osprey_scratch *scratch; /* derived parser buffers are built here */
};

/* One worker's state of one script: made on its first run. */
struct rlua_state;
struct rlua_state *rlua_state_new(const struct rlua_script *s);
void rlua_state_free(struct rlua_state *st);
/* match(args): 1 it matched, 0 not, -1 the run failed (a limit, a blocked function, an
 * error: counted in *stats, logged on stderr for the first few of each state). */
int rlua_match(struct rlua_state *st, const struct rlua_input *in, struct osprey_detect_lua *stats);
/* transform(input, args): the result into out (at most cap bytes; longer is cut), *outlen;
 * 0, or -1 when the run failed (counted; the buffer is then missing). */
int rlua_transform(struct rlua_state *st, const uint8_t *b, uint32_t n, const char *const *args,
                   uint32_t nargs, uint8_t *out, uint32_t cap, uint32_t *outlen,
                   struct osprey_detect_lua *stats);

#endif
