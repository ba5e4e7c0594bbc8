/* signals.c — signal handlers that only set flags (see signals.h). */
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#include "signals.h"

static atomic_bool flags[OSPREY_SIG__COUNT];

static void on_signal(int sig)
{
    switch (sig) {
    case SIGTERM:
    case SIGINT: atomic_store(&flags[OSPREY_SIG_STOP], true); break;
    case SIGHUP: atomic_store(&flags[OSPREY_SIG_REOPEN], true); break;
    case SIGUSR2: atomic_store(&flags[OSPREY_SIG_RELOAD], true); break;
    default: break;
    }
}

void osprey_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* SA_RESTART: a capture file (or FIFO) read by stdio resumes instead of failing; poll()
     * in the live loops still returns EINTR, and every loop looks at the flags per batch */
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGUSR2, &sa, NULL);
    signal(SIGPIPE, SIG_IGN); /* a closed Unix-socket reader is a write error, not death */
}

bool osprey_signal_take(enum osprey_sig s)
{
    if (s == OSPREY_SIG_STOP)
        return atomic_load(&flags[s]);
    return atomic_exchange(&flags[s], false);
}

void osprey_signal_raise(enum osprey_sig s)
{
    atomic_store(&flags[s], true);
}
