/* pipeline.h — what every run mode sets up the same way: the libmon engine from the
 * configuration, the rules compiled onto it, one worker per thread (its mon_ctx and detection
 * state), and the emitter the workers' records go to.
 *
 * A run mode (offline, live, inline) opens a pipeline, feeds each worker its frames with
 * osprey_worker_packet() from that worker's own thread, flushes each worker, and closes.
 */
#ifndef OSPREY_PIPELINE_H
#define OSPREY_PIPELINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "emit.h"
#include "mon.h"
#include "options.h"
#include "osprey_config.h"
#include "osprey_detect.h"
#include "osprey_parsers.h"

/* Capture and inline counters of one worker (live/inline modes: run_live.c, run_inline.c).
 * Written by the worker's thread only, read by anyone (stats records, control socket):
 * relaxed atomics, so a reader never sees a torn value. */
struct osprey_capture_stats {
    bool live;                            /* a live/inline source feeds the worker */
    _Atomic uint64_t packets, bytes;      /* frames read from the capture sources */
    _Atomic uint64_t kernel_packets;      /* the kernel's count for this worker's sockets */
    _Atomic uint64_t kernel_drops;        /* ring/buffer full in the kernel */
    _Atomic uint64_t forwarded;           /* inline: frames sent on to the peer interface */
    _Atomic uint64_t drop_verdict;        /* inline: a drop/reject rule matched the packet */
    _Atomic uint64_t drop_flow;           /* inline: of those, the flow was already dropped */
    _Atomic uint64_t drop_fail_closed;    /* inline, fail-mode closed: dropped uninspected */
    _Atomic uint64_t fail_open;           /* inline, fail-mode open: forwarded uninspected */
    _Atomic uint64_t rejects_sent;        /* inline: RST / ICMP frames sent */
    _Atomic uint64_t tx_errors;           /* inline: frames the peer interface refused */
};

struct osprey_worker {
    int id;
    struct mon_ctx *ctx;
    struct osprey_detect_worker *dw;
    struct osprey_parsers_worker *pw; /* the app-layer parsers on its context */
    struct osprey_emit *emit;   /* shared by all workers */
    bool inline_mode;           /* drop/reject verdicts are enforced (EVE action "blocked") */
    struct osprey_capture_stats cap;
    struct osprey_pipeline *pl; /* its pipeline: rule reloads (reload.c) */
    unsigned rules_gen;         /* generation of the rules it runs (reload.c) */
    uint64_t alerts_before;     /* alerts of the rules it ran before its last reload */
    struct osprey_parsers_stats app_before; /* its parsers' counters before the last reload */
    struct osprey_emit_worker ew; /* the emitter's per-worker state (emit.h) */
    uint32_t pkt_alerts;        /* alerts raised while the current packet was processed */
    struct osprey_defer *defer; /* ack delivery: alerts waiting for a packet of their
                                   direction (alert_defer.h); NULL on arrival delivery */
};

struct osprey_pipeline;
struct osprey_pcap_jobs;
struct osprey_defer;

/* The services that run beside an open pipeline (service/: rule reloads, the control socket).
 * The run mode hands them to osprey_pipeline_open; the pipeline calls them through these
 * pointers and so includes nothing above it (service/ calls down into the pipeline). */
struct osprey_pipeline_services {
    int (*start)(struct osprey_pipeline *pl);      /* workers are set up; 0 or -1 (logged) */
    void (*stop)(struct osprey_pipeline *pl);      /* quiesce: no thread touches the rules */
    void (*worker_switch)(struct osprey_worker *w); /* pl->rules_gen moved on: new rules */
    void (*lock)(struct osprey_pipeline *pl);      /* hold off switches while reading w->dw */
    void (*unlock)(struct osprey_pipeline *pl);
};

struct osprey_pipeline {
    const struct osprey_options *opts;
    const struct osprey_config *cfg;
    struct mon_engine *eng;
    struct mon_decode_cfg dcfg;   /* what the engine decodes with (readers may need it) */
    struct osprey_ruleset *rs;
    struct osprey_detect *det;
    struct osprey_parsers *parsers; /* app-layer parsers defined on eng (det's rules use them) */
    struct osprey_emit *emit;
    struct osprey_detect_policy dpol; /* exceptions, stream.inline (ips_policy.h) */
    int nworkers;
    struct osprey_worker *w;      /* [nworkers] */
    double t_start, t_compiled;   /* monotonic seconds: open() began, rules compiled */
    _Atomic unsigned rules_gen;   /* bumped when reloaded rules are ready (reload.c) */
    const struct osprey_pipeline_services *svc; /* NULL = none */
    struct osprey_reload *reload; /* SIGUSR2 / control-socket reloads (service/reload.c) */
    struct osprey_control *control; /* the Unix control socket (service/control.c); NULL when off */
    double t_started;             /* wall-clock seconds at open() (uptime) */
    struct osprey_pcap_jobs *jobs; /* --unix-socket: the pcap-file queue (service/pcap_jobs.h);
                                      NULL in the other modes */
    const char *log_dir;          /* -l, else default-log-dir */
};

/* Set up everything for nworkers workers, writing into the log directory (-l, else
 * default-log-dir), then start svc (NULL = none; the run modes pass osprey_services,
 * service/services.h). Returns 0, or -1 after printing why on stderr; close() in either case. */
int osprey_pipeline_open(struct osprey_pipeline *pl, const struct osprey_options *opts,
                         const struct osprey_config *cfg, int nworkers,
                         const struct osprey_pipeline_services *svc);
/* The run loop is over (no worker runs any more): stop the reload and control-socket threads,
 * so pl->det/rs/eng stay put while the summary reads them. close() does it too. */
void osprey_pipeline_quiesce(struct osprey_pipeline *pl);
/* Release everything: flushes the workers that were not flushed (every flow ends), then
 * closes the outputs. Returns 0, or -1 when records were lost (explained on stderr). */
int osprey_pipeline_close(struct osprey_pipeline *pl);

/* One frame on the worker's thread; the decode outcome (inline mode forwards a fragment that
 * defrag holds: MON_DEC_FRAG_HELD, and reads the verdict only after MON_DEC_IP). */
enum mon_decode_outcome osprey_worker_packet(struct osprey_worker *w, struct mon_packet *p);
/* (osprey_daemon_ready, daemon.h: each run mode calls it once its sources are open, so a
 * bad interface still fails the starting command of -D.) */
/* On the worker's thread when it had nothing to read (beside mon_tick): picks up reloaded
 * rules, so a quiet worker does not hold the old ones (and the next reload) back. */
void osprey_worker_idle(struct osprey_worker *w);
/* End of input on the worker's thread: every flow ends now. */
void osprey_worker_flush(struct osprey_worker *w);
/* Attach compiled rules to the worker's context (alerts go to its emitter) with the
 * pipeline's detection policy; NULL: no memory. Also for reload.c, which swaps a worker's
 * detection after mon_ctx_rebind. */
struct osprey_detect_worker *osprey_worker_attach(struct osprey_worker *w,
                                                  const struct osprey_detect *det);
/* Send pw's completed transactions to the worker's emitter (EVE http/dns/tls records): for
 * every parsers worker attached to w's context, including one a reload attaches. */
void osprey_worker_tx_hook(struct osprey_worker *w, struct osprey_parsers_worker *pw);
/* Alerts the worker raised since the start, across rule reloads. */
uint64_t osprey_worker_alerts(const struct osprey_worker *w);
/* Its application-layer parser counters since the start, across rule reloads (a reload
 * gives the worker new parsers, whose counters start at zero). */
void osprey_worker_app_stats(const struct osprey_worker *w, struct osprey_parsers_stats *out);
/* out += add, counter by counter (every field of the struct is a uint64_t counter). */
void osprey_parsers_stats_add(struct osprey_parsers_stats *out,
                              const struct osprey_parsers_stats *add);

/* One EVE stats record adding up every worker (pipeline_stats.c). Run loops call it
 * between batches when osprey_emit_stats_due(pl->emit); close() writes the last one. */
void osprey_pipeline_stats(struct osprey_pipeline *pl);

/* Define the app-layer parsers on eng (*parsers), load the rules (-S or rule-files) and compile
 * them onto eng: shared with -T --dump-chains. */
int osprey_pipeline_rules(const struct osprey_options *opts, const struct osprey_config *cfg,
                          struct mon_engine *eng, struct osprey_ruleset **rs,
                          struct osprey_detect **det, struct osprey_parsers **parsers);
/* The detection options the configuration gives (detect.stream-mpm, geoip-database,
 * datasets.*), with the parsers defined on the same engine: at start and at each reload. */
void osprey_pipeline_detect_opts(const struct osprey_config *cfg,
                                 const struct osprey_parsers *parsers,
                                 struct osprey_detect_opts *o);
/* The parsers' buffers the accepted rules of rs read (osprey_parsers_want_buffer): at start
 * and at each reload. */
void osprey_pipeline_want_buffers(const struct osprey_ruleset *rs, struct osprey_parsers *parsers);
/* What the parsers compute for each file: what the rules test and the outputs write
 * (before the workers attach: at start and at each reload). 0 (it cannot fail). */
int osprey_pipeline_files(const struct osprey_config *cfg, struct osprey_parsers *parsers,
                           const struct osprey_detect *det);
/* The libmon engine the configuration describes (checksums: -k, NULL = config's; ips: IPS
 * mode, which stream.inline: auto follows — osprey_stack_cfg_delivery). */
int osprey_pipeline_engine(const struct osprey_config *cfg, const char *checksums, bool ips,
                           struct mon_engine **eng, struct mon_decode_cfg *dcfg);

#endif
