/* test_clock.c — clock.c: the two clocks agree with clock_gettime, µs and s read the same
 * instant, the monotonic clock does not go back and measures a sleep. */
#include <errno.h>
#include <time.h>

#include "osprey_clock.h"
#include "unit.h"

static double ts_s(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void test_against_clock_gettime(void)
{
    double wall = ts_s(CLOCK_REALTIME), mono = ts_s(CLOCK_MONOTONIC);
    /* within a second of the system's clocks (a loaded machine may stall a little) */
    CHECK(osprey_clock_wall_s() - wall >= 0 && osprey_clock_wall_s() - wall < 1.0);
    CHECK(osprey_clock_mono_s() - mono >= 0 && osprey_clock_mono_s() - mono < 1.0);
    CHECK(wall > 1.6e9); /* seconds since the epoch, not since boot */
    /* the µs readings are the same clocks (cut to the µs: up to 1 µs below a later ns read) */
    double wall_us = (double)osprey_clock_wall_us() / 1e6;
    double mono_us = (double)osprey_clock_mono_us() / 1e6;
    CHECK(wall_us - wall > -2e-6 && wall_us - wall < 1.0);
    CHECK(mono_us - mono > -2e-6 && mono_us - mono < 1.0);
}

static void test_monotonic_measures(void)
{
    uint64_t a = osprey_clock_mono_us();
    double as = osprey_clock_mono_s();
    struct timespec d = {0, 20 * 1000 * 1000}; /* 20 ms */
    nanosleep(&d, NULL);
    uint64_t b = osprey_clock_mono_us();
    double bs = osprey_clock_mono_s();
    CHECK(b - a >= 20000 && b - a < 5000000);
    CHECK(bs - as >= 0.020 && bs - as < 5.0);
    uint64_t prev = osprey_clock_mono_us();
    for (int i = 0; i < 1000; i++) {
        uint64_t now = osprey_clock_mono_us();
        CHECK(now >= prev);
        prev = now;
    }
}

/* osprey_cond_init_mono: a deadline on the monotonic clock is kept (a deadline already past
 * times out at once; one 20 ms ahead after at least 20 ms), whatever the wall clock says. */
static void test_monotonic_condition(void)
{
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cv;
    CHECK(osprey_cond_init_mono(&cv) == 0);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    pthread_mutex_lock(&mu);
    struct timespec past = {now.tv_sec - 1, now.tv_nsec};
    CHECK(pthread_cond_timedwait(&cv, &mu, &past) == ETIMEDOUT);
    uint64_t a = osprey_clock_mono_us();
    struct timespec soon = osprey_clock_mono_after(20 * 1000 * 1000);
    int rc;
    while ((rc = pthread_cond_timedwait(&cv, &mu, &soon)) == 0)
        ; /* (a spurious wake-up: wait on) */
    CHECK(rc == ETIMEDOUT);
    uint64_t waited = osprey_clock_mono_us() - a;
    /* a realtime-clock condition would take this as a date in 1970: no wait at all */
    CHECK(waited + 1000 >= 20000 - (a - ((uint64_t)now.tv_sec * 1000000u +
                                         (uint64_t)now.tv_nsec / 1000u)) &&
          waited < 5000000);
    pthread_mutex_unlock(&mu);
    pthread_cond_destroy(&cv);
}

/* osprey_clock_mono_after: now plus the nanoseconds, carried into the seconds (a deadline
 * 1.5 s or 2.999999999 s ahead is a valid timespec at that distance). */
static void test_mono_after(void)
{
    uint64_t steps[] = {0, 999999999u, 1500000000u, 2999999999u, 20000000u};
    for (unsigned i = 0; i < sizeof steps / sizeof *steps; i++) {
        struct timespec before, after;
        clock_gettime(CLOCK_MONOTONIC, &before);
        struct timespec d = osprey_clock_mono_after(steps[i]);
        clock_gettime(CLOCK_MONOTONIC, &after);
        CHECK(d.tv_nsec >= 0 && d.tv_nsec < 1000000000L);
        int64_t dn = (int64_t)d.tv_sec * 1000000000 + d.tv_nsec;
        int64_t bn = (int64_t)before.tv_sec * 1000000000 + before.tv_nsec;
        int64_t an = (int64_t)after.tv_sec * 1000000000 + after.tv_nsec;
        CHECK(dn >= bn + (int64_t)steps[i] && dn <= an + (int64_t)steps[i]);
    }
}

int main(void)
{
    test_mono_after();
    test_against_clock_gettime();
    test_monotonic_measures();
    test_monotonic_condition();
    return unit_report("test_clock");
}
