/* signals.h — the process's signals as flags the run loops poll.
 *
 * Handlers only set flags (async-signal-safe); the run loops look at them between batches:
 * SIGTERM/SIGINT stop (drain and flush), SIGHUP reopens the log files, SIGUSR2 reloads the
 * rules. Nothing else happens in signal context.
 */
#ifndef OSPREY_SIGNALS_H
#define OSPREY_SIGNALS_H

#include <stdbool.h>

enum osprey_sig { OSPREY_SIG_STOP, OSPREY_SIG_REOPEN, OSPREY_SIG_RELOAD, OSPREY_SIG__COUNT };

/* Install the handlers (SIGTERM, SIGINT, SIGHUP, SIGUSR2; SIGPIPE ignored). */
void osprey_signals_install(void);
/* Was the signal received since the last take? Clears it (the stop flag stays set). */
bool osprey_signal_take(enum osprey_sig s);
/* Raise a flag from inside the process (e.g. the control socket asks for a reload). */
void osprey_signal_raise(enum osprey_sig s);

#endif
