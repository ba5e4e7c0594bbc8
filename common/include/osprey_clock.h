/* osprey_clock.h — the clocks the engine reads: monotonic time for intervals, timeouts and
 * durations (never jumps when the wall clock is set), wall time for what is written or
 * compared with capture timestamps (which are wall-clock microseconds).
 *
 * Thread-safe, no state: each call is one clock_gettime.
 */
#ifndef OSPREY_CLOCK_H
#define OSPREY_CLOCK_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in seconds / microseconds. */
double osprey_clock_mono_s(void);
uint64_t osprey_clock_mono_us(void);
/* CLOCK_REALTIME in seconds / microseconds since the epoch. */
double osprey_clock_wall_s(void);
uint64_t osprey_clock_wall_us(void);
/* A condition variable whose timed waits are deadlines on CLOCK_MONOTONIC (a wall-clock
 * step must not stretch or cut them). 0, or -1. */
int osprey_cond_init_mono(pthread_cond_t *cv);
/* The deadline ns nanoseconds from now on CLOCK_MONOTONIC, for pthread_cond_timedwait on such
 * a condition variable. */
struct timespec osprey_clock_mono_after(uint64_t ns);

#endif
