/* emit_int.h — the emitter's state, shared by emit*.c (private to engine/emit/). */
#ifndef OSPREY_EMIT_INT_H
#define OSPREY_EMIT_INT_H

#include <stdatomic.h>

#include "emit.h"
#include "flow_writer.h"
#include "osprey_geoip.h"
#include "osprey_output.h"
#include "osprey_outputs.h"
#include "osprey_parsers.h"

/* One open output of the table (outputs/registry.c). */
struct osprey_emit_sink {
    const struct osprey_output_def *def;
    void *s;                     /* its instance */
    unsigned takes;              /* enum osprey_rec_kind bits */
    struct osprey_app_proto_set tx; /* takes transaction records of these protocols */
};

struct osprey_emit {
    struct osprey_emit_sink sinks[16];
    size_t nsinks;
    unsigned takes;              /* what any sink takes */
    struct osprey_app_proto_set tx; /* some sink takes transactions of these protocols */
    bool community_id;           /* some sink's records carry community_id (its seed below) */
    uint16_t cid_seed;
    struct osprey_geoip *geo;
    int alerted_slot;            /* mon uctx slot: non-NULL once a flow alerted; -1 none */
    double (*now_s)(void);       /* monotonic seconds (osprey_emit_set_clock) */
    double stats_interval, t_open, t_last_stats;
    bool stats_threads;          /* stats.threads: each worker's counters too */
    bool file_store;             /* the file-store sink is open: files asked for are stored */
    atomic_uint file_ids;        /* stored files so far (fileinfo.file_id) */
    struct osprey_flow_writer *fw; /* flow.recyclers: flow records' own thread, or NULL */
};

/* Every open sink taking records of kind k (enum osprey_rec_kind). */
#define EMIT_EACH_SINK(e, k, it)                                                       \
    for (struct osprey_emit_sink *it = (e)->sinks; it < (e)->sinks + (e)->nsinks; it++) \
        if (it->takes & (k))

/* The flow's application object now (emit_app.c: its protocol writes it); false when there
 * is none. */
/* app from a snapshot (osprey_emit_app_snap) of the flow's protocol's object */
bool osprey_emit_snap_app(struct mon_ctx *ctx, const struct mon_flow *f, const char *snap,
                          struct osprey_eve_app *out);
bool osprey_emit_fill_app(struct mon_ctx *ctx, const struct mon_flow *f,
                          struct osprey_eve_app *out);
/* EVE's app_proto_ts (dir 0) / app_proto_tc (dir 1): that direction's own protocol when it
 * was detected and is not the flow's (named), as Suricata writes them; else NULL. */
const char *osprey_emit_dir_proto(struct mon_ctx *ctx, const struct mon_flow *f, int dir,
                                  uint16_t named);
/* An alert in an HTTP transaction: its URI and hostname for unified2's extra data (pointing
 * into ub and hb), NULL when none. */
void osprey_emit_http_extra(struct mon_ctx *ctx, const struct mon_flow *f,
                            struct osprey_span *ub, struct osprey_span *hb,
                            const struct osprey_span **uri, const struct osprey_span **host);

/* Suricata's name of a libmon decoder event after "decoder." ("ipv4.pkt_too_small",
 * "too_many_layers"), or NULL when Suricata has none (emit_names.c). */
const char *osprey_suricata_decode_event(enum mon_decode_event e);
/* Suricata's name for a decoder note (mon_decode.h), by the packet's IP version. */
const char *osprey_suricata_decode_note(enum mon_decode_note n, uint8_t ipver);

/* A file as a record, with room for its digests in hex (emit_files.c). */
struct osprey_emit_file {
    struct osprey_eve_file rec;
    char md5[33], sha1[41], sha256[65];
};
/* The current transaction's files of direction dir as records (an alert's "files"), at most
 * max; how many. */
size_t osprey_emit_alert_files(struct osprey_emit *e, struct mon_ctx *ctx, struct mon_flow *f,
                               int dir, struct osprey_emit_file *out, size_t max);

/* The raw view of a libmon packet the writers that keep bytes take (emit_records.c). */
void osprey_emit_rec_packet(const struct mon_packet *p, struct osprey_rec_packet *out);

#endif
