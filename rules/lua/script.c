/* script.c — a Lua script read for its rule: the file's text, kept for the workers' states,
 * and what its init() declares (Suricata's `needs` table: packet, payload, buffer, stream, a
 * named buffer; flow variables through flowvar.register / flowint.register, or the older
 * needs["flowvar"] = {…}). init() runs once here, in a sandbox of the configured limits. */
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox.h"

void rlua_script_free(struct rlua_script *s)
{
    if (!s)
        return;
    free(s->path);
    free(s->chunk);
    free(s->src);
    free(s->app_buffer);
    free(s->log_dir);
    for (uint32_t i = 0; i < s->nflowvars; i++)
        free(s->flowvars[i]);
    for (uint32_t i = 0; i < s->nflowints; i++)
        free(s->flowints[i]);
    free(s);
}

static char *read_file(const char *path, size_t *len, char *why, size_t whylen)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(why, whylen, "cannot read '%s'", path);
        return NULL;
    }
    char *b = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 > cap) {
            char *nb = realloc(b, cap = cap ? cap * 2 : 8192);
            if (!nb) {
                free(b);
                fclose(fp);
                snprintf(why, whylen, "out of memory");
                return NULL;
            }
            b = nb;
        }
        size_t k = fread(b + n, 1, cap - n, fp);
        n += k;
        if (k == 0)
            break;
    }
    fclose(fp);
    *len = n;
    return b;
}

bool rlua_register_name(struct rlua_script *s, bool is_int, const char *name)
{
    char **v = is_int ? s->flowints : s->flowvars;
    uint32_t *n = is_int ? &s->nflowints : &s->nflowvars;
    for (uint32_t i = 0; i < *n; i++)
        if (!strcmp(v[i], name))
            return true;
    if (*n == RLUA_MAX_VARS || !(v[*n] = strdup(name)))
        return false;
    (*n)++;
    return true;
}

static bool truthy(lua_State *L, int idx)
{
    if (lua_isboolean(L, idx))
        return lua_toboolean(L, idx);
    if (lua_type(L, idx) == LUA_TSTRING)
        return !strcmp(lua_tostring(L, idx), "true");
    return lua_toboolean(L, idx);
}

/* The needs table at the top of the stack. */
static const char *read_needs(lua_State *L, struct rlua_script *s)
{
    static const struct { const char *k; unsigned bit; } NEEDS[] = {
        {"packet", RLUA_NEED_PACKET}, {"payload", RLUA_NEED_PAYLOAD},
        {"buffer", RLUA_NEED_BUFFER}, {"stream", RLUA_NEED_STREAM}};
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (lua_type(L, -2) != LUA_TSTRING) {
            lua_pop(L, 1);
            continue;
        }
        const char *k = lua_tostring(L, -2);
        bool known = false;
        for (size_t i = 0; i < sizeof NEEDS / sizeof NEEDS[0]; i++)
            if (!strcmp(k, NEEDS[i].k)) {
                known = true;
                if (truthy(L, -1))
                    s->needs |= NEEDS[i].bit;
            }
        if (!known && (!strcmp(k, "flowvar") || !strcmp(k, "flowint")) &&
            lua_istable(L, -1)) {
            for (lua_Integer i = 1; lua_geti(L, -1, i) == LUA_TSTRING; i++) {
                if (!rlua_register_name(s, k[4] == 'i', lua_tostring(L, -1)))
                    return "too many flow variables";
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
        } else if (!known && (!strcmp(k, "ja3") || !strcmp(k, "ja3s")) && truthy(L, -1) &&
                   !s->app_buffer) {
            /* suricata.ja3's needs: the script runs with the hello that carries it */
            if (!(s->app_buffer = strdup(k[3] == 's' ? "ja3s.hash" : "ja3.hash")))
                return "out of memory";
        } else if (!known && strchr(k, '.') && truthy(L, -1) && !s->app_buffer &&
                   !(s->app_buffer = strdup(k))) {
            return "out of memory";
        }
        lua_pop(L, 1);
    }
    return NULL;
}

/* Inside lua_pcall (an allocation over the limit is an error, not a panic): the script's
 * text, then init(args) and its needs; returns true, or a string saying what is wrong. */
static int do_init(lua_State *L)
{
    struct rlua_script *s = lua_touserdata(L, 1);
    lua_settop(L, 0);
    if (luaL_loadbufferx(L, s->src, s->srclen, s->chunk, "t") != LUA_OK)
        return lua_error(L); /* text only: precompiled chunks would step around the checks */
    lua_call(L, 0, 0);
    if (s->xform) {
        lua_pushboolean(L, lua_getglobal(L, "transform") == LUA_TFUNCTION);
        if (!lua_toboolean(L, -1))
            lua_pushliteral(L, "the script has no transform function");
        return 1;
    }
    if (lua_getglobal(L, "match") != LUA_TFUNCTION) {
        lua_pushliteral(L, "the script has no match function");
        return 1;
    }
    if (lua_getglobal(L, "init") != LUA_TFUNCTION) {
        lua_pushliteral(L, "the script has no init function");
        return 1;
    }
    lua_newtable(L); /* args: nothing Osprey passes yet */
    lua_call(L, 1, 1);
    if (!lua_istable(L, -1)) {
        lua_pushliteral(L, "init did not return a table");
        return 1;
    }
    const char *e = read_needs(L, s);
    if (e)
        lua_pushstring(L, e);
    else
        lua_pushboolean(L, 1);
    return 1;
}

struct rlua_script *rlua_script_load(const char *path, const struct rlua_limits *lim, bool xform,
                                     char *why, size_t whylen)
{
    struct rlua_script *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        snprintf(why, whylen, "out of memory");
        rlua_script_free(s);
        return NULL;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (!(s->chunk = malloc(strlen(base) + 2))) {
        snprintf(why, whylen, "out of memory");
        rlua_script_free(s);
        return NULL;
    }
    s->chunk[0] = '@';
    strcpy(s->chunk + 1, base);
    s->lim = *lim;
    s->xform = xform;
    if (!(s->src = read_file(path, &s->srclen, why, whylen))) {
        rlua_script_free(s);
        return NULL;
    }
    struct sb sb;
    lua_State *L = sb_new(&sb, lim);
    if (!L) {
        snprintf(why, whylen, "out of memory");
        rlua_script_free(s);
        return NULL;
    }
    sb.script = s;
    sb.in_init = true;
    sb.declare = s;
    sb_arm(L);
    lua_pushcfunction(L, do_init);
    lua_pushlightuserdata(L, s);
    int st = lua_pcall(L, 1, 1, 0);
    const char *err = NULL;
    if (st != LUA_OK)
        snprintf(why, whylen, "%s", sb_message(L, sb_result(L, st)));
    else if (lua_type(L, -1) == LUA_TSTRING) /* do_init's own complaint */
        snprintf(why, whylen, "%s", lua_tostring(L, -1));
    if (st != LUA_OK || lua_type(L, -1) == LUA_TSTRING)
        err = why;
    lua_close(L);
    if (err) {
        if (err != why)
            snprintf(why, whylen, "%s", err);
        rlua_script_free(s);
        return NULL;
    }
    return s;
}
