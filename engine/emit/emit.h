/* emit.h — where the engine's records go: detection alerts and libmon structures are turned
 * into outputs/ records (osprey_outputs.h, osprey_output.h), each built once and handed to
 * every output sink of outputs/registry.c the configuration enables (`outputs:` in
 * etc/osprey.yaml) that takes its kind.
 *
 * Run-mode independent: any run loop (offline, live, inline, daemon) uses it the same way.
 *   open → bind (before mon_engine_freeze) → per worker thread: alert / packet / tx / flow →
 *   between batches on the loop's thread: stats when stats_due, reopen on SIGHUP → close.
 * One emitter per run, shared by all workers: every record is written whole (one write per
 * record under the output's lock), so lines never interleave or split. A record that cannot
 * be written (disk full, socket gone) is counted and skipped, never fatal.
 */
#ifndef OSPREY_EMIT_H
#define OSPREY_EMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mon.h"
#include "osprey_config.h"
#include "osprey_detect.h"
#include "osprey_parsers.h"

struct osprey_emit;

/* Per-worker state of the emitter (lives in struct osprey_worker; zero-initialised). */
struct osprey_emit_worker {
    uint64_t stream_seen[6]; /* stream anomaly counters already reported */
    uint64_t clock_us;       /* the capture time of the worker's last packet: flow records
                                written after it (timeout, end of input) carry it */
};

/* What a stats record adds up: one entry per worker. */
struct osprey_stats_src {
    const struct mon_ctx *ctx;
    uint64_t alerts;
    bool has_capture;                       /* live capture: kernel counters below */
    uint64_t kernel_packets, kernel_drops;
    const struct osprey_parsers_stats *app; /* the worker's parsers; NULL = none */
    /* detection: stream windows now and at their peak (bytes), the prefilter's work */
    uint64_t detect_memuse, detect_memuse_peak;
    uint64_t pf_scans, pf_bytes, pf_raised, pf_unwanted, pf_header_checks, pf_header_passed;
    uint64_t pcre_gave_up;                  /* process-wide: set on the first worker only */
    struct osprey_detect_lua lua;           /* Lua rules' failed runs (stats.detect.lua.*) */
    struct osprey_detect_verdicts verdicts; /* firewall mode: stats.firewall.* */
};

/* Open the outputs the configuration enables, in log_dir (relative file names). nworkers:
 * the packet threads that will write (flow.recyclers auto: flow records get a thread of
 * their own when they leave a CPU free). NULL after printing why on diag (e.g. the
 * directory is not writable, the GeoIP database cannot be read). */
struct osprey_emit *osprey_emit_open(const struct osprey_config *cfg, const char *log_dir,
                                     int nworkers, FILE *diag);
/* The clock periodic stats are timed by (monotonic seconds): the process's, given by the
 * pipeline so the emitter calls nothing above it. Before the first stats_due. */
void osprey_emit_set_clock(struct osprey_emit *e, double (*now_s)(void));
/* Before mon_engine_freeze: take the per-flow slot that remembers "this flow alerted".
 * 0, or -1 (printed on diag). */
int osprey_emit_bind(struct osprey_emit *e, struct mon_engine *eng, FILE *diag);

/* One alert, as detection reported it (on the worker's thread; ctx: that worker's).
 * inline_mode: drop/reject verdicts are enforced, so such alerts are "blocked". */
void osprey_emit_alert(struct osprey_emit *e, struct mon_ctx *ctx, const struct osprey_alert *a,
                       bool inline_mode);
/* The same for an alert kept for a later packet (engine/alert_defer.h): app, when not NULL, is
 * its transaction's EVE object as osprey_emit_app_snap took it when the alert was found. */
void osprey_emit_alert_app(struct osprey_emit *e, struct mon_ctx *ctx,
                           const struct osprey_alert *a, bool inline_mode, const char *app);
/* The flow's current transaction's EVE object and its files of the direction ("name": {…},
 * "files": […], the members' text), malloc'd; NULL when there is none. */
char *osprey_emit_app_snap(struct osprey_emit *e, struct mon_ctx *ctx, const struct mon_flow *f,
                           bool to_server);
/* After mon_process of p: its decoder and stream anomalies, if any; then p itself to the
 * outputs that take every packet, or, when it falls under a tag (tagged:
 * osprey_detect_packet_tagged), to those that take tagged packets (EVE "packet" records when
 * alerts and outputs.eve-log.tagged-packets are on). alerted: an alert was raised on p. */
void osprey_emit_packet(struct osprey_emit *e, struct osprey_emit_worker *ew,
                        struct mon_ctx *ctx, const struct mon_packet *p, bool tagged,
                        bool alerted);
/* An application transaction completed (the parsers' tx callback; proto: enum
 * osprey_app_proto): an http, dns or tls record when that type is enabled. */
void osprey_emit_tx(struct osprey_emit *e, struct mon_ctx *ctx, struct mon_flow *f, int proto);
/* A transaction is done (the parsers' tx callback, before osprey_emit_tx): a record per
 * file it carried to the sinks that take files (EVE fileinfo, file-store). */
void osprey_emit_files(struct osprey_emit *e, struct mon_ctx *ctx, struct mon_flow *f);
/* What the outputs the configuration enables need the parsers to compute for each file
 * (OSPREY_FILES_*: fileinfo's force-hash / force-magic, file-store's sha256), for
 * osprey_parsers_set_files. */
unsigned osprey_emit_file_flags(const struct osprey_config *cfg);
/* A flow ended (the flow-end callback). */
void osprey_emit_flow(struct osprey_emit *e, struct mon_ctx *ctx, const struct mon_flow *f);

/* Is a periodic stats record due (stats.interval of wall-clock time since the last)? */
bool osprey_emit_stats_due(struct osprey_emit *e);
/* One stats record adding up n workers (periodically, and once at exit). */
void osprey_emit_stats(struct osprey_emit *e, const struct osprey_stats_src *src, int n);

/* SIGHUP: close and reopen every output file under its name. 0, or -1 (printed on diag;
 * records are counted as lost until a later reopen works). */
int osprey_emit_reopen(struct osprey_emit *e, FILE *diag);

/* `osprey --unix-socket`, between two pcap-file jobs (no worker emits): close every output and
 * open the same ones (cfg: the configuration emit_open had) in log_dir. 0, or -1 (printed on
 * diag; the sinks that could not be opened are left out). */
int osprey_emit_redirect(struct osprey_emit *e, const struct osprey_config *cfg,
                         const char *log_dir, FILE *diag);

/* Records that could not be written so far, all outputs. */
uint64_t osprey_emit_write_errors(const struct osprey_emit *e);
/* The eve.json path (for the summary line); "(eve-log disabled)" when EVE is off. */
const char *osprey_emit_eve_path(const struct osprey_emit *e);

/* Flush and close every output; returns 0, or -1 if something could not be written
 * (explained on diag). NULL is accepted. */
int osprey_emit_close(struct osprey_emit *e, FILE *diag);

#endif
