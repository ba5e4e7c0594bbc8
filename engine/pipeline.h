/* pipeline.h — what every run mode sets up the same way: the libmon engine from the
 * configuration, the rules compiled onto it, one worker per thread (its mon_ctx and detection
 * state), and the emitter the workers' records go to.
 *
 * A run mode (offline, live, inline) opens a pipeline, feeds each worker its frames with
 * osprey_worker_packet() from that worker's own thread, flushes each worker, and closes.
 */
#ifndef OSPREY_PIPELINE_H
#define OSPREY_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "emit.h"
#include "mon.h"
#include "options.h"
#include "osprey_config.h"
#include "osprey_detect.h"

struct osprey_worker {
    int id;
    struct mon_ctx *ctx;
    struct osprey_detect_worker *dw;
    struct osprey_emit *emit;   /* shared by all workers */
};

struct osprey_pipeline {
    const struct osprey_options *opts;
    const struct osprey_config *cfg;
    struct mon_engine *eng;
    struct mon_decode_cfg dcfg;   /* what the engine decodes with (readers may need it) */
    struct osprey_ruleset *rs;
    struct osprey_detect *det;
    struct osprey_emit *emit;
    int nworkers;
    struct osprey_worker *w;      /* [nworkers] */
    double t_start, t_compiled;   /* monotonic seconds: open() began, rules compiled */
};

/* Set up everything for nworkers workers, writing into the log directory (-l, else
 * default-log-dir). Returns 0, or -1 after printing why on stderr; close() in either case. */
int osprey_pipeline_open(struct osprey_pipeline *pl, const struct osprey_options *opts,
                         const struct osprey_config *cfg, int nworkers);
/* Release everything: flushes the workers that were not flushed (every flow ends), then
 * closes the outputs. Returns 0, or -1 when records were lost (explained on stderr). */
int osprey_pipeline_close(struct osprey_pipeline *pl);

/* One frame on the worker's thread. */
void osprey_worker_packet(struct osprey_worker *w, struct mon_packet *p);
/* End of input on the worker's thread: every flow ends now. */
void osprey_worker_flush(struct osprey_worker *w);

/* Load the rules (-S or rule-files) and compile them onto eng: shared with -T --dump-chains. */
int osprey_pipeline_rules(const struct osprey_options *opts, const struct osprey_config *cfg,
                          struct mon_engine *eng, struct osprey_ruleset **rs,
                          struct osprey_detect **det);
/* The libmon engine the configuration describes (checksums: -k, NULL = config's). */
int osprey_pipeline_engine(const struct osprey_config *cfg, const char *checksums,
                           struct mon_engine **eng, struct mon_decode_cfg *dcfg);

double osprey_now_s(void); /* monotonic seconds */

#endif
