/* daemon.h — the process's life as a service: -D (detach from the terminal), the pid file
 * (--pidfile, config pid-file), and the signals a run loop looks at between batches.
 *
 * Order in main(): options and configuration, logging, then osprey_daemon_begin (refuses a
 * pid file naming a running process, forks with -D: the parent waits until the child says
 * it is ready, or exits with the child's status), the run mode (whose pipeline calls
 * osprey_daemon_ready once it is set up), osprey_daemon_end.
 */
#ifndef OSPREY_DAEMON_H
#define OSPREY_DAEMON_H

#include <stdbool.h>

#include "emit.h"
#include "options.h"
#include "osprey_config.h"

/* Returns 0: go on (the daemon child, or no -D); 1: this is the waiting parent, exit with
 * *status; -1: refused or failed, a message is printed (exit 1). With -D, the options' paths
 * are made absolute first (the daemon leaves its start directory). */
int osprey_daemon_begin(struct osprey_options *opts, const struct osprey_config *cfg,
                        int *status);
/* With -D: the configuration again, with every relative path key (classification-file,
 * default-rule-path …) made absolute by a --set, as the daemon leaves its start directory
 * and a rule reload reads those files again. *out = NULL when nothing needed it (or no -D);
 * -1 after printing why. Free *out with osprey_config_free. */
int osprey_daemon_config(const struct osprey_options *opts, const struct osprey_config *cfg,
                         struct osprey_config **out);
/* The run mode is set up: a -D child tells its parent, goes to "/" and points stdin and
 * stdout at /dev/null, stderr at the log file when logging.outputs.file is on (else
 * /dev/null). Otherwise, or called again, a no-op. */
void osprey_daemon_ready(void);
/* Between batches: SIGHUP reopens the log file and e's outputs (e may be NULL); returns true
 * once SIGTERM/SIGINT asked to stop (drain, flush, exit). */
bool osprey_daemon_poll(struct osprey_emit *e);
/* At exit: remove the pid file if it is still ours. */
void osprey_daemon_end(void);

#endif
