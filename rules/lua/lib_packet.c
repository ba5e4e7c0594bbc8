/* lib_packet.c — suricata.packet and suricata.flow (Suricata 8's API): packet.get() and
 * flow.get() give an object whose methods read the packet and flow being inspected. */
#include <arpa/inet.h>
#include <stdio.h>
#include <time.h>

#include "lib.h"
#include "mon_flow.h"
#include "mon_packet.h"

static const struct mon_packet *pkt(lua_State *L)
{
    const struct rlua_input *in = sb_input(L);
    if (!in->p)
        luaL_error(L, "no packet");
    return in->p;
}

static void push_addr(lua_State *L, int ipver, const struct mon_addr *a)
{
    char t[INET6_ADDRSTRLEN];
    if (!inet_ntop(ipver == 6 ? AF_INET6 : AF_INET, a->b, t, sizeof t))
        t[0] = 0;
    lua_pushstring(L, t);
}

/* Suricata's timestamp strings: legacy "MM/DD/YYYY-HH:MM:SS.uuuuuu", ISO 8601 with zone. */
static void push_time(lua_State *L, uint64_t us, bool iso)
{
    time_t sec = (time_t)(us / 1000000);
    struct tm tm;
    gmtime_r(&sec, &tm);
    char t[64];
    if (iso)
        snprintf(t, sizeof t, "%04d-%02d-%02dT%02d:%02d:%02d.%06u+0000", tm.tm_year + 1900,
                 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                 (unsigned)(us % 1000000));
    else
        snprintf(t, sizeof t, "%02d/%02d/%04d-%02d:%02d:%02d.%06u", tm.tm_mon + 1, tm.tm_mday,
                 tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec, (unsigned)(us % 1000000));
    lua_pushstring(L, t);
}

static int p_timestamp(lua_State *L)
{
    const struct mon_packet *p = pkt(L);
    lua_pushinteger(L, (lua_Integer)(p->ts_us / 1000000));
    lua_pushinteger(L, (lua_Integer)(p->ts_us % 1000000));
    return 2;
}
static int p_timestring_legacy(lua_State *L)
{
    push_time(L, pkt(L)->ts_us, false);
    return 1;
}
static int p_timestring_iso8601(lua_State *L)
{
    push_time(L, pkt(L)->ts_us, true);
    return 1;
}
/* ipver, src, dst, proto, then ports (TCP/UDP/SCTP) or ICMP type and code */
static int p_tuple(lua_State *L)
{
    const struct mon_packet *p = pkt(L);
    if (!p->ipver)
        return 0;
    lua_pushinteger(L, p->ipver);
    push_addr(L, p->ipver, &p->src);
    push_addr(L, p->ipver, &p->dst);
    lua_pushinteger(L, p->proto);
    if (p->proto == 1 || p->proto == 58) {
        lua_pushinteger(L, p->icmp_type);
        lua_pushinteger(L, p->icmp_code);
    } else {
        lua_pushinteger(L, p->sport);
        lua_pushinteger(L, p->dport);
    }
    return 6;
}
static int p_payload(lua_State *L)
{
    const struct mon_packet *p = pkt(L);
    lua_pushlstring(L, p->payload ? (const char *)p->payload : "", p->payload_len);
    return 1;
}
static int p_packet(lua_State *L)
{
    const struct mon_packet *p = pkt(L);
    lua_pushlstring(L, (const char *)p->frame, p->caplen);
    return 1;
}
static int p_pcap_cnt(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)pkt(L)->num);
    return 1;
}
static int p_sp(lua_State *L)
{
    lua_pushinteger(L, pkt(L)->sport);
    return 1;
}
static int p_dp(lua_State *L)
{
    lua_pushinteger(L, pkt(L)->dport);
    return 1;
}

static int packet_get(lua_State *L)
{
    pkt(L);
    static const luaL_Reg M[] = {{"timestamp", p_timestamp},
                                 {"timestring_legacy", p_timestring_legacy},
                                 {"timestring_iso8601", p_timestring_iso8601},
                                 {"tuple", p_tuple}, {"payload", p_payload},
                                 {"packet", p_packet}, {"pcap_cnt", p_pcap_cnt},
                                 {"sp", p_sp}, {"dp", p_dp}, {NULL, NULL}};
    sb_newobject(L, M);
    return 1;
}

int lib_open_packet(lua_State *L)
{
    static const luaL_Reg F[] = {{"get", packet_get}, {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}

/* ---- suricata.flow ---- */
static const struct mon_flow *flw(lua_State *L)
{
    const struct rlua_input *in = sb_input(L);
    if (!in->f)
        luaL_error(L, "no flow");
    return in->f;
}

static int f_timestamps(lua_State *L)
{
    const struct mon_flow *f = flw(L);
    lua_pushinteger(L, (lua_Integer)(f->first_us / 1000000));
    lua_pushinteger(L, (lua_Integer)(f->first_us % 1000000));
    lua_pushinteger(L, (lua_Integer)(f->last_us / 1000000));
    lua_pushinteger(L, (lua_Integer)(f->last_us % 1000000));
    return 4;
}
static int f_timestring_iso8601(lua_State *L)
{
    push_time(L, flw(L)->first_us, true);
    return 1;
}
static int f_timestring_legacy(lua_State *L)
{
    push_time(L, flw(L)->first_us, false);
    return 1;
}
/* ipver, client, server, proto, client port, server port (the flow's first direction) */
static int f_tuple(lua_State *L)
{
    const struct mon_flow *f = flw(L);
    lua_pushinteger(L, f->ipver);
    push_addr(L, f->ipver, &f->cli);
    push_addr(L, f->ipver, &f->srv);
    lua_pushinteger(L, f->proto);
    lua_pushinteger(L, f->cport);
    lua_pushinteger(L, f->sport);
    return 6;
}
/* alproto, alproto_ts, alproto_tc, alproto_orig, alproto_expect: Osprey knows one protocol
 * per flow, so the directions repeat it */
static int f_app_layer_proto(lua_State *L)
{
    const struct rlua_input *in = sb_input(L);
    const struct mon_flow *f = flw(L);
    uint16_t p = osprey_parsers_app_proto(in->ctx, f);
    uint16_t o = osprey_parsers_app_proto_orig(in->ctx, f);
    const char *n = osprey_app_proto_name(p);
    for (int i = 0; i < 3; i++)
        lua_pushstring(L, n ? n : "unknown");
    const char *on = osprey_app_proto_name(o);
    lua_pushstring(L, on ? on : "unknown");
    lua_pushstring(L, "unknown");
    return 5;
}
/* packets and bytes to server, to client */
static int f_stats(lua_State *L)
{
    const struct mon_flow *f = flw(L);
    lua_pushinteger(L, f->pkts[0]);
    lua_pushinteger(L, (lua_Integer)f->bytes[0]);
    lua_pushinteger(L, f->pkts[1]);
    lua_pushinteger(L, (lua_Integer)f->bytes[1]);
    return 4;
}
static int f_id(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)flw(L)->id);
    return 1;
}

static int flow_get(lua_State *L)
{
    flw(L);
    static const luaL_Reg M[] = {{"timestamps", f_timestamps},
                                 {"timestring_iso8601", f_timestring_iso8601},
                                 {"timestring_legacy", f_timestring_legacy},
                                 {"tuple", f_tuple}, {"app_layer_proto", f_app_layer_proto},
                                 {"stats", f_stats}, {"id", f_id}, {NULL, NULL}};
    sb_newobject(L, M);
    return 1;
}

int lib_open_flow(lua_State *L)
{
    static const luaL_Reg F[] = {{"get", flow_get}, {NULL, NULL}};
    sb_newlib(L, F);
    return 1;
}
