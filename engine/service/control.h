/* control.h — the Unix control socket (unix-command.enabled, unix-command.filename).
 *
 * A thread started with the pipeline listens on a Unix stream socket. A client sends one
 * command per line, either a plain word (`stats`) or JSON as Suricata's unix socket takes it
 * (`{"command": "stats"}`; a `{"version": "0.2"}` hello is answered OK). Every answer is one
 * JSON line: {"return": "OK"|"NOK", "message": ...}. Commands: version, uptime, stats
 * (per-worker and total counters), reload-rules (waits for the compile: OK or NOK with the
 * reason), shutdown (stops like SIGTERM), help.
 */
#ifndef OSPREY_CONTROL_H
#define OSPREY_CONTROL_H

#include "pipeline.h"

struct osprey_control;

/* Start the socket when the configuration enables it (pl->control). 0 (also when off), or -1
 * after logging why (path in use by a running Osprey, cannot bind …). */
int osprey_control_start(struct osprey_pipeline *pl);
/* Stop the thread, remove the socket file. NULL-safe. */
void osprey_control_stop(struct osprey_pipeline *pl);

#endif
