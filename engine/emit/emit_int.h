/* emit_int.h — the emitter's state, shared by emit*.c (private to engine/). */
#ifndef OSPREY_EMIT_INT_H
#define OSPREY_EMIT_INT_H

#include <stdatomic.h>

#include "emit.h"
#include "osprey_geoip.h"
#include "osprey_log_file.h"
#include "osprey_outputs.h"

struct osprey_classid {
    char *name;
    uint32_t id;
};

struct osprey_emit {
    struct osprey_log_file *eve, *fast, *u2;
    bool eve_alert, eve_flow, eve_anomaly, eve_stats, eve_http, eve_dns, eve_tls;
    bool tagged_packets;        /* outputs.eve-log.tagged-packets */
    bool community_id;
    uint16_t cid_seed;
    struct osprey_geoip *geo;
    int alerted_slot;            /* mon uctx slot: non-NULL once a flow alerted; -1 none */
    uint32_t sensor_id;
    _Atomic uint32_t u2_event_id;
    struct osprey_classid *classids; /* unified2 classification ids: classification-file order */
    size_t nclassids;
    double (*now_s)(void);       /* monotonic seconds (osprey_emit_set_clock) */
    double stats_interval, t_open, t_last_stats;
    bool stats_threads;          /* stats.threads: each worker's counters too */
    char eve_path[4096];
};

/* Write a line (NULL = out of memory: counted) to lf and free it. */
void osprey_emit_line(struct osprey_log_file *lf, char *line);

/* The flow's http/dns/tls object now (emit_app.c); false when there is none. */
bool osprey_emit_fill_app(struct mon_ctx *ctx, const struct mon_flow *f,
                          struct osprey_eve_app *out);

/* Suricata's name of a libmon decoder event after "decoder." ("ipv4.pkt_too_small",
 * "too_many_layers"), or NULL when Suricata has none (emit_names.c). */
const char *osprey_suricata_decode_event(enum mon_decode_event e);

/* unified2 (emit_u2.c) */
int osprey_emit_u2_open(struct osprey_emit *e, const struct osprey_config *cfg,
                        const char *log_dir, FILE *diag);
/* app: the alert's http object or NULL (its URI and hostname become extra-data records). */
void osprey_emit_u2_alert(struct osprey_emit *e, const struct osprey_alert *a, bool blocked,
                          const struct osprey_eve_app *app);
void osprey_emit_u2_close(struct osprey_emit *e);

#endif
