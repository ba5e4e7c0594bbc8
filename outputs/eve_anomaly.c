/* eve_anomaly.c — EVE "anomaly" records (Suricata's layout: anomaly{type, event[, layer]}).
 * A packet too broken to have addresses gets the record without the 5-tuple, as in Suricata. */
#include "eve_json.h"
#include "osprey_outputs.h"

char *osprey_eve_anomaly_line(const struct osprey_eve_anomaly *a)
{
    struct jw w;
    jw_init(&w);
    jw_open(&w, NULL);
    jw_time(&w, "timestamp", a->ts_us);
    if (a->flow_id)
        jw_int(&w, "flow_id", (int64_t)(a->flow_id & INT64_MAX));
    if (a->pcap_cnt)
        jw_int(&w, "pcap_cnt", (int64_t)a->pcap_cnt);
    jw_str(&w, "event_type", "anomaly");
    if (a->src_ip && a->dest_ip) {
        jw_str(&w, "src_ip", a->src_ip);
        osprey_eve_jw_port(&w, "src_port", a->src_port);
        jw_str(&w, "dest_ip", a->dest_ip);
        osprey_eve_jw_port(&w, "dest_port", a->dest_port);
    }
    if (a->proto)
        jw_str(&w, "proto", a->proto);
    jw_open(&w, "anomaly");
    if (a->app_proto)
        jw_str(&w, "app_proto", a->app_proto);
    jw_str(&w, "type", a->type);
    jw_str(&w, "event", a->event);
    if (a->layer)
        jw_str(&w, "layer", a->layer);
    jw_close(&w);
    return jw_finish(&w);
}
