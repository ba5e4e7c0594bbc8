/* eve_flow.c — EVE "flow" records: one per flow when it ends, Suricata's keys and order. */

#include "eve_json.h"
#include "osprey_outputs.h"

/* "%02x" without snprintf (a flow record is written for every flow a flood makes) */
static const char *hex2(char out[3], uint8_t v)
{
    static const char digits[] = "0123456789abcdef";
    out[0] = digits[v >> 4];
    out[1] = digits[v & 15];
    out[2] = 0;
    return out;
}

static void tcp_object(struct osprey_jw *w, const struct osprey_eve_flow *f)
{
    char hex[3];
    uint8_t all = f->tcp_flags_ts | f->tcp_flags_tc;
    osprey_jw_open(w, "tcp");
    osprey_jw_str(w, "tcp_flags", hex2(hex, all));
    osprey_jw_str(w, "tcp_flags_ts", hex2(hex, f->tcp_flags_ts));
    osprey_jw_str(w, "tcp_flags_tc", hex2(hex, f->tcp_flags_tc));
    /* Suricata lists the flags seen either way as booleans, in this order */
    static const struct { uint8_t bit; const char *name; } names[] = {
        {0x02, "syn"}, {0x01, "fin"}, {0x04, "rst"}, {0x08, "psh"},
        {0x10, "ack"}, {0x20, "urg"}, {0x40, "ecn"}, {0x80, "cwr"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (all & names[i].bit)
            osprey_jw_bool(w, names[i].name, true);
    if (f->tcp_state)
        osprey_jw_str(w, "state", f->tcp_state);
    osprey_jw_close(w);
}

char *osprey_eve_flow_line(const struct osprey_eve_flow *f)
{
    struct osprey_jw w;
    osprey_eve_jw_head(&w, f->log_us > f->end_us ? f->log_us : f->end_us, f->flow_id, 0, "flow");
    osprey_eve_jw_tuple(&w, f->src_ip, f->src_port, f->dest_ip, f->dest_port, f->proto);
    if (f->community_id)
        osprey_jw_str(&w, "community_id", f->community_id);
    if (f->icmp_type >= 0) {
        osprey_jw_int(&w, "icmp_type", f->icmp_type);
        osprey_jw_int(&w, "icmp_code", f->icmp_code);
    }
    if (f->response_icmp_type >= 0) {
        osprey_jw_int(&w, "response_icmp_type", f->response_icmp_type);
        osprey_jw_int(&w, "response_icmp_code", f->response_icmp_code);
    }
    if (f->ntunnels) {
        osprey_jw_array(&w, "encapsulation");
        for (uint32_t i = 0; i < f->ntunnels; i++)
            osprey_jw_str(&w, NULL, f->tunnels[i]);
        osprey_jw_array_end(&w);
    }
    if (f->app_proto)
        osprey_jw_str(&w, "app_proto", f->app_proto);
    if (f->app_proto_ts)
        osprey_jw_str(&w, "app_proto_ts", f->app_proto_ts);
    if (f->app_proto_tc)
        osprey_jw_str(&w, "app_proto_tc", f->app_proto_tc);
    if (f->app_proto_orig)
        osprey_jw_str(&w, "app_proto_orig", f->app_proto_orig);
    osprey_jw_open(&w, "flow");
    osprey_jw_int(&w, "pkts_toserver", (int64_t)f->pkts_toserver);
    osprey_jw_int(&w, "pkts_toclient", (int64_t)f->pkts_toclient);
    osprey_jw_int(&w, "bytes_toserver", (int64_t)f->bytes_toserver);
    osprey_jw_int(&w, "bytes_toclient", (int64_t)f->bytes_toclient);
    osprey_jw_time(&w, "start", f->start_us);
    osprey_jw_time(&w, "end", f->end_us);
    /* Suricata: whole seconds of the end minus those of the start (0.9 s over a second
     * boundary is 1) */
    osprey_jw_int(&w, "age", (int64_t)(f->end_us / 1000000u) - (int64_t)(f->start_us / 1000000u));
    osprey_jw_str(&w, "state", f->state);
    osprey_jw_str(&w, "reason", f->reason);
    osprey_jw_bool(&w, "alerted", f->alerted);
    osprey_jw_close(&w);
    if (f->tcp)
        tcp_object(&w, f);
    return osprey_jw_finish(&w);
}
