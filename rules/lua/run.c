/* run.c — a worker's state of one script: the script's text run once in a fresh sandbox,
 * then match(args) or transform(input, args) per call. A failed call (a limit, a blocked
 * function, any Lua error) never stops the engine: it is counted in the worker's stats and
 * logged on stderr, the first few times per state. */
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon_packet.h"
#include "osprey_parsers.h"
#include "osprey_rules.h"
#include "sandbox.h"

#define LOG_FIRST 5 /* failures logged per state; the others are only counted */

struct rlua_state {
    struct sb sb;
    lua_State *L;
    const struct rlua_script *s;
    bool broken;      /* the script's text failed to run in this state */
    uint32_t logged;
};

/* The script's text, then its thread_init() (Suricata 8's per-thread setup: flowvar.get
 * handles kept as globals), inside lua_pcall (see do_match). */
static int do_setup(lua_State *L)
{
    const struct rlua_script *s = lua_touserdata(L, 1);
    lua_settop(L, 0);
    if (luaL_loadbufferx(L, s->src, s->srclen, s->chunk, "t") != LUA_OK)
        return lua_error(L);
    lua_call(L, 0, 0);
    if (lua_getglobal(L, "thread_init") == LUA_TFUNCTION)
        lua_call(L, 0, 0);
    return 0;
}

struct rlua_state *rlua_state_new(const struct rlua_script *s)
{
    struct rlua_state *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->s = s;
    if (!(st->L = sb_new(&st->sb, &s->lim))) {
        free(st);
        return NULL;
    }
    st->sb.script = s;
    sb_arm(st->L);
    lua_pushcfunction(st->L, do_setup);
    lua_pushlightuserdata(st->L, (void *)s);
    int rc = lua_pcall(st->L, 1, 0, 0);
    if (rc != LUA_OK) {
        st->broken = true;
        fprintf(stderr, "osprey: lua: %s: %s\n", s->path,
                sb_message(st->L, sb_result(st->L, rc)));
        lua_settop(st->L, 0);
    }
    return st;
}

void rlua_state_free(struct rlua_state *st)
{
    if (!st)
        return;
    lua_close(st->L);
    free(st);
}

static void count(struct rlua_state *st, enum sb_fail why, struct osprey_detect_lua *stats,
                  const struct osprey_rule *r)
{
    stats->errors++;
    if (why == SB_MEMORY)
        stats->memory_limit_errors++;
    else if (why == SB_INSTRUCTIONS)
        stats->instruction_limit_errors++;
    else if (why == SB_BLOCKED)
        stats->blocked_function_errors++;
    if (st->logged < LOG_FIRST) {
        st->logged++;
        char who[32] = "";
        if (r)
            snprintf(who, sizeof who, "sid %u: ", r->sid);
        fprintf(stderr, "osprey: lua: %s%s: Lua script failed to run successfully: %s\n", who,
                st->s->path, sb_message(st->L, why));
    }
}

static void put_bytes(lua_State *L, const char *key, const uint8_t *b, uint32_t n)
{
    if (!b)
        return;
    lua_pushlstring(L, (const char *)b, n);
    lua_setfield(L, -2, key);
}

/* Suricata's older names of the HTTP buffers in a needs table → the parsers' names. */
static int find_buffer(const char *name, bool to_server)
{
    static const struct { const char *old, *now; int dir; } ALIAS[] = {
        {"http.request_headers", "http.header", 0}, {"http.request_headers.raw", "http.header.raw", 0},
        {"http.response_headers", "http.header", 1}, {"http.response_headers.raw", "http.header.raw", 1},
        {"http.request_cookie", "http.cookie", 0},   {"http.response_cookie", "http.cookie", 1},
        {"http.request_user_agent", "http.user_agent", 0}, {"dns.rrname", "dns.query", 0},
        {"dns.request", "dns.query", 0}};
    for (size_t i = 0; i < sizeof ALIAS / sizeof ALIAS[0]; i++)
        if (!strcmp(name, ALIAS[i].old))
            return osprey_buffer_find(ALIAS[i].now, ALIAS[i].dir);
    return osprey_buffer_find(name, to_server ? 0 : 1);
}

/* Everything a run does with the state happens inside lua_pcall: outside it an allocation
 * over the limit (the args table, a string) would be an unprotected error, a panic. The C
 * function gets its call's data as a light userdata (no allocation). */
struct match_call {
    const struct rlua_script *s;
    const struct rlua_input *in;
};

static int do_match(lua_State *L)
{
    const struct match_call *mc = lua_touserdata(L, 1);
    const struct rlua_script *s = mc->s;
    const struct rlua_input *in = mc->in;
    lua_settop(L, 0);
    if (lua_getglobal(L, "match") != LUA_TFUNCTION)
        return luaL_error(L, "the script has no match function");
    /* the args table: its bytes count against the limit like the script's own */
    lua_createtable(L, 0, 4);
    const struct mon_packet *p = in->p;
    if ((s->needs & RLUA_NEED_PACKET) && p)
        put_bytes(L, "packet", p->frame, p->caplen);
    if ((s->needs & RLUA_NEED_PAYLOAD) && p)
        put_bytes(L, "payload", p->payload ? p->payload : (const uint8_t *)"", p->payload_len);
    if (s->needs & (RLUA_NEED_BUFFER | RLUA_NEED_STREAM))
        put_bytes(L, s->needs & RLUA_NEED_BUFFER ? "buffer" : "stream",
                  in->buf ? in->buf : (const uint8_t *)"", in->len);
    if (s->needs & RLUA_NEED_BUFFER) {
        lua_pushinteger(L, 0);
        lua_setfield(L, -2, "offset");
    }
    if (s->app_buffer && in->f) {
        int b = find_buffer(s->app_buffer, in->to_server);
        uint32_t n = 0;
        const uint8_t *v = b >= 0 ? osprey_parsers_buffer_at(in->ctx, in->f, (uint16_t)b, 0,
                                                             in->scratch, &n)
                                  : NULL;
        put_bytes(L, s->app_buffer, v, n);
    }
    lua_call(L, 1, 1);
    return 1;
}

int rlua_match(struct rlua_state *st, const struct rlua_input *in, struct osprey_detect_lua *stats)
{
    if (st->broken) {
        stats->errors++;
        return -1;
    }
    lua_State *L = st->L;
    lua_settop(L, 0);
    struct match_call mc = {st->s, in};
    st->sb.in = in;
    sb_arm(L);
    lua_pushcfunction(L, do_match);
    lua_pushlightuserdata(L, &mc);
    int rc = lua_pcall(L, 1, 1, 0);
    st->sb.in = NULL;
    enum sb_fail why = sb_result(L, rc);
    if (why != SB_OK) {
        count(st, why, stats, in->rule);
        lua_settop(L, 0);
        return -1;
    }
    int m = lua_isboolean(L, -1) ? lua_toboolean(L, -1)
          : lua_isinteger(L, -1) ? lua_tointeger(L, -1) == 1
          : lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) == 1.0
                                           : 0;
    lua_settop(L, 0);
    return m;
}

struct xform_call {
    const uint8_t *b;
    uint32_t n;
    const char *const *args;
    uint32_t nargs;
};

static int do_transform(lua_State *L)
{
    const struct xform_call *xc = lua_touserdata(L, 1);
    lua_settop(L, 0);
    if (lua_getglobal(L, "transform") != LUA_TFUNCTION)
        return luaL_error(L, "the script has no transform function");
    lua_pushlstring(L, (const char *)xc->b, xc->n);
    lua_createtable(L, (int)xc->nargs, 0);
    for (uint32_t i = 0; i < xc->nargs; i++) {
        lua_pushstring(L, xc->args[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_call(L, 2, 2);
    /* Suricata 8: transform returns the buffer and its length, both */
    if (lua_type(L, -2) != LUA_TSTRING || !lua_isinteger(L, -1))
        return luaL_error(L, "transform must return the buffer and its byte count");
    return 2;
}

int rlua_transform(struct rlua_state *st, const uint8_t *b, uint32_t n, const char *const *args,
                   uint32_t nargs, uint8_t *out, uint32_t cap, uint32_t *outlen,
                   struct osprey_detect_lua *stats)
{
    *outlen = 0;
    if (st->broken) {
        stats->errors++;
        return -1;
    }
    lua_State *L = st->L;
    lua_settop(L, 0);
    struct xform_call xc = {b, n, args, nargs};
    sb_arm(L);
    lua_pushcfunction(L, do_transform);
    lua_pushlightuserdata(L, &xc);
    int rc = lua_pcall(L, 1, 2, 0);
    enum sb_fail why = sb_result(L, rc);
    if (why != SB_OK) {
        count(st, why, stats, NULL);
        lua_settop(L, 0);
        return -1;
    }
    size_t len;
    const char *r = lua_tolstring(L, -2, &len);
    lua_Integer want = lua_tointeger(L, -1);
    if (want >= 0 && (size_t)want < len)
        len = (size_t)want;
    if (len > cap)
        len = cap;
    memcpy(out, r, len);
    *outlen = (uint32_t)len;
    lua_settop(L, 0);
    return 0;
}
