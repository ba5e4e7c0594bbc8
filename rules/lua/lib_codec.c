/* lib_codec.c — suricata.hashlib (MD5, SHA-1, SHA-256 through libcrypto: one-shot
 * *_digest / *_hexdigest, and an object with update() / finalize() / finalize_to_hex())
 * and suricata.base64 (encode, encode_nopad, decode, decode_padopt: RFC 4648 alphabet). */
#include <openssl/evp.h>
#include <string.h>

#include "lib.h"

static const EVP_MD *md_of(lua_State *L)
{
    const char *n = lua_tostring(L, lua_upvalueindex(1));
    return !strcmp(n, "md5") ? EVP_md5() : !strcmp(n, "sha1") ? EVP_sha1() : EVP_sha256();
}

static void push_digest(lua_State *L, const unsigned char *d, unsigned n, bool hex)
{
    if (!hex) {
        lua_pushlstring(L, (const char *)d, n);
        return;
    }
    char h[2 * EVP_MAX_MD_SIZE + 1];
    for (unsigned i = 0; i < n; i++) {
        h[2 * i] = "0123456789abcdef"[d[i] >> 4];
        h[2 * i + 1] = "0123456789abcdef"[d[i] & 15];
    }
    lua_pushlstring(L, h, 2 * (size_t)n);
}

static int one_shot(lua_State *L, bool hex)
{
    size_t n;
    const char *s = luaL_checklstring(L, 1, &n);
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned dl = 0;
    if (!EVP_Digest(s, n, d, &dl, md_of(L), NULL))
        return luaL_error(L, "digest failed");
    push_digest(L, d, dl, hex);
    return 1;
}
static int h_digest(lua_State *L)
{
    return one_shot(L, false);
}
static int h_hexdigest(lua_State *L)
{
    return one_shot(L, true);
}

/* the incremental object keeps the bytes given so far in a Lua string field "data": the
 * digest is taken at finalize (no C state to free when the script drops the object) */
static int o_update(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkstring(L, 2);
    lua_getfield(L, 1, "data");
    lua_pushvalue(L, 2);
    lua_concat(L, 2);
    lua_setfield(L, 1, "data");
    return 0;
}
static int o_final(lua_State *L, bool hex)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_getfield(L, 1, "data");
    size_t n;
    const char *s = lua_tolstring(L, -1, &n);
    lua_getfield(L, 1, "algo");
    const char *a = lua_tostring(L, -1);
    const EVP_MD *md = !strcmp(a, "md5") ? EVP_md5() : !strcmp(a, "sha1") ? EVP_sha1()
                                                                         : EVP_sha256();
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned dl = 0;
    if (!EVP_Digest(s, n, d, &dl, md, NULL))
        return luaL_error(L, "digest failed");
    push_digest(L, d, dl, hex);
    return 1;
}
static int o_finalize(lua_State *L)
{
    return o_final(L, false);
}
static int o_finalize_hex(lua_State *L)
{
    return o_final(L, true);
}
static int h_new(lua_State *L)
{
    static const luaL_Reg M[] = {{"update", o_update}, {"finalize", o_finalize},
                                 {"finalize_to_hex", o_finalize_hex}, {NULL, NULL}};
    sb_newobject(L, M);
    lua_pushliteral(L, "");
    lua_setfield(L, -2, "data");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_setfield(L, -2, "algo");
    return 1;
}

int lib_open_hashlib(lua_State *L)
{
    lua_newtable(L);
    static const char *const ALGOS[] = {"md5", "sha1", "sha256"};
    for (int i = 0; i < 3; i++) {
        static const struct { const char *sfx; lua_CFunction fn; } F[] = {
            {"", h_new}, {"_digest", h_digest}, {"_hexdigest", h_hexdigest}};
        for (int k = 0; k < 3; k++) {
            lua_pushstring(L, ALGOS[i]);
            lua_pushcclosure(L, F[k].fn, 1);
            lua_pushfstring(L, "%s%s", ALGOS[i], F[k].sfx);
            lua_insert(L, -2);
            lua_settable(L, -3);
        }
    }
    return 1;
}

/* ---- base64 ---- */
static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int encode(lua_State *L, bool pad)
{
    size_t n;
    const unsigned char *s = (const unsigned char *)luaL_checklstring(L, 1, &n);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16 | (i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0) |
                     (i + 2 < n ? s[i + 2] : 0);
        size_t k = n - i >= 3 ? 4 : n - i + 1;
        for (size_t j = 0; j < 4; j++)
            if (j < k)
                luaL_addchar(&b, B64[(v >> (18 - 6 * j)) & 63]);
            else if (pad)
                luaL_addchar(&b, '=');
    }
    luaL_pushresult(&b);
    return 1;
}
static int b_encode(lua_State *L)
{
    return encode(L, true);
}
static int b_encode_nopad(lua_State *L)
{
    return encode(L, false);
}

/* strict: padding required (decode), else optional (decode_padopt); nil on a bad input */
static int decode(lua_State *L, bool strict)
{
    size_t n;
    const char *s = luaL_checklstring(L, 1, &n);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    uint32_t v = 0;
    int bits = 0;
    size_t i = 0, pads = 0;
    for (; i < n && s[i] != '='; i++) {
        const char *p = memchr(B64, s[i], 64);
        if (!p || !s[i]) {
            lua_pushnil(L);
            return 1;
        }
        v = v << 6 | (uint32_t)(p - B64);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            luaL_addchar(&b, (char)((v >> bits) & 0xff));
        }
    }
    for (; i < n && s[i] == '='; i++)
        pads++;
    if (i != n || (strict && (n % 4 || pads > 2))) {
        lua_pushnil(L);
        return 1;
    }
    luaL_pushresult(&b);
    return 1;
}
static int b_decode(lua_State *L)
{
    return decode(L, true);
}
static int b_decode_padopt(lua_State *L)
{
    return decode(L, false);
}

int lib_open_base64(lua_State *L)
{
    static const luaL_Reg F[] = {{"encode", b_encode}, {"encode_nopad", b_encode_nopad},
                                 {"decode", b_decode}, {"decode_padopt", b_decode_padopt},
                                 {"decode_rfc4648", b_decode}, {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}
