/* control.h — the Unix control socket (unix-command.enabled, unix-command.filename).
 *
 * A thread started with the pipeline listens on a Unix stream socket and speaks Suricata's
 * unix-socket protocol, so suricatasc works unchanged: a client sends JSON objects
 * (`{"command": "iface-stat", "arguments": {"iface": "eth0"}}`; the `{"version": "0.2"}` hello,
 * sent without a newline, is answered OK) or plain command lines (`stats`). Every answer is one
 * JSON line: {"return": "OK"|"NOK", "message": ...}. The commands (control_cmds.c): Suricata's
 * (command-list, version, uptime, running-mode, capture-mode, iface-list, iface-stat,
 * dump-counters, reload-rules (waits for the compile: OK or NOK with the reason),
 * ruleset-reload-nonblocking, ruleset-stats, ruleset-failed-rules, reopen-log-files, conf-get,
 * memcap-list/-show/-set, shutdown (stops like SIGTERM)) and Osprey's stats and help.
 */
#ifndef OSPREY_CONTROL_H
#define OSPREY_CONTROL_H

#include <jansson.h>

#include "pipeline.h"

struct osprey_control;

/* Start the socket when the configuration enables it (pl->control). 0 (also when off), or -1
 * after logging why (path in use by a running Osprey, cannot bind …). */
int osprey_control_start(struct osprey_pipeline *pl);
/* Stop the thread, remove the socket file. NULL-safe. */
void osprey_control_stop(struct osprey_pipeline *pl);

/* One command with its "arguments" object (NULL: none) → its answer (control_cmds.c). */
json_t *osprey_control_command(struct osprey_pipeline *pl, const char *cmd, json_t *args);

#endif
