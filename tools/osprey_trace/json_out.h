/* json_out.h — osprey-trace's JSON records (jansson), with Suricata's EVE key names. */
#ifndef OSPREY_TRACE_JSON_OUT_H
#define OSPREY_TRACE_JSON_OUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "mon.h"

void trace_format_time(uint64_t ts_us, char *buf, size_t len);
void trace_format_addr(uint8_t ipver, const struct mon_addr *a, char *buf, size_t len);
json_t *trace_proto_json(uint8_t proto);

json_t *trace_packet_json(const struct mon_packet *p, enum mon_decode_outcome outcome, bool hex);
json_t *trace_event_json(const struct mon_packet *p, const struct mon_flow *f, int side,
                         mon_event_t ev);
json_t *trace_stats_json(const struct mon_ctx *ctx, uint64_t frames, uint64_t bytes);

/* Print one object as one line and flush, then drop the reference. */
void trace_emit(FILE *out, json_t *obj);

#endif
