/* eve_alert.c — EVE "alert" records, keys in Suricata's order (consumers that diff against
 * Suricata's output see the same layout). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eve_json.h"
#include "osprey_outputs.h"

void osprey_eve_put_time(json_t *o, const char *key, uint64_t ts_us)
{
    char ts[40];
    osprey_jw_timestamp(ts_us, ts, sizeof ts);
    json_object_set_new(o, key, json_string(ts));
}

char *osprey_eve_line(json_t *o)
{
    if (!o)
        return NULL;
    char *s = json_dumps(o, JSON_PRESERVE_ORDER | JSON_COMPACT);
    json_decref(o);
    if (!s)
        return NULL;
    size_t n = strlen(s);
    char *line = realloc(s, n + 2);
    if (!line) {
        free(s);
        return NULL;
    }
    line[n] = '\n';
    line[n + 1] = '\0';
    return line;
}

void osprey_eve_jw_port(struct osprey_jw *w, const char *key, int port)
{
    if (port >= 0)
        osprey_jw_int(w, key, port);
}

void osprey_eve_jw_head(struct osprey_jw *w, uint64_t ts_us, uint64_t flow_id, uint64_t pcap_cnt,
                        const char *event_type)
{
    osprey_jw_init(w);
    osprey_jw_open(w, NULL);
    osprey_jw_time(w, "timestamp", ts_us);
    if (flow_id)
        osprey_jw_int(w, "flow_id", (int64_t)(flow_id & INT64_MAX));
    if (pcap_cnt)
        osprey_jw_int(w, "pcap_cnt", (int64_t)pcap_cnt);
    osprey_jw_str(w, "event_type", event_type);
}

void osprey_eve_jw_tuple(struct osprey_jw *w, const char *src_ip, int src_port, const char *dest_ip,
                         int dest_port, const char *proto)
{
    osprey_jw_str(w, "src_ip", src_ip);
    osprey_eve_jw_port(w, "src_port", src_port);
    osprey_jw_str(w, "dest_ip", dest_ip);
    osprey_eve_jw_port(w, "dest_port", dest_port);
    if (proto)
        osprey_jw_str(w, "proto", proto);
}

/* Suricata's "tunnel": the root packet's tuple (ports written even when 0), depth, pcap_cnt. */
static void tunnel(struct osprey_jw *w, const struct osprey_eve_tunnel *t)
{
    osprey_jw_open(w, "tunnel");
    osprey_jw_str(w, "src_ip", t->src_ip);
    osprey_jw_int(w, "src_port", t->src_port);
    osprey_jw_str(w, "dest_ip", t->dest_ip);
    osprey_jw_int(w, "dest_port", t->dest_port);
    osprey_jw_str(w, "proto", t->proto);
    osprey_jw_int(w, "depth", t->depth);
    if (t->pcap_cnt)
        osprey_jw_int(w, "pcap_cnt", (int64_t)t->pcap_cnt);
    osprey_jw_str(w, "pkt_src", t->pkt_src);
    osprey_jw_close(w);
}

/* Suricata groups metadata values under their key, keeping first-seen key order. */
static void metadata(struct osprey_jw *w, const struct osprey_eve_alert *a)
{
    osprey_jw_open(w, "metadata");
    for (uint32_t i = 0; i < a->nmeta; i++) {
        bool seen = false;
        for (uint32_t j = 0; j < i && !seen; j++)
            seen = !strcmp(a->meta[j].key, a->meta[i].key);
        if (seen)
            continue;
        osprey_jw_array(w, a->meta[i].key);
        for (uint32_t j = i; j < a->nmeta; j++)
            if (!strcmp(a->meta[j].key, a->meta[i].key))
                osprey_jw_str(w, NULL, a->meta[j].value);
        osprey_jw_array_end(w);
    }
    osprey_jw_close(w);
}

static void geo(struct osprey_jw *w, const char *key, const struct osprey_geo *g)
{
    if (!g || !g->found)
        return;
    osprey_jw_open(w, key);
    if (g->country_iso[0])
        osprey_jw_str(w, "country_iso_code", g->country_iso);
    if (g->country_name[0])
        osprey_jw_str(w, "country_name", g->country_name);
    if (g->city[0])
        osprey_jw_str(w, "city_name", g->city);
    if (g->asn)
        osprey_jw_int(w, "asn", g->asn);
    if (g->as_org[0])
        osprey_jw_str(w, "as_org", g->as_org);
    osprey_jw_close(w);
}

/* Captured variables of one scope: as an object (alert.context), or as Suricata's list of
 * one-key objects (metadata.flowvars / pktvars). */
static void vars(struct osprey_jw *w, const struct osprey_eve_alert *a, int scope,
                 const char *key)
{
    bool any = false;
    for (uint32_t i = 0; i < a->nvars; i++)
        any |= a->vars[i].scope == scope;
    if (!any)
        return;
    if (scope == OSPREY_EVE_CONTEXT) {
        osprey_jw_open(w, key);
        for (uint32_t i = 0; i < a->nvars; i++)
            if (a->vars[i].scope == scope)
                osprey_jw_strn(w, a->vars[i].name, a->vars[i].value, a->vars[i].len);
        osprey_jw_close(w);
        return;
    }
    osprey_jw_array(w, key);
    for (uint32_t i = 0; i < a->nvars; i++)
        if (a->vars[i].scope == scope) {
            osprey_jw_open(w, NULL);
            osprey_jw_strn(w, a->vars[i].name, a->vars[i].value, a->vars[i].len);
            osprey_jw_close(w);
        }
    osprey_jw_array_end(w);
}

char *osprey_eve_alert_line(const struct osprey_eve_alert *a)
{
    struct osprey_jw w;
    osprey_eve_jw_head(&w, a->ts_us, a->flow_id, a->pcap_cnt, "alert");
    osprey_jw_str(&w, "src_ip", a->src_ip);
    osprey_eve_jw_port(&w, "src_port", a->src_port);
    osprey_jw_str(&w, "dest_ip", a->dest_ip);
    osprey_eve_jw_port(&w, "dest_port", a->dest_port);
    if (a->ip_v) /* Suricata 8: the alerting packet's IP version, before proto */
        osprey_jw_int(&w, "ip_v", a->ip_v);
    if (a->proto)
        osprey_jw_str(&w, "proto", a->proto);
    if (a->icmp) {
        osprey_jw_int(&w, "icmp_type", a->icmp_type);
        osprey_jw_int(&w, "icmp_code", a->icmp_code);
    }
    if (a->pkt_src)
        osprey_jw_str(&w, "pkt_src", a->pkt_src);
    if (a->tunnel)
        tunnel(&w, a->tunnel);
    if (a->direction)
        osprey_jw_str(&w, "direction", a->direction);
    if (a->community_id)
        osprey_jw_str(&w, "community_id", a->community_id);
    osprey_jw_open(&w, "alert");
    osprey_jw_str(&w, "action", a->action);
    osprey_jw_int(&w, "gid", a->gid);
    osprey_jw_int(&w, "signature_id", a->sid);
    osprey_jw_int(&w, "rev", a->rev);
    osprey_jw_str(&w, "signature", a->signature ? a->signature : "");
    osprey_jw_str(&w, "category", a->category ? a->category : "");
    osprey_jw_int(&w, "severity", a->severity);
    if (a->engine)
        osprey_jw_str(&w, "engine", a->engine);
    if (a->nmeta)
        metadata(&w, a);
    vars(&w, a, OSPREY_EVE_CONTEXT, "context");
    osprey_jw_close(&w);
    bool fv = false, pv = false;
    for (uint32_t i = 0; i < a->nvars; i++) {
        fv |= a->vars[i].scope == OSPREY_EVE_FLOWVAR;
        pv |= a->vars[i].scope == OSPREY_EVE_PKTVAR;
    }
    if (fv || pv) {
        osprey_jw_open(&w, "metadata");
        vars(&w, a, OSPREY_EVE_FLOWVAR, "flowvars");
        vars(&w, a, OSPREY_EVE_PKTVAR, "pktvars");
        osprey_jw_close(&w);
    }
    osprey_eve_app_write(&w, a->app);
    /* the transaction's files (Suricata 7+: alerts in a transaction) */
    osprey_eve_files_write(&w, a->files, a->nfiles);
    if (a->app_proto)
        osprey_jw_str(&w, "app_proto", a->app_proto);
    if (a->app_proto_ts)
        osprey_jw_str(&w, "app_proto_ts", a->app_proto_ts);
    if (a->app_proto_tc)
        osprey_jw_str(&w, "app_proto_tc", a->app_proto_tc);
    if (a->has_flow) {
        osprey_jw_open(&w, "flow");
        osprey_jw_int(&w, "pkts_toserver", (int64_t)a->flow.pkts_toserver);
        osprey_jw_int(&w, "pkts_toclient", (int64_t)a->flow.pkts_toclient);
        osprey_jw_int(&w, "bytes_toserver", (int64_t)a->flow.bytes_toserver);
        osprey_jw_int(&w, "bytes_toclient", (int64_t)a->flow.bytes_toclient);
        osprey_jw_time(&w, "start", a->flow.start_us);
        osprey_jw_str(&w, "src_ip", a->flow.src_ip);
        osprey_jw_str(&w, "dest_ip", a->flow.dest_ip);
        osprey_eve_jw_port(&w, "src_port", a->flow.src_port);
        osprey_eve_jw_port(&w, "dest_port", a->flow.dest_port);
        osprey_jw_close(&w);
    }
    geo(&w, "src_geoip", a->src_geo);
    geo(&w, "dest_geoip", a->dest_geo);
    return osprey_jw_finish(&w);
}

int osprey_eve_alert_write(FILE *out, const struct osprey_eve_alert *a)
{
    char *s = osprey_eve_alert_line(a);
    if (!s)
        return -1;
    int rc = fputs(s, out) < 0 ? -1 : 0;
    free(s);
    return rc;
}
