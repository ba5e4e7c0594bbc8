/* eve_anomaly.c — EVE "anomaly" records (Suricata's layout: anomaly{type, event[, layer]}).
 * A packet too broken to have addresses gets the record without the 5-tuple, as in Suricata. */
#include "eve_json.h"
#include "osprey_outputs.h"

char *osprey_eve_anomaly_line(const struct osprey_eve_anomaly *a)
{
    struct osprey_jw w;
    osprey_eve_jw_head(&w, a->ts_us, a->flow_id, a->pcap_cnt, "anomaly");
    if (a->src_ip && a->dest_ip)
        osprey_eve_jw_tuple(&w, a->src_ip, a->src_port, a->dest_ip, a->dest_port, NULL);
    if (a->proto)
        osprey_jw_str(&w, "proto", a->proto);
    osprey_jw_open(&w, "anomaly");
    if (a->app_proto)
        osprey_jw_str(&w, "app_proto", a->app_proto);
    osprey_jw_str(&w, "type", a->type);
    osprey_jw_str(&w, "event", a->event);
    if (a->layer)
        osprey_jw_str(&w, "layer", a->layer);
    osprey_jw_close(&w);
    return osprey_jw_finish(&w);
}
