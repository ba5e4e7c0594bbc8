/* eve_alert.c — EVE "alert" records with jansson, keys in Suricata's order (an ordered
 * object: consumers that diff against Suricata's output see the same layout). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "osprey_outputs.h"

void osprey_eve_timestamp(uint64_t ts_us, char *buf, size_t len)
{
    time_t s = (time_t)(ts_us / 1000000u);
    struct tm tm;
    gmtime_r(&s, &tm);
    size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf + n, len - n, ".%06u+0000", (unsigned)(ts_us % 1000000u));
}

/* Suricata groups metadata values under their key, keeping first-seen key order. */
static json_t *metadata(const struct osprey_eve_alert *a)
{
    json_t *m = json_object();
    for (uint32_t i = 0; m && i < a->nmeta; i++) {
        json_t *list = json_object_get(m, a->meta[i].key);
        if (!list) {
            list = json_array();
            json_object_set_new(m, a->meta[i].key, list);
        }
        json_array_append_new(list, json_string(a->meta[i].value));
    }
    return m;
}

static void set_port(json_t *o, const char *key, int port)
{
    if (port >= 0)
        json_object_set_new(o, key, json_integer(port));
}

int osprey_eve_alert_write(FILE *out, const struct osprey_eve_alert *a)
{
    char ts[40];
    json_t *o = json_object();
    json_t *al = json_object();
    if (!o || !al) {
        json_decref(o);
        json_decref(al);
        return -1;
    }
    osprey_eve_timestamp(a->ts_us, ts, sizeof ts);
    json_object_set_new(o, "timestamp", json_string(ts));
    if (a->flow_id)
        json_object_set_new(o, "flow_id", json_integer((json_int_t)(a->flow_id & INT64_MAX)));
    if (a->pcap_cnt)
        json_object_set_new(o, "pcap_cnt", json_integer((json_int_t)a->pcap_cnt));
    json_object_set_new(o, "event_type", json_string("alert"));
    json_object_set_new(o, "src_ip", json_string(a->src_ip));
    set_port(o, "src_port", a->src_port);
    json_object_set_new(o, "dest_ip", json_string(a->dest_ip));
    set_port(o, "dest_port", a->dest_port);
    json_object_set_new(o, "proto", json_string(a->proto));
    if (a->direction)
        json_object_set_new(o, "direction", json_string(a->direction));
    json_object_set_new(al, "action", json_string(a->action));
    json_object_set_new(al, "gid", json_integer(a->gid));
    json_object_set_new(al, "signature_id", json_integer(a->sid));
    json_object_set_new(al, "rev", json_integer(a->rev));
    json_object_set_new(al, "signature", json_string(a->signature ? a->signature : ""));
    json_object_set_new(al, "category", json_string(a->category ? a->category : ""));
    json_object_set_new(al, "severity", json_integer(a->severity));
    if (a->nmeta)
        json_object_set_new(al, "metadata", metadata(a));
    json_object_set_new(o, "alert", al);
    if (a->app_proto)
        json_object_set_new(o, "app_proto", json_string(a->app_proto));
    if (a->has_flow) {
        json_t *f = json_object();
        char start[40];
        osprey_eve_timestamp(a->flow.start_us, start, sizeof start);
        json_object_set_new(f, "pkts_toserver", json_integer((json_int_t)a->flow.pkts_toserver));
        json_object_set_new(f, "pkts_toclient", json_integer((json_int_t)a->flow.pkts_toclient));
        json_object_set_new(f, "bytes_toserver",
                            json_integer((json_int_t)a->flow.bytes_toserver));
        json_object_set_new(f, "bytes_toclient",
                            json_integer((json_int_t)a->flow.bytes_toclient));
        json_object_set_new(f, "start", json_string(start));
        json_object_set_new(f, "src_ip", json_string(a->flow.src_ip));
        json_object_set_new(f, "dest_ip", json_string(a->flow.dest_ip));
        set_port(f, "src_port", a->flow.src_port);
        set_port(f, "dest_port", a->flow.dest_port);
        json_object_set_new(o, "flow", f);
    }
    char *s = json_dumps(o, JSON_PRESERVE_ORDER | JSON_COMPACT);
    json_decref(o);
    if (!s)
        return -1;
    int rc = fputs(s, out) < 0 || fputc('\n', out) == EOF ? -1 : 0;
    free(s);
    return rc;
}
