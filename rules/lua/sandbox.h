/* sandbox.h — Suricata 8's Lua sandbox on one lua_State: a memory limit (the state's
 * allocator), an instruction limit (a count hook), only the safe standard libraries, blocked
 * functions that fail the run, and a `require` that knows the suricata.* modules only.
 * Private to rules/lua/. */
#ifndef RULES_LUA_SANDBOX_H
#define RULES_LUA_SANDBOX_H

#include <lua.h>

#include "rlua.h"

/* Why a run failed. */
enum sb_fail { SB_OK, SB_ERROR, SB_MEMORY, SB_INSTRUCTIONS, SB_BLOCKED };

/* A state's sandbox, kept in the state's extra space (sb_of). */
struct sb {
    size_t used;                 /* bytes the state holds */
    size_t limit;                /* max-bytes (0: none) */
    bool armed;                  /* the limit holds (from after the libraries are open) */
    bool mem_hit, instr_hit, blocked_hit;
    uint64_t instr_limit;        /* max-instructions (0: none) */
    const struct rlua_input *in; /* the run's input (NULL in init and transforms) */
    const struct rlua_script *script;
    bool in_init;                /* flowvar.register … are allowed */
    struct rlua_script *declare; /* init(): where registrations go */
};

/* A new sandboxed state (the sb must outlive it), NULL when out of memory. */
lua_State *sb_new(struct sb *sb, const struct rlua_limits *lim);
static inline struct sb *sb_of(lua_State *L)
{
    return *(struct sb **)lua_getextraspace(L);
}
/* Before a call: clear the flags, restart the instruction count. */
void sb_arm(lua_State *L);
/* After a call that returned status: why it failed. */
enum sb_fail sb_result(lua_State *L, int status);
/* The failure as Suricata logs it ("memory limit exceeded", the Lua error message). */
const char *sb_message(lua_State *L, enum sb_fail why);

/* The suricata.* modules (lib_*.c): require(name) opens one, NULL-terminated table. */
struct sb_module {
    const char *name;
    lua_CFunction open;
};
extern const struct sb_module sb_modules[];

/* flowvar.register / flowint.register in init(): the name into s (script.c); false when
 * there are too many. */
bool rlua_register_name(struct rlua_script *s, bool is_int, const char *name);
/* A module table of functions (the module's open function returns it). */
void sb_newlib(lua_State *L, const struct luaL_Reg *fns);
/* An object of a module: a userdata-free table with the methods of fns (their upvalue 1
 * is nothing; methods read the run's input through sb_of(L)->in). */
void sb_newobject(lua_State *L, const struct luaL_Reg *methods);
/* The run's input, or a Lua error when there is none (init, a transform). */
const struct rlua_input *sb_input(lua_State *L);

#endif
