/* eve_json.h — helpers the EVE record files share (private to outputs/). */
#ifndef OSPREY_EVE_JSON_H
#define OSPREY_EVE_JSON_H

#include <jansson.h>
#include <stdint.h>

#include "osprey_json_writer.h"
#include "osprey_outputs.h"

/* jansson (stats records): serialise o compactly in insertion order, append '\n', drop the
 * reference. NULL = no memory (o may be NULL too). */
char *osprey_eve_line(json_t *o);
void osprey_eve_put_time(json_t *o, const char *key, uint64_t ts_us);

/* The writer (every other record): a port key unless the protocol has none (-1). */
void osprey_eve_jw_port(struct osprey_jw *w, const char *key, int port);
/* Open a record with Suricata's first keys: timestamp, flow_id and pcap_cnt (each left out
 * when 0, but the timestamp), event_type. */
void osprey_eve_jw_head(struct osprey_jw *w, uint64_t ts_us, uint64_t flow_id, uint64_t pcap_cnt,
                        const char *event_type);
/* src_ip, src_port, dest_ip, dest_port (ports -1: left out), proto (NULL: left out). */
void osprey_eve_jw_tuple(struct osprey_jw *w, const char *src_ip, int src_port, const char *dest_ip,
                         int dest_port, const char *proto);
/* The http/dns/tls object of app under its Suricata name ("http", …); nothing for none
 * (eve_app.c). Returns the name or NULL. */
const char *osprey_eve_app_write(struct osprey_jw *w, const struct osprey_eve_app *app);
/* A file's fields (filename … tx_id) into the open object w (eve_file.c): fileinfo's, and
 * each element of an alert's "files". */
void osprey_eve_file_fields(struct osprey_jw *w, const struct osprey_eve_file *f);

#endif
