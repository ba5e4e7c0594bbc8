/* sandbox.c — see sandbox.h. Facts from Suricata 8's documentation and its verify tests
 * (lua-blocked-function-1, lua-memory-limit, lua-sandbox-alloclimit-bypass): io, os, debug
 * and package are not there (calling io.open is "attempt to index a nil value (global
 * 'io')"), blocked base functions fail with "Blocked Lua function called: NAME", a run over
 * max-bytes fails with "memory limit exceeded" — a new allocation (ptr NULL, where Lua's
 * osize is a type tag, not a size) counts as much as a growing one. */
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox.h"

static void *sb_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct sb *sb = ud;
    size_t old = ptr ? osize : 0; /* ptr NULL: osize is the kind of object, nothing held */
    if (nsize == 0) {
        free(ptr);
        sb->used -= old;
        return NULL;
    }
    if (sb->armed && sb->limit && nsize > old && sb->used + (nsize - old) > sb->limit) {
        sb->mem_hit = true;
        return NULL; /* Lua raises a memory error: the run stops */
    }
    void *p = realloc(ptr, nsize);
    if (p)
        sb->used = sb->used - old + nsize;
    return p;
}

static void sb_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    sb_of(L)->instr_hit = true;
    luaL_error(L, "instruction limit exceeded");
}

static int sb_blocked(lua_State *L)
{
    sb_of(L)->blocked_hit = true;
    return luaL_error(L, "Blocked Lua function called: %s",
                      lua_tostring(L, lua_upvalueindex(1)));
}

/* require(name): one of the suricata.* modules, opened once per state. */
static int sb_require(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (lua_getfield(L, -1, name) != LUA_TNIL)
        return 1;
    lua_pop(L, 1);
    for (const struct sb_module *m = sb_modules; m->name; m++)
        if (!strcmp(m->name, name)) {
            luaL_requiref(L, name, m->open, 0);
            return 1;
        }
    return luaL_error(L, "module '%s' not found (only the suricata.* modules)", name);
}

/* Base-library functions that are no part of the sandbox: they fail the run when called
 * (pcall and xpcall would let a script swallow a limit error). */
static const char *const BLOCKED[] = {"collectgarbage", "dofile", "getmetatable", "loadfile",
                                      "load", "pcall", "setmetatable", "xpcall", NULL};

lua_State *sb_new(struct sb *sb, const struct rlua_limits *lim)
{
    memset(sb, 0, sizeof *sb);
    sb->limit = (size_t)lim->max_bytes;
    sb->instr_limit = lim->max_instructions;
    lua_State *L = lua_newstate(sb_alloc, sb);
    if (!L)
        return NULL;
    *(struct sb **)lua_getextraspace(L) = sb;
    static const luaL_Reg LIBS[] = {{LUA_GNAME, luaopen_base},    {LUA_TABLIBNAME, luaopen_table},
                                    {LUA_STRLIBNAME, luaopen_string}, {LUA_MATHLIBNAME, luaopen_math},
                                    {LUA_UTF8LIBNAME, luaopen_utf8}, {NULL, NULL}};
    for (const luaL_Reg *l = LIBS; l->name; l++) {
        luaL_requiref(L, l->name, l->func, 1);
        lua_pop(L, 1);
    }
    for (int i = 0; BLOCKED[i]; i++) {
        lua_pushstring(L, BLOCKED[i]);
        lua_pushcclosure(L, sb_blocked, 1);
        lua_setglobal(L, BLOCKED[i]);
    }
    lua_getglobal(L, LUA_STRLIBNAME); /* string.dump: bytecode out of the sandbox */
    lua_pushstring(L, "string.dump");
    lua_pushcclosure(L, sb_blocked, 1);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
    lua_pushcfunction(L, sb_require);
    lua_setglobal(L, "require");
    sb->armed = true; /* the script and its runs count from here */
    return L;
}

void sb_arm(lua_State *L)
{
    struct sb *sb = sb_of(L);
    sb->mem_hit = sb->instr_hit = sb->blocked_hit = false;
    /* (setting the hook again restarts its count: the limit is per call) */
    if (sb->instr_limit)
        lua_sethook(L, sb_hook, LUA_MASKCOUNT,
                    sb->instr_limit > INT32_MAX ? INT32_MAX : (int)sb->instr_limit);
}

enum sb_fail sb_result(lua_State *L, int status)
{
    struct sb *sb = sb_of(L);
    if (status == LUA_OK)
        return SB_OK;
    /* (mem_hit alone is not enough: Lua retries a refused allocation after a full
     * collection, and the run may go on to fail for another reason) */
    if (status == LUA_ERRMEM)
        return SB_MEMORY;
    if (sb->instr_hit)
        return SB_INSTRUCTIONS;
    if (sb->blocked_hit)
        return SB_BLOCKED;
    if (sb->mem_hit && lua_type(L, -1) == LUA_TSTRING &&
        strstr(lua_tostring(L, -1), "not enough memory"))
        return SB_MEMORY; /* a memory error re-raised as a message (a failed load) */
    return SB_ERROR;
}

const char *sb_message(lua_State *L, enum sb_fail why)
{
    if (why == SB_MEMORY)
        return "memory limit exceeded";
    if (why == SB_INSTRUCTIONS)
        return "instruction limit exceeded";
    /* a string only: lua_tostring would convert a number in place, an allocation */
    const char *m = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    return m ? m : "error";
}
