/* lib_util.c — suricata.util (thread_info), suricata.log (messages on stderr, as the
 * engine's other diagnostics), suricata.rule (the running rule's action, ids, message,
 * class and priority) and suricata.config (log_path). */
#include <pthread.h>
#include <stdio.h>

#include "lib.h"
#include "header.h"
#include "osprey_rules.h"

static int u_thread_info(lua_State *L)
{
    lua_newtable(L);
    lua_pushinteger(L, (lua_Integer)(uintptr_t)pthread_self());
    lua_setfield(L, -2, "thread_id");
    lua_pushliteral(L, "W#01");
    lua_setfield(L, -2, "name");
    lua_pushliteral(L, "worker");
    lua_setfield(L, -2, "group_name");
    return 1;
}
int lib_open_util(lua_State *L)
{
    static const luaL_Reg F[] = {{"thread_info", u_thread_info}, {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}

static int l_log(lua_State *L)
{
    const struct rlua_script *s = sb_of(L)->script;
    fprintf(stderr, "osprey: lua: %s: %s: %s\n", lua_tostring(L, lua_upvalueindex(1)),
            s ? s->path : "?", luaL_checkstring(L, 1));
    return 0;
}
int lib_open_log(lua_State *L)
{
    static const char *const LEVELS[] = {"info", "notice", "warning", "error", "debug",
                                         "config", "perf", NULL};
    lua_newtable(L);
    for (int i = 0; LEVELS[i]; i++) {
        lua_pushstring(L, LEVELS[i]);
        lua_pushcclosure(L, l_log, 1);
        lua_setfield(L, -2, LEVELS[i]);
    }
    return 1;
}

static const struct osprey_rule *rule_of(lua_State *L)
{
    const struct osprey_rule *r = sb_input(L)->rule;
    if (!r)
        luaL_error(L, "no rule");
    return r;
}
static int r_action(lua_State *L)
{
    lua_pushstring(L, header_action_name(rule_of(L)->action));
    return 1;
}
static int r_gid(lua_State *L)
{
    lua_pushinteger(L, rule_of(L)->gid);
    return 1;
}
static int r_sid(lua_State *L)
{
    lua_pushinteger(L, rule_of(L)->sid);
    return 1;
}
static int r_rev(lua_State *L)
{
    lua_pushinteger(L, rule_of(L)->rev);
    return 1;
}
static int r_msg(lua_State *L)
{
    const struct osprey_rule *r = rule_of(L);
    if (r->msg)
        lua_pushstring(L, r->msg);
    else
        lua_pushnil(L);
    return 1;
}
static int r_class(lua_State *L)
{
    const struct osprey_rule *r = rule_of(L);
    if (r->classtype)
        lua_pushstring(L, r->classtype);
    else
        lua_pushnil(L);
    return 1;
}
static int r_priority(lua_State *L)
{
    lua_pushinteger(L, rule_of(L)->priority);
    return 1;
}
static int rule_get(lua_State *L)
{
    rule_of(L);
    static const luaL_Reg M[] = {{"action", r_action}, {"gid", r_gid}, {"sid", r_sid},
                                 {"rev", r_rev}, {"msg", r_msg}, {"class_description", r_class},
                                 {"priority", r_priority}, {NULL, NULL}};
    sb_newobject(L, M);
    return 1;
}
int lib_open_rule(lua_State *L)
{
    static const luaL_Reg F[] = {{"get_rule", rule_get}, {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}

static int c_log_path(lua_State *L)
{
    const struct rlua_script *s = sb_of(L)->script;
    lua_pushstring(L, s && s->log_dir ? s->log_dir : ".");
    return 1;
}
int lib_open_config(lua_State *L)
{
    static const luaL_Reg F[] = {{"log_path", c_log_path}, {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}
