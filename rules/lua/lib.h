/* lib.h — the suricata.* modules of the Lua sandbox (lib_*.c) and their helpers
 * (lib_common.c). Private to rules/lua/. */
#ifndef RULES_LUA_LIB_H
#define RULES_LUA_LIB_H

#include <lauxlib.h>

#include "osprey_parsers.h"
#include "sandbox.h"

/* The current transaction's buffer `name` (the parsers' registry name) in direction dir
 * (0 to server, 1 to client, -1 the run's) as a string, else nil; true when found. */
bool lib_push_buffer(lua_State *L, const char *name, int dir);
/* Every element of a (multi-)buffer as a Lua list (empty when none). */
void lib_push_buffer_list(lua_State *L, const char *name, int dir);
/* A parser field of the current transaction (dns.rcode …); false when absent. */
bool lib_field(lua_State *L, const char *name, int64_t *out);

int lib_open_packet(lua_State *L);  /* lib_packet.c */
int lib_open_flow(lua_State *L);
int lib_open_http(lua_State *L);    /* lib_app.c */
int lib_open_dns(lua_State *L);
int lib_open_tls(lua_State *L);
int lib_open_ja3(lua_State *L);
int lib_open_ssh(lua_State *L);
int lib_open_smtp(lua_State *L);
int lib_open_file(lua_State *L);
int lib_open_flowvar(lua_State *L); /* lib_vars.c */
int lib_open_flowint(lua_State *L);
int lib_open_hashlib(lua_State *L); /* lib_codec.c */
int lib_open_base64(lua_State *L);
int lib_open_util(lua_State *L);    /* lib_util.c */
int lib_open_log(lua_State *L);
int lib_open_rule(lua_State *L);
int lib_open_config(lua_State *L);

#endif
