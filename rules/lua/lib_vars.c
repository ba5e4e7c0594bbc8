/* lib_vars.c — suricata.flowvar and suricata.flowint (Suricata 8's API): register(name) in
 * init(), get(name) an object with value() / set() (flowint: incr() / decr() too). The
 * values live in the flow, where the compiler keeps pcre captures and flowint keywords
 * (struct rlua_host): a script and a rule see each other's variables. */
#include <string.h>

#include "lib.h"

static int do_register(lua_State *L, bool is_int)
{
    const char *name = luaL_checkstring(L, 1);
    struct sb *sb = sb_of(L);
    if (sb->in_init && sb->declare && !rlua_register_name(sb->declare, is_int, name))
        return luaL_error(L, "too many flow variables");
    return 0;
}
static int fv_register(lua_State *L)
{
    return do_register(L, false);
}
static int fi_register(lua_State *L)
{
    return do_register(L, true);
}

static const struct rlua_input *host_in(lua_State *L)
{
    const struct rlua_input *in = sb_input(L);
    if (!in->host || !in->f)
        luaL_error(L, "no flow for flow variables");
    return in;
}
#define VNAME(L) lua_tostring(L, lua_upvalueindex(1))

static int fv_value(lua_State *L)
{
    const struct rlua_input *in = host_in(L);
    uint32_t n = 0;
    const uint8_t *v = in->host->flowvar_get(in->host_arg, VNAME(L), &n);
    if (v)
        lua_pushlstring(L, (const char *)v, n);
    else
        lua_pushnil(L);
    return 1;
}
static int fv_set(lua_State *L)
{
    const struct rlua_input *in = host_in(L);
    size_t n;
    const char *v = luaL_checklstring(L, 2, &n);
    if (lua_isinteger(L, 3) && lua_tointeger(L, 3) >= 0 && (size_t)lua_tointeger(L, 3) < n)
        n = (size_t)lua_tointeger(L, 3);
    in->host->flowvar_set(in->host_arg, VNAME(L), (const uint8_t *)v, (uint32_t)n);
    return 0;
}

static int fi_value(lua_State *L)
{
    const struct rlua_input *in = host_in(L);
    int64_t v;
    if (in->host->flowint_get(in->host_arg, VNAME(L), &v))
        lua_pushinteger(L, (lua_Integer)v);
    else
        lua_pushnil(L);
    return 1;
}
static int fi_set(lua_State *L)
{
    const struct rlua_input *in = host_in(L);
    in->host->flowint_set(in->host_arg, VNAME(L), (int64_t)luaL_checkinteger(L, 2));
    return 0;
}
static int fi_add(lua_State *L, int64_t d)
{
    const struct rlua_input *in = host_in(L);
    int64_t v = 0;
    in->host->flowint_get(in->host_arg, VNAME(L), &v); /* unset counts from 0 */
    if (d < 0 && v <= 0)
        d = 0; /* Suricata: decr() leaves 0 at 0 */
    in->host->flowint_set(in->host_arg, VNAME(L), v + d);
    lua_pushinteger(L, (lua_Integer)(v + d));
    return 1;
}
static int fi_incr(lua_State *L)
{
    return fi_add(L, 1);
}
static int fi_decr(lua_State *L)
{
    return fi_add(L, -1);
}

/* get(name): the variable's object (its methods hold the name). Registering in init is
 * optional (Suricata 8: the variable may come from elsewhere, a pcre capture): a flowint
 * no rule or script registered stays unset and ignores set(). */
static int get_var(lua_State *L, bool is_int)
{
    const char *name = luaL_checkstring(L, 1);
    static const luaL_Reg FV[] = {{"value", fv_value}, {"set", fv_set}, {NULL, NULL}};
    static const luaL_Reg FI[] = {{"value", fi_value}, {"set", fi_set}, {"incr", fi_incr},
                                  {"decr", fi_decr}, {NULL, NULL}};
    lua_newtable(L);
    for (const luaL_Reg *m = is_int ? FI : FV; m->name; m++) {
        lua_pushstring(L, name);
        lua_pushcclosure(L, m->func, 1);
        lua_setfield(L, -2, m->name);
    }
    return 1;
}
static int fv_get(lua_State *L)
{
    return get_var(L, false);
}
static int fi_get(lua_State *L)
{
    return get_var(L, true);
}

int lib_open_flowvar(lua_State *L)
{
    static const luaL_Reg F[] = {{"register", fv_register}, {"get", fv_get}, {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}
int lib_open_flowint(lua_State *L)
{
    static const luaL_Reg F[] = {{"register", fi_register}, {"get", fi_get}, {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}
