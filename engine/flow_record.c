/* flow_record.c — mon_flow → EVE flow record (see flow_record.h). */
#include "flow_record.h"

#include <arpa/inet.h>
#include <stdio.h>

const char *osprey_proto_name(uint8_t p, char *buf, size_t len)
{
    switch (p) {
    case 6: return "TCP";
    case 17: return "UDP";
    case 1: return "ICMP";
    case 58: return "IPv6-ICMP";
    case 132: return "SCTP";
    case 47: return "GRE";
    default: snprintf(buf, len, "%u", p); return buf; /* Suricata: unnamed ones as numbers */
    }
}

void osprey_addr_str(const struct mon_addr *a, int ipver, char *buf, size_t len)
{
    if (!inet_ntop(ipver == 6 ? AF_INET6 : AF_INET, a->b, buf, (socklen_t)len))
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
static const char *tcp_state(uint8_t s)
{
    static const char *const names[MON_TCP__STATE_COUNT] = {
        [MON_TCP_CLOSED] = "closed",         [MON_TCP_LISTEN] = "none",
        [MON_TCP_SYN_SENT] = "syn_sent",     [MON_TCP_SYN_RCVD] = "syn_recv",
        [MON_TCP_ESTABLISHED] = "established", [MON_TCP_FIN_WAIT_1] = "fin_wait1",
        [MON_TCP_FIN_WAIT_2] = "fin_wait2",  [MON_TCP_CLOSING] = "closing",
        [MON_TCP_TIME_WAIT] = "time_wait",   [MON_TCP_CLOSE_WAIT] = "close_wait",
        [MON_TCP_LAST_ACK] = "last_ack",
    };
    return s < MON_TCP__STATE_COUNT && names[s] ? names[s] : NULL;
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
        .state = flow_state(f->state),
        .reason = flow_reason(f->end),
        .tcp = f->proto == 6,
        .tcp_flags_ts = f->tcp_flags[MON_FLOW_TO_SERVER],
        .tcp_flags_tc = f->tcp_flags[MON_FLOW_TO_CLIENT],
        /* one state for the session, as Suricata has: the client's side */
        .tcp_state = f->proto == 6 ? tcp_state(f->tcp.side[MON_SIDE_CLI].state) : NULL,
    };
}
