/* lib_common.c — what the suricata.* modules share: module tables, objects whose methods
 * read the run's input, the table of modules `require` knows, and a parser buffer as a Lua
 * string (the modules read flow and parser data through the parsers' public accessors,
 * parsers/include/osprey_parsers.h, never the compiler's state). */
#include <lauxlib.h>
#include <string.h>

#include "lib.h"

void sb_newlib(lua_State *L, const luaL_Reg *fns)
{
    lua_newtable(L);
    luaL_setfuncs(L, fns, 0);
}

void sb_newobject(lua_State *L, const luaL_Reg *methods)
{
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
}

const struct rlua_input *sb_input(lua_State *L)
{
    const struct rlua_input *in = sb_of(L)->in;
    if (!in)
        luaL_error(L, "no packet or flow here (only in match)");
    return in;
}

/* The row of buffer name the flow's protocol reads (a name several protocols register:
 * ja3.hash is TLS's and QUIC's), else the first registered. */
static int buffer_of_flow(const struct rlua_input *in, const char *name, int dir)
{
    int b = in->f ? osprey_buffer_find_in(name, dir, osprey_parsers_app_proto(in->ctx, in->f))
                  : -1;
    return b >= 0 ? b : osprey_buffer_find(name, dir);
}

bool lib_push_buffer(lua_State *L, const char *name, int dir)
{
    const struct rlua_input *in = sb_input(L);
    if (dir < 0)
        dir = in->to_server ? 0 : 1;
    int b = buffer_of_flow(in, name, dir);
    uint32_t n = 0;
    const uint8_t *v = b >= 0 && in->f ? osprey_parsers_buffer_at(in->ctx, in->f, (uint16_t)b,
                                                                  0, in->scratch, &n)
                                       : NULL;
    if (!v) {
        lua_pushnil(L);
        return false;
    }
    lua_pushlstring(L, (const char *)v, n);
    return true;
}

void lib_push_buffer_list(lua_State *L, const char *name, int dir)
{
    const struct rlua_input *in = sb_input(L);
    if (dir < 0)
        dir = in->to_server ? 0 : 1;
    int b = buffer_of_flow(in, name, dir);
    lua_newtable(L);
    if (b < 0 || !in->f)
        return;
    for (uint32_t i = 0;; i++) {
        uint32_t n = 0;
        const uint8_t *v = osprey_parsers_buffer_at(in->ctx, in->f, (uint16_t)b, i, in->scratch,
                                                    &n);
        if (!v)
            break;
        lua_pushlstring(L, (const char *)v, n);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
        if (!osprey_buffer_is_multi((uint16_t)b))
            break;
    }
}

bool lib_field(lua_State *L, const char *name, int64_t *out)
{
    const struct rlua_input *in = sb_input(L);
    int fld = osprey_field_find(name);
    return fld >= 0 && in->f && osprey_parsers_field_at(in->ctx, in->f, (uint16_t)fld, 0, out);
}

const struct sb_module sb_modules[] = {
    {"suricata.packet", lib_open_packet},   {"suricata.flow", lib_open_flow},
    {"suricata.http", lib_open_http},       {"suricata.dns", lib_open_dns},
    {"suricata.tls", lib_open_tls},         {"suricata.ssh", lib_open_ssh},
    {"suricata.smtp", lib_open_smtp},       {"suricata.file", lib_open_file},
    {"suricata.flowvar", lib_open_flowvar}, {"suricata.flowint", lib_open_flowint},
    {"suricata.hashlib", lib_open_hashlib}, {"suricata.base64", lib_open_base64},
    {"suricata.util", lib_open_util},       {"suricata.log", lib_open_log},
    {"suricata.rule", lib_open_rule},       {"suricata.config", lib_open_config},
    {"suricata.ja3", lib_open_ja3},         {NULL, NULL}};
