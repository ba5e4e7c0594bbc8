/* osprey_output.h — the output sinks: one table row per output (registry.c), each a pure
 * writer that receives records and writes them its own way.
 *
 * The engine's emitter (engine/emit/) builds each record once from libmon and detection and
 * hands it to every open sink that takes its kind. Sinks never call libmon, the parsers or
 * the rules: everything they write is in the records below (osprey_outputs.h has the EVE
 * ones). A sink's config section is outputs.<name> ("outputs.fast.filename"); the emitter
 * opens it when outputs.<name>.enabled is on.
 *
 * Threads: alert, tx, flow, anomaly and packet are called on worker threads, several at once
 * (a sink writes each record whole, e.g. through osprey_log_file); stats, reopen, lost and
 * close between batches or at the end, never while a worker writes a record.
 * Adding an output: outputs/README.md, "Adding an output".
 */
#ifndef OSPREY_OUTPUT_H
#define OSPREY_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "osprey_config.h"
#include "osprey_log_file.h"
#include "osprey_outputs.h"

/* The kinds of record a sink takes (its takes() bits). */
enum osprey_rec_kind {
    OSPREY_REC_ALERT = 1u << 0,   /* one per alert */
    OSPREY_REC_TX = 1u << 1,      /* completed app transactions (per protocol: takes_tx) */
    OSPREY_REC_FLOW = 1u << 2,    /* a flow ended */
    OSPREY_REC_ANOMALY = 1u << 3, /* decoder and stream anomalies */
    OSPREY_REC_TAGGED = 1u << 4,  /* packets a tag: rule tagged */
    OSPREY_REC_PACKET = 1u << 5,  /* every packet, after detection */
    OSPREY_REC_STATS = 1u << 6,   /* periodic counters (and once at exit) */
    OSPREY_REC_FILE = 1u << 7,    /* a file a flow carried, once its transaction is done */
};

/* The packet behind a record, raw, for writers that keep bytes (unified2, pcap). */
struct osprey_rec_packet {
    uint64_t ts_us;
    uint64_t num;               /* pcap_cnt: position in the input, 0 = none */
    uint8_t ipver;              /* 4 or 6, 0 = no IP header */
    const uint8_t *src, *dst;   /* ipver 4: 4 bytes, 6: 16 bytes, network order */
    uint8_t proto;              /* IP protocol number */
    uint16_t sport, dport;      /* host order (0 when the protocol has none) */
    uint8_t icmp_type, icmp_code;
    uint16_t vlan_id;           /* the outer VLAN's 12-bit id, 0 = none */
    int linktype;               /* DLT_* of frame */
    const uint8_t *frame;       /* the captured bytes; NULL for a pseudo packet (flow end) */
    uint32_t caplen, wirelen;
};

/* An alert: the EVE/fast.log view and the raw packet (the alerting one, as captured). */
struct osprey_alert_rec {
    const struct osprey_eve_alert *eve;
    const char *classtype;      /* the rule's classtype name, NULL = none */
    bool blocked;               /* an enforced drop/reject (eve->action "blocked") */
    struct osprey_rec_packet pkt;
    /* an alert in an HTTP transaction: its URI and hostname (unified2's extra data, as Snort
     * logs them); NULL: none */
    const struct osprey_span *http_uri, *http_host;
};

/* A packet after detection (OSPREY_REC_PACKET: every one; OSPREY_REC_TAGGED: tagged ones). */
struct osprey_packet_rec {
    const struct osprey_eve_packet *eve; /* set for a tagged packet: its EVE packet record */
    bool tagged;                /* a tag: rule tagged it */
    bool alerted;               /* an alert was raised on this packet */
    struct osprey_rec_packet pkt;
};

/* A stats record: st NULL when it could not be built (no memory: count it as lost). */
struct osprey_stats_rec {
    uint64_t ts_us;             /* wall clock, when it is written */
    uint64_t uptime_s;
    const struct osprey_stat *st;
    size_t n;
};

/* What a sink's open() is given. */
struct osprey_output_env {
    const struct osprey_config *cfg; /* the whole configuration */
    const char *section;             /* "outputs.<name>": the sink's own keys */
    const char *log_dir;             /* relative file names go here */
    /* the application record types the emitter can hand over (the protocols the parsers
     * register that write records: "http", "dns", "tls", "ssh" …), NULL-terminated */
    const char *const *app_types;
};

struct osprey_output_def {
    const char *name; /* its config key under outputs: ("eve-log", "fast", "unified2-alert") */
    /* The instance, or NULL after printing why on diag (the emitter stops the start). */
    void *(*open)(const struct osprey_output_env *env, FILE *diag);
    unsigned (*takes)(void *s);                        /* enum osprey_rec_kind bits */
    bool (*takes_tx)(void *s, const char *app_proto);  /* "http", "dns"…; NULL = none */
    /* Its alert, flow and tx records carry a Community ID (the emitter computes it once, with
     * the seed of the first sink that asks); NULL = never. */
    bool (*community_id)(void *s, uint16_t *seed);
    /* The record entry points; NULL for the kinds takes() never names. */
    void (*alert)(void *s, const struct osprey_alert_rec *a);
    void (*tx)(void *s, const struct osprey_eve_tx *t);
    void (*flow)(void *s, const struct osprey_eve_flow *f);
    void (*anomaly)(void *s, const struct osprey_eve_anomaly *a);
    void (*packet)(void *s, const struct osprey_packet_rec *p);
    void (*stats)(void *s, const struct osprey_stats_rec *st);
    void (*file)(void *s, const struct osprey_eve_file *f);
    /* Its own counters for the stats records (a transport's written/dropped records …), names
     * relative to the sink ("redis.dropped": stats osprey.output.<name>.redis.dropped);
     * called between batches like stats. NULL = none. */
    void (*counters)(void *s, osprey_log_counter_fn put, void *ctx);
    /* SIGHUP/logrotate: reopen its files under their names. 0, or -1 (printed on diag). */
    int (*reopen)(void *s, FILE *diag);
    uint64_t (*lost)(void *s);                         /* records not written so far */
    const char *(*path)(void *s);                      /* the file written (summary); NULL = none */
    /* Flush and free; 0, or -1 when records were lost (explained on diag). */
    int (*close)(void *s, FILE *diag);
};

/* The sinks, in the order their records are written; NULL-terminated. */
extern const struct osprey_output_def *const osprey_output_sinks[];

/* Helpers every sink uses (registry.c). */
/* env->section + "." + key ("outputs.fast" + "filename") into buf. */
const char *osprey_output_key(const struct osprey_output_env *env, const char *key, char *buf,
                              size_t len);
/* A file name from the configuration as a path: absolute as is, else under the log dir. */
void osprey_output_path(const struct osprey_output_env *env, const char *name, char *buf,
                        size_t len);
/* Open lc, or NULL after "osprey: cannot open output WHY" on diag. */
struct osprey_log_file *osprey_output_log_open(const struct osprey_log_cfg *lc, FILE *diag);
/* Write a built line (NULL: it could not be built, counted as lost) and free it. */
void osprey_output_line(struct osprey_log_file *lf, char *line);
/* The usual reopen / lost / close of one log file, with the engine's messages. */
int osprey_output_log_reopen(struct osprey_log_file *lf, FILE *diag);
int osprey_output_log_close(struct osprey_log_file *lf, FILE *diag);

#endif
