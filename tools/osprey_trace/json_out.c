/* json_out.c — packet, flow and stats records for osprey-trace. */
#include "json_out.h"

#include "flow_record.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void trace_format_time(uint64_t ts_us, char *buf, size_t len)
{
    time_t sec = (time_t)(ts_us / 1000000u);
    struct tm tm;
    gmtime_r(&sec, &tm);
    char base[32];
    strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, len, "%s.%06u+0000", base, (unsigned)(ts_us % 1000000u));
}

void trace_format_addr(uint8_t ipver, const struct mon_addr *a, char *buf, size_t len)
{
    osprey_addr_str(a, ipver, buf, len); /* as osprey's EVE writes it */
}

json_t *trace_proto_json(uint8_t proto)
{
    switch (proto) {
    case 1: return json_string("ICMP");
    case 6: return json_string("TCP");
    case 17: return json_string("UDP");
    case 47: return json_string("GRE");
    case 50: return json_string("ESP");
    case 51: return json_string("AH");
    case 58: return json_string("IPv6-ICMP");
    case 132: return json_string("SCTP");
    default: {
        char num[8];
        snprintf(num, sizeof num, "%u", proto);
        return json_string(num); /* Suricata prints unnamed protocols as their number */
    }
    }
}

static void tcp_flags_str(uint8_t fl, char *out)
{
    static const char letters[] = "FSRPAUEC";
    int n = 0;
    for (int i = 0; i < 8; i++)
        if (fl & (1u << i))
            out[n++] = letters[i];
    out[n] = 0;
}

static void put_endpoints(json_t *o, uint8_t ipver, const struct mon_addr *src, uint16_t sport,
                          const struct mon_addr *dst, uint16_t dport, uint8_t proto, bool ports)
{
    char a[INET6_ADDRSTRLEN];
    trace_format_addr(ipver, src, a, sizeof a);
    json_object_set_new(o, "src_ip", json_string(a));
    if (ports)
        json_object_set_new(o, "src_port", json_integer(sport));
    trace_format_addr(ipver, dst, a, sizeof a);
    json_object_set_new(o, "dest_ip", json_string(a));
    if (ports)
        json_object_set_new(o, "dest_port", json_integer(dport));
    json_object_set_new(o, "proto", trace_proto_json(proto));
}

static json_t *tunnels_json(const uint8_t *t, unsigned n)
{
    json_t *a = json_array();
    for (unsigned i = 0; i < n; i++)
        json_array_append_new(a, json_string(mon_tunnel_name((enum mon_tunnel_kind)t[i])));
    return a;
}

json_t *trace_packet_json(const struct mon_packet *p, enum mon_decode_outcome outcome, bool hex)
{
    json_t *o = json_object();
    char ts[64];
    trace_format_time(p->ts_us, ts, sizeof ts);
    json_object_set_new(o, "timestamp", json_string(ts));
    json_object_set_new(o, "event_type", json_string("packet"));
    json_object_set_new(o, "pcap_cnt", json_integer((json_int_t)p->num));
    json_object_set_new(o, "outcome", json_string(mon_decode_outcome_name(outcome)));
    if (p->anomaly)
        json_object_set_new(o, "anomaly",
                            json_string(mon_decode_event_name((enum mon_decode_event)(p->anomaly - 1))));
    json_t *layers = json_array();
    for (unsigned i = 0; i < p->nlayers; i++)
        json_array_append_new(layers, json_string(mon_layer_name((enum mon_layer_kind)p->layer[i].kind)));
    json_object_set_new(o, "layers", layers);
    json_object_set_new(o, "tunnels", tunnels_json(p->tunnel, p->ntunnels));
    if (p->nvlan) {
        json_t *v = json_array();
        for (unsigned i = 0; i < p->nvlan && i < 3; i++)
            json_array_append_new(v, json_integer(p->vlan[i]));
        json_object_set_new(o, "vlan", v);
    }
    static const struct { uint32_t bit; const char *name; } flag_names[] = {
        {MON_PKT_FRAGMENT, "fragment"}, {MON_PKT_REASSEMBLED, "reassembled"},
        {MON_PKT_BAD_IP_CSUM, "bad_ip_csum"}, {MON_PKT_BAD_L4_CSUM, "bad_l4_csum"},
    };
    json_t *fl = json_array();
    for (size_t i = 0; i < sizeof flag_names / sizeof flag_names[0]; i++)
        if (p->flags & flag_names[i].bit)
            json_array_append_new(fl, json_string(flag_names[i].name));
    json_object_set_new(o, "flags", fl);
    if (p->ipver) {
        bool ports = (p->flags & MON_PKT_HAS_L4) && (p->proto == 6 || p->proto == 17 || p->proto == 132);
        put_endpoints(o, p->ipver, &p->src, p->sport, &p->dst, p->dport, p->proto, ports);
        json_object_set_new(o, "ttl", json_integer(p->ttl));
        if ((p->flags & MON_PKT_HAS_L4) && (p->proto == 1 || p->proto == 58)) {
            json_object_set_new(o, "icmp_type", json_integer(p->icmp_type));
            json_object_set_new(o, "icmp_code", json_integer(p->icmp_code));
        }
        if ((p->flags & MON_PKT_HAS_L4) && p->proto == 6) {
            char f[9];
            tcp_flags_str(p->tcp_flags, f);
            json_object_set_new(o, "tcp_flags", json_string(f));
            json_object_set_new(o, "tcp_seq", json_integer(p->tcp_seq));
            json_object_set_new(o, "tcp_ack", json_integer(p->tcp_ack));
            json_object_set_new(o, "tcp_win", json_integer(p->tcp_win));
            if (p->tcp_mss)
                json_object_set_new(o, "tcp_mss", json_integer(p->tcp_mss));
            if (p->tcp_wscale != 0xff)
                json_object_set_new(o, "tcp_wscale", json_integer(p->tcp_wscale));
            if (p->flags & MON_PKT_TCP_HAS_TS) {
                json_object_set_new(o, "tcp_tsval", json_integer(p->tcp_tsval));
                json_object_set_new(o, "tcp_tsecr", json_integer(p->tcp_tsecr));
            }
        }
        json_object_set_new(o, "payload_len", json_integer(p->payload_len));
        if (hex) {
            static const char digits[] = "0123456789abcdef";
            char *h = malloc((size_t)p->payload_len * 2 + 1);
            if (h) {
                for (uint32_t i = 0; i < p->payload_len; i++) {
                    h[2 * i] = digits[p->payload[i] >> 4];
                    h[2 * i + 1] = digits[p->payload[i] & 15];
                }
                h[(size_t)p->payload_len * 2] = 0;
                json_object_set_new(o, "payload_hex", json_string(h));
                free(h);
            }
        }
    }
    return o;
}

json_t *trace_event_json(const struct mon_packet *p, const struct mon_flow *f, int side,
                         mon_event_t ev)
{
    json_t *o = json_object();
    char ts[64];
    if (p) {
        trace_format_time(p->ts_us, ts, sizeof ts);
        json_object_set_new(o, "timestamp", json_string(ts));
    }
    json_object_set_new(o, "event_type", json_string("mon_event"));
    if (p)
        json_object_set_new(o, "pcap_cnt", json_integer((json_int_t)p->num));
    if (f)
        json_object_set_new(o, "flow_id", json_integer((json_int_t)f->id));
    json_object_set_new(o, "side", json_string(side == MON_SIDE_CLI ? "client" : "server"));
    json_object_set_new(o, "event", json_string(mon_event_name(ev)));
    if (f && f->proto == 6) {
        json_object_set_new(o, "client_state",
                            json_string(mon_tcp_state_name((enum mon_tcp_state)f->tcp.side[MON_SIDE_CLI].state)));
        json_object_set_new(o, "server_state",
                            json_string(mon_tcp_state_name((enum mon_tcp_state)f->tcp.side[MON_SIDE_SVR].state)));
    }
    return o;
}

static json_t *tcp_stats_json(const struct mon_tcp_stats *s)
{
    json_t *o = json_object();
#define PUT(name) json_object_set_new(o, #name, json_integer((json_int_t)s->name))
    PUT(sessions); PUT(midstream); PUT(orphans); PUT(invalid_state); PUT(out_of_window);
    PUT(rst_out_of_window); PUT(rexmit); PUT(rexmit_diff); PUT(overlaps); PUT(overlap_diff);
    PUT(outruns); PUT(gaps); PUT(depth_reached); PUT(memcap_hits); PUT(invalid_checksum);
    PUT(reclaims); PUT(reclaimed_bytes);
    PUT(reasm_memuse);
    PUT(reasm_memuse_peak);
#undef PUT
    return o;
}

static json_t *event_stats_json(const struct mon_event_stats *s)
{
    json_t *o = json_object();
    json_t *r = json_object();
    for (mon_event_t e = 0; e < MON_EV_BUILTIN_COUNT; e++)
        json_object_set_new(r, mon_event_name(e), json_integer((json_int_t)s->raised[e]));
    json_object_set_new(o, "raised", r);
    json_object_set_new(o, "filters_run", json_integer((json_int_t)s->filters_run));
    json_object_set_new(o, "handlers_run", json_integer((json_int_t)s->handlers_run));
    json_object_set_new(o, "forests", json_integer((json_int_t)s->forests));
    json_object_set_new(o, "forests_created", json_integer((json_int_t)s->forests_created));
    json_object_set_new(o, "forest_bytes", json_integer((json_int_t)s->forest_bytes));
    return o;
}

json_t *trace_stats_json(const struct mon_ctx *ctx, uint64_t frames, uint64_t bytes)
{
    const struct mon_decode_stats *ds = mon_ctx_decode_stats(ctx);
    const struct mon_defrag *df = mon_ctx_defrag(ctx);
    const struct mon_flow_table *ft = mon_ctx_flows(ctx);
    json_t *st = json_object();

    json_t *cap = json_object();
    json_object_set_new(cap, "packets", json_integer((json_int_t)frames));
    json_object_set_new(cap, "bytes", json_integer((json_int_t)bytes));
    json_object_set_new(st, "capture", cap);

    json_t *dec = json_object();
    json_object_set_new(dec, "pkts", json_integer((json_int_t)ds->pkts));
    json_object_set_new(dec, "bytes", json_integer((json_int_t)ds->bytes));
    json_t *oc = json_object();
    for (int i = 0; i < MON_DEC__COUNT; i++)
        json_object_set_new(oc, mon_decode_outcome_name((enum mon_decode_outcome)i),
                            json_integer((json_int_t)ds->outcome[i]));
    json_object_set_new(dec, "outcomes", oc);
    json_t *ly = json_object();
    for (int i = 0; i < MON_L__COUNT; i++)
        json_object_set_new(ly, mon_layer_name((enum mon_layer_kind)i),
                            json_integer((json_int_t)ds->layer[i]));
    json_object_set_new(dec, "layers", ly);
    json_t *an = json_object();
    for (int i = 0; i < MON_DE__COUNT; i++)
        json_object_set_new(an, mon_decode_event_name((enum mon_decode_event)i),
                            json_integer((json_int_t)ds->event[i]));
    json_object_set_new(dec, "anomalies", an);
    json_object_set_new(st, "decoder", dec);

    if (df) {
        const struct mon_defrag_stats *s = mon_defrag_stats(df);
        json_t *o = json_object();
        json_object_set_new(o, "fragments", json_integer((json_int_t)s->fragments));
        json_object_set_new(o, "reassembled", json_integer((json_int_t)s->reassembled));
        json_object_set_new(o, "timeouts", json_integer((json_int_t)s->timeouts));
        json_object_set_new(o, "memcap_drops", json_integer((json_int_t)s->memcap_drops));
        json_object_set_new(o, "overlaps", json_integer((json_int_t)s->overlaps));
        json_object_set_new(o, "trackers_active", json_integer((json_int_t)s->trackers_active));
        json_object_set_new(o, "memuse", json_integer((json_int_t)s->memuse));
        json_object_set_new(o, "memuse_peak", json_integer((json_int_t)s->memuse_peak));
        json_object_set_new(st, "defrag", o);
    }

    const struct mon_flow_stats *fs = mon_flow_stats(ft);
    json_t *fo = json_object();
    json_object_set_new(fo, "created", json_integer((json_int_t)fs->created));
    json_object_set_new(fo, "active", json_integer((json_int_t)fs->active));
    json_object_set_new(fo, "active_peak", json_integer((json_int_t)fs->active_peak));
    json_t *ended = json_object();
    json_object_set_new(ended, "timeout", json_integer((json_int_t)fs->ended[MON_FLOW_END_TIMEOUT]));
    json_object_set_new(ended, "evicted", json_integer((json_int_t)fs->ended[MON_FLOW_END_EVICTED]));
    json_object_set_new(ended, "shutdown", json_integer((json_int_t)fs->ended[MON_FLOW_END_SHUTDOWN]));
    json_object_set_new(fo, "ended", ended);
    json_object_set_new(fo, "tcp", json_integer((json_int_t)fs->tcp));
    json_object_set_new(fo, "udp", json_integer((json_int_t)fs->udp));
    json_object_set_new(fo, "icmp", json_integer((json_int_t)fs->icmp));
    json_object_set_new(fo, "other", json_integer((json_int_t)fs->other));
    json_object_set_new(fo, "no_l4", json_integer((json_int_t)fs->no_l4));
    json_object_set_new(fo, "memcap_hits", json_integer((json_int_t)fs->memcap_hits));
    json_object_set_new(fo, "alloc_fail", json_integer((json_int_t)fs->alloc_fail));
    json_object_set_new(fo, "max_flows", json_integer((json_int_t)fs->max_flows));
    json_object_set_new(st, "flow", fo);

    json_object_set_new(st, "tcp", tcp_stats_json(mon_ctx_tcp_stats(ctx)));
    json_object_set_new(st, "events", event_stats_json(mon_ctx_event_stats(ctx)));

    json_t *mem = json_object();
    json_object_set_new(mem, "flow_table", json_integer((json_int_t)fs->memuse));
    json_object_set_new(mem, "bytes_per_flow", json_integer((json_int_t)sizeof(struct mon_flow)));
    json_object_set_new(mem, "defrag", json_integer(df ? (json_int_t)mon_defrag_stats(df)->memuse_peak : 0));
    json_object_set_new(mem, "reassembly_peak", json_integer((json_int_t)mon_ctx_tcp_stats(ctx)->reasm_memuse_peak));
    json_object_set_new(st, "memory", mem);

    json_t *o = json_object();
    json_object_set_new(o, "event_type", json_string("stats"));
    json_object_set_new(o, "stats", st);
    return o;
}

void trace_emit(FILE *out, json_t *obj)
{
    char *s = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (s) {
        fputs(s, out);
        fputc('\n', out);
        free(s);
    }
    json_decref(obj);
}
