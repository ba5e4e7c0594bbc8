/* reload.h — rule reloads without stopping the traffic (SIGUSR2, control socket).
 *
 * A reload thread, started with the pipeline, compiles the rule files again into a NEW libmon
 * engine (same stack configuration) beside the running one. If loading or compiling fails,
 * or the edit made rules malformed, the running rules stay and the log says why. Otherwise
 * it publishes the new generation (pl->rules_gen): each worker, at the start of its next
 * packet (osprey_worker_packet), moves its context onto the new engine with mon_ctx_rebind
 * — its flows, TCP state and streams are kept — and attaches the new detection. When every
 * worker has moved, the old engine and rules are freed. Resident memory is logged before,
 * while both rule sets live, and after.
 *
 * A worker that cannot attach the new rules (out of memory) tries once per reload request and
 * stays on the old rules, logged once. When every worker has tried: none moved → the new
 * generation is freed (reload failed); some moved → both live, and the next request retries
 * the stuck workers instead of compiling a third set. Test hook: the environment variable
 * OSPREY_TEST_RELOAD_ATTACH_FAILS=N makes the first N attaches of reloaded rules fail.
 */
#ifndef OSPREY_RELOAD_H
#define OSPREY_RELOAD_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline.h"

struct osprey_reload;

/* Start the reload thread of an open pipeline (pl->reload). 0, or -1 after logging why. */
int osprey_reload_start(struct osprey_pipeline *pl);
/* Stop it (the workers have stopped): a half-done switch is finished on this thread, then the
 * old generation is freed. NULL-safe. */
void osprey_reload_stop(struct osprey_pipeline *pl);

/* Ask for a reload and wait until it is compiled and published, or failed. Returns 0 (msg:
 * what was loaded), or -1 (msg: why the running rules stay). Any thread but a worker's. */
int osprey_reload_request(struct osprey_reload *r, char *msg, size_t len);

/* On a worker's thread, between packets: move to the published rules (called by
 * osprey_worker_packet when pl->rules_gen moved on). */
void osprey_reload_switch(struct osprey_worker *w);

/* Figures for the control socket's stats. */
struct osprey_reload_stats {
    uint64_t reloads, failures;
    unsigned gen;
    double last_ms;          /* load+compile time of the last reload */
    uint64_t rss_before_kb, rss_during_kb, rss_after_kb;
    double switch_ms_max;    /* the longest a worker paused to move to the last rules */
};
void osprey_reload_stats(struct osprey_reload *r, struct osprey_reload_stats *out);

/* Hold off worker switches and retirement while reading w->dw or pl->det from another
 * thread (the control socket's stats). NULL-safe (no reload thread: nothing to hold). */
void osprey_reload_lock(struct osprey_reload *r);
void osprey_reload_unlock(struct osprey_reload *r);

/* Resident and peak memory of the process in KiB (/proc/self/status), 0 if unknown. */
uint64_t osprey_rss_kb(void);
uint64_t osprey_rss_peak_kb(void);

#endif
