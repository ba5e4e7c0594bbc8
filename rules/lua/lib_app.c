/* lib_app.c — suricata.http, suricata.dns, suricata.tls, suricata.ja3, suricata.ssh,
 * suricata.smtp and suricata.file (Suricata 8's API): get_tx() / get_file() give an object whose methods read
 * the current transaction's buffers, by the parsers' registry names. A method whose buffer
 * the transaction lacks returns nil. */
#include <string.h>
#include <strings.h>

#include "lib.h"

/* a method returning one buffer: its name and direction are the closure's upvalues */
static int buf_method(lua_State *L)
{
    lib_push_buffer(L, lua_tostring(L, lua_upvalueindex(1)),
                    (int)lua_tointeger(L, lua_upvalueindex(2)));
    return 1;
}
static int list_method(lua_State *L)
{
    lib_push_buffer_list(L, lua_tostring(L, lua_upvalueindex(1)),
                         (int)lua_tointeger(L, lua_upvalueindex(2)));
    return 1;
}

struct bufm {
    const char *method, *buffer;
    int dir;   /* 0 request, 1 response, -1 the run's direction */
    bool list;
};

static void new_tx(lua_State *L, const struct bufm *m, const luaL_Reg *extra)
{
    lua_newtable(L);
    for (; m->method; m++) {
        lua_pushstring(L, m->buffer);
        lua_pushinteger(L, m->dir);
        lua_pushcclosure(L, m->list ? list_method : buf_method, 2);
        lua_setfield(L, -2, m->method);
    }
    if (extra)
        luaL_setfuncs(L, extra, 0);
}

/* The flow's protocol is name (or carries it: HTTP/2 for http), else get_tx fails. */
static void want_proto(lua_State *L, const char *name)
{
    const struct rlua_input *in = sb_input(L);
    const char *n = in->f ? osprey_app_proto_name(osprey_parsers_app_proto(in->ctx, in->f))
                          : NULL;
    if (!n || (strcmp(n, name) && !(!strcmp(name, "http") && !strncmp(n, "http", 4))))
        luaL_error(L, "no %s transaction", name);
}

/* ---- http ---- */
/* A header's value from the raw header block ("Name: value\r\n" lines), case-insensitive;
 * dir 0 request, 1 response. */
static int header_of(lua_State *L, int dir)
{
    const char *want = luaL_checkstring(L, 2);
    size_t wl = strlen(want), n;
    if (!lib_push_buffer(L, "http.header.raw", dir))
        return 1;
    const char *h = lua_tolstring(L, -1, &n), *end = h + n;
    while (h < end) {
        const char *eol = memchr(h, '\n', (size_t)(end - h));
        const char *le = eol ? eol : end;
        const char *colon = memchr(h, ':', (size_t)(le - h));
        if (colon && (size_t)(colon - h) == wl && !strncasecmp(h, want, wl)) {
            const char *v = colon + 1;
            while (v < le && (*v == ' ' || *v == '\t'))
                v++;
            const char *ve = le;
            while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
                ve--;
            lua_pushlstring(L, v, (size_t)(ve - v));
            return 1;
        }
        h = eol ? eol + 1 : end;
    }
    lua_pushnil(L);
    return 1;
}
static int h_request_header(lua_State *L)
{
    return header_of(L, 0);
}
static int h_response_header(lua_State *L)
{
    return header_of(L, 1);
}
/* every header as name → value */
static int headers_of(lua_State *L, int dir)
{
    size_t n;
    lua_newtable(L);
    if (!lib_push_buffer(L, "http.header.raw", dir)) {
        lua_pop(L, 1);
        return 1;
    }
    const char *h = lua_tolstring(L, -1, &n), *end = h + n;
    while (h < end) {
        const char *eol = memchr(h, '\n', (size_t)(end - h));
        const char *le = eol ? eol : end;
        const char *colon = memchr(h, ':', (size_t)(le - h));
        if (colon) {
            const char *v = colon + 1;
            while (v < le && (*v == ' ' || *v == '\t'))
                v++;
            const char *ve = le;
            while (ve > v && ve[-1] == '\r')
                ve--;
            lua_pushlstring(L, h, (size_t)(colon - h));
            lua_pushlstring(L, v, (size_t)(ve - v));
            lua_settable(L, -4);
        }
        h = eol ? eol + 1 : end;
    }
    lua_pop(L, 1);
    return 1;
}
static int h_request_headers(lua_State *L)
{
    return headers_of(L, 0);
}
static int h_response_headers(lua_State *L)
{
    return headers_of(L, 1);
}

static int http_get_tx(lua_State *L)
{
    want_proto(L, "http");
    static const struct bufm M[] = {
        {"request_line", "http.request_line", 0, false},
        {"response_line", "http.response_line", 1, false},
        {"request_uri_raw", "http.uri.raw", 0, false},
        {"request_uri_normalized", "http.uri", 0, false},
        {"request_headers_raw", "http.header.raw", 0, false},
        {"response_headers_raw", "http.header.raw", 1, false},
        {"request_host", "http.host", 0, false},
        {"request_body", "http.request_body", 0, false},
        {"response_body", "http.response_body", 1, false},
        {NULL, NULL, 0, false}};
    static const luaL_Reg X[] = {{"request_header", h_request_header},
                                 {"response_header", h_response_header},
                                 {"request_headers", h_request_headers},
                                 {"response_headers", h_response_headers}, {NULL, NULL}};
    new_tx(L, M, X);
    return 1;
}

int lib_open_http(lua_State *L)
{
    static const luaL_Reg F[] = {{"get_tx", http_get_tx}, {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}

/* ---- dns ---- */
static int d_rcode(lua_State *L)
{
    int64_t v;
    if (lib_field(L, "dns.rcode", &v))
        lua_pushinteger(L, (lua_Integer)v);
    else
        lua_pushnil(L);
    return 1;
}
static int d_tx_id(lua_State *L)
{
    const struct rlua_input *in = sb_input(L);
    lua_pushinteger(L, in->f ? osprey_parsers_tx_id(in->ctx, in->f) : 0);
    return 1;
}
static int dns_get_tx(lua_State *L)
{
    want_proto(L, "dns");
    static const struct bufm M[] = {{"rrname", "dns.query", 0, false},
                                    {"queries", "dns.query", 0, true},
                                    {"answers", "dns.answer.name", 1, true},
                                    {NULL, NULL, 0, false}};
    static const luaL_Reg X[] = {{"rcode", d_rcode}, {"tx_id", d_tx_id}, {NULL, NULL}};
    new_tx(L, M, X);
    return 1;
}
int lib_open_dns(lua_State *L)
{
    static const luaL_Reg F[] = {{"get_tx", dns_get_tx}, {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}

/* ---- tls ---- */
/* version, subject, issuer, fingerprint of the server's certificate */
static int t_server_cert_info(lua_State *L)
{
    lua_pushnil(L); /* the version: Osprey's TLS parser keeps no certificate version */
    lib_push_buffer(L, "tls.cert_subject", 1);
    lib_push_buffer(L, "tls.cert_issuer", 1);
    lib_push_buffer(L, "tls.cert_fingerprint", 1);
    return 4;
}
static int tls_get_tx(lua_State *L)
{
    want_proto(L, "tls");
    static const struct bufm M[] = {{"get_sni", "tls.sni", 0, false},
                                    {"get_server_serial", "tls.cert_serial", 1, false},
                                    {"get_server_cert_chain", "tls.certs", 1, true},
                                    {"get_version", "tls.version", -1, false},
                                    {NULL, NULL, 0, false}};
    static const luaL_Reg X[] = {{"get_server_cert_info", t_server_cert_info}, {NULL, NULL}};
    new_tx(L, M, X);
    return 1;
}
int lib_open_tls(lua_State *L)
{
    static const luaL_Reg F[] = {{"get_tx", tls_get_tx}, {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}

/* ---- ja3: a TLS or QUIC transaction's JA3 (client) and JA3S (server) ---- */
static int ja3_get_tx(lua_State *L)
{
    const struct rlua_input *in = sb_input(L);
    const char *n = in->f ? osprey_app_proto_name(osprey_parsers_app_proto(in->ctx, in->f))
                          : NULL;
    if (!n || (strcmp(n, "tls") && strcmp(n, "quic")))
        luaL_error(L, "no tls or quic transaction");
    static const struct bufm M[] = {{"ja3_get_hash", "ja3.hash", 0, false},
                                    {"ja3_get_string", "ja3.string", 0, false},
                                    {"ja3s_get_hash", "ja3s.hash", 1, false},
                                    {"ja3s_get_string", "ja3s.string", 1, false},
                                    {NULL, NULL, 0, false}};
    new_tx(L, M, NULL);
    return 1;
}
/* enable_ja3(): Osprey computes JA3 and JA3S whenever it parses a hello (nothing to enable) */
static int ja3_enable(lua_State *L)
{
    (void)L;
    return 0;
}
int lib_open_ja3(lua_State *L)
{
    static const luaL_Reg F[] = {{"get_tx", ja3_get_tx}, {"enable_ja3", ja3_enable},
                                 {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}

/* ---- ssh ---- */
static int ssh_get_tx(lua_State *L)
{
    want_proto(L, "ssh");
    static const struct bufm M[] = {{"client_proto", "ssh.proto", 0, false},
                                    {"server_proto", "ssh.proto", 1, false},
                                    {"client_software", "ssh.software", 0, false},
                                    {"server_software", "ssh.software", 1, false},
                                    {NULL, NULL, 0, false}};
    new_tx(L, M, NULL);
    return 1;
}
int lib_open_ssh(lua_State *L)
{
    static const luaL_Reg F[] = {{"get_tx", ssh_get_tx}, {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}

/* ---- smtp ---- */
static int smtp_get_tx(lua_State *L)
{
    want_proto(L, "smtp");
    static const struct bufm M[] = {{"get_mail_from", "smtp.mail_from", 0, false},
                                    {"get_rcpt_list", "smtp.rcpt_to", 0, true},
                                    {"get_helo", "smtp.helo", 0, false},
                                    {NULL, NULL, 0, false}};
    new_tx(L, M, NULL);
    return 1;
}
int lib_open_smtp(lua_State *L)
{
    static const luaL_Reg F[] = {{"get_tx", smtp_get_tx}, {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}

/* ---- file ---- */
static int file_get_file(lua_State *L)
{
    sb_input(L);
    static const struct bufm M[] = {{"name", "file.name", -1, false},
                                    {"magic", "file.magic", -1, false},
                                    {NULL, NULL, 0, false}};
    new_tx(L, M, NULL);
    return 1;
}
int lib_open_file(lua_State *L)
{
    static const luaL_Reg F[] = {{"get_file", file_get_file}, {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}
