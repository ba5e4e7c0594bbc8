/* emit.h — where the engine's records go: alerts (and, as outputs grow, flow, stats and
 * anomaly records) are turned from libmon/detection structures into outputs/ records and
 * written to every enabled output.
 *
 * One emitter per run, shared by all workers: each record is written whole under a lock when
 * several workers share it, so lines never interleave.
 */
#ifndef OSPREY_EMIT_H
#define OSPREY_EMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "osprey_config.h"
#include "osprey_detect.h"

struct osprey_emit;

/* Open the outputs the configuration enables in log_dir. threads: several workers will write.
 * NULL after printing why on diag (e.g. the directory is not writable). */
struct osprey_emit *osprey_emit_open(const struct osprey_config *cfg, const char *log_dir,
                                     bool threads, FILE *diag);

/* One alert, as detection reported it (any worker's thread). */
void osprey_emit_alert(struct osprey_emit *e, const struct osprey_alert *a);

/* Records that could not be written so far. */
uint64_t osprey_emit_write_errors(const struct osprey_emit *e);
/* The eve.json path (for the summary line). */
const char *osprey_emit_eve_path(const struct osprey_emit *e);

/* Flush and close every output; returns 0, or -1 if something could not be written
 * (explained on diag). NULL is accepted. */
int osprey_emit_close(struct osprey_emit *e, FILE *diag);

#endif
