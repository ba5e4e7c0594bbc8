/* flow_record.c — mon_flow → EVE flow record (see flow_record.h). */
#include "flow_record.h"

#include <string.h>
#include <stdio.h>

const char *osprey_proto_name(uint8_t p, char *buf, size_t len)
{
    /* IANA's protocol keywords, as Suricata prints them */
    switch (p) {
    case 6: return "TCP";
    case 17: return "UDP";
    case 1: return "ICMP";
    case 58: return "IPv6-ICMP";
    case 132: return "SCTP";
    case 47: return "GRE";
    case 50: return "ESP";
    case 51: return "AH";
    case 2: return "IGMP";
    case 41: return "IPv6";
    case 4: return "IP-in-IP"; /* IPv4 in IP: Suricata's name, not IANA's "IPv4" */
    case 103: return "PIM";
    case 112: return "VRRP";
    case 136: return "UDPLite";
    default: snprintf(buf, len, "%u", p); return buf; /* Suricata: unnamed ones as numbers */
    }
}

void osprey_addr_str(const struct mon_addr *a, int ipver, char *buf, size_t len)
{
    if (ipver == 6) {
        /* Suricata writes IPv6 addresses whole: eight groups of four hex digits, no "::" */
        if (len < 40) {
            snprintf(buf, len, "?");
            return;
        }
        size_t at = 0;
        for (int g = 0; g < 8; g++)
            at += (size_t)snprintf(buf + at, len - at, g ? ":%02x%02x" : "%02x%02x",
                                   a->b[2 * g], a->b[2 * g + 1]);
        return;
    }
    /* dotted quad by hand: inet_ntop formats with sprintf, and a flood writes a flow record
     * (two addresses) for every SYN */
    char q[16];
    size_t at = 0;
    for (int i = 0; i < 4; i++) {
        unsigned v = a->b[i];
        if (i)
            q[at++] = '.';
        if (v >= 100)
            q[at++] = (char)('0' + v / 100);
        if (v >= 10)
            q[at++] = (char)('0' + v / 10 % 10);
        q[at++] = (char)('0' + v % 10);
    }
    q[at] = 0;
    if (len > at)
        memcpy(buf, q, at + 1);
    else if (len)
        snprintf(buf, len, "?");
}

static const char *flow_state(uint8_t s)
{
    return s == MON_FLOW_NEW ? "new" : s == MON_FLOW_ESTABLISHED ? "established" : "closed";
}

static const char *flow_reason(uint8_t e)
{
    /* Suricata's words; "forced" is a flow ended before its time (evicted) */
    return e == MON_FLOW_END_TIMEOUT ? "timeout" : e == MON_FLOW_END_EVICTED ? "forced"
                                                                             : "shutdown";
}

/* Suricata's names of TCP session states. */
static const char *tcp_state_name(uint8_t s)
{
    static const char *const names[MON_TCP__STATE_COUNT] = {
        [MON_TCP_CLOSED] = "closed", /* LISTEN: no session yet, Suricata writes no state */
        [MON_TCP_SYN_SENT] = "syn_sent",     [MON_TCP_SYN_RCVD] = "syn_recv",
        [MON_TCP_ESTABLISHED] = "established", [MON_TCP_FIN_WAIT_1] = "fin_wait1",
        [MON_TCP_FIN_WAIT_2] = "fin_wait2",  [MON_TCP_CLOSING] = "closing",
        [MON_TCP_TIME_WAIT] = "time_wait",   [MON_TCP_CLOSE_WAIT] = "close_wait",
        [MON_TCP_LAST_ACK] = "last_ack",
    };
    return s < MON_TCP__STATE_COUNT && names[s] ? names[s] : NULL;
}

/* Suricata keeps one state per session, named from the server's side (a client FIN makes it
 * close_wait, a server FIN fin_wait1); libmon keeps both endpoints'. The server's state is
 * Suricata's except at the two ends, where Suricata moves on the packet the server sent or
 * the last ACK the client sent: after the SYN alone it says syn_sent (our server is already
 * SYN_RCVD), after the SYN-ACK syn_recv, and a server in TIME_WAIT whose client has closed
 * is closed. */
static const char *tcp_state(const struct mon_flow *f)
{
    uint8_t cli = f->tcp.side[MON_SIDE_CLI].state, srv = f->tcp.side[MON_SIDE_SVR].state;
    if (srv == MON_TCP_SYN_RCVD && cli == MON_TCP_SYN_SENT)
        return "syn_sent";
    if (srv == MON_TCP_SYN_RCVD && cli == MON_TCP_ESTABLISHED)
        return "syn_recv";
    if (srv == MON_TCP_TIME_WAIT && cli == MON_TCP_CLOSED)
        return "closed";
    return tcp_state_name(srv);
}

void osprey_flow_record(const struct mon_flow *f, struct osprey_flow_text *t,
                        struct osprey_eve_flow *out)
{
    osprey_addr_str(&f->cli, f->ipver, t->src, sizeof t->src);
    osprey_addr_str(&f->srv, f->ipver, t->dst, sizeof t->dst);
    bool icmp = f->proto == 1 || f->proto == 58;
    bool ports = f->proto == 6 || f->proto == 17 || f->proto == 132;
    uint32_t nt = f->ntunnels < MON_FLOW_MAX_TUNNELS ? f->ntunnels : MON_FLOW_MAX_TUNNELS;
    for (uint32_t i = 0; i < nt; i++)
        t->tunnels[i] = mon_tunnel_name((enum mon_tunnel_kind)f->tunnel[i]);
    *out = (struct osprey_eve_flow){
        .flow_id = f->id,
        .src_ip = t->src,
        .dest_ip = t->dst,
        .src_port = ports ? f->cport : -1,
        .dest_port = ports ? f->sport : -1,
        .proto = osprey_proto_name(f->proto, t->proto, sizeof t->proto),
        .icmp_type = icmp ? f->icmp_type[0] : -1,
        .icmp_code = icmp ? f->icmp_code[0] : -1,
        .response_icmp_type = icmp && f->pkts[1] ? f->icmp_type[1] : -1,
        .response_icmp_code = icmp && f->pkts[1] ? f->icmp_code[1] : -1,
        .ntunnels = nt,
        .tunnels = t->tunnels,
        .pkts_toserver = f->pkts[MON_FLOW_TO_SERVER],
        .pkts_toclient = f->pkts[MON_FLOW_TO_CLIENT],
        .bytes_toserver = f->bytes[MON_FLOW_TO_SERVER],
        .bytes_toclient = f->bytes[MON_FLOW_TO_CLIENT],
        .start_us = f->first_us,
        .end_us = f->last_us,
        .log_us = f->last_us,
        .state = flow_state(f->state),
        .reason = flow_reason(f->end),
        .tcp = f->proto == 6,
        .tcp_flags_ts = f->tcp_flags[MON_FLOW_TO_SERVER],
        .tcp_flags_tc = f->tcp_flags[MON_FLOW_TO_CLIENT],
        .tcp_state = f->proto == 6 ? tcp_state(f) : NULL,
    };
}
