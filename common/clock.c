/* clock.c — see osprey_clock.h. */
#include "osprey_clock.h"

#include <time.h>

static double seconds(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static uint64_t micros(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

double osprey_clock_mono_s(void)
{
    return seconds(CLOCK_MONOTONIC);
}

uint64_t osprey_clock_mono_us(void)
{
    return micros(CLOCK_MONOTONIC);
}

double osprey_clock_wall_s(void)
{
    return seconds(CLOCK_REALTIME);
}

uint64_t osprey_clock_wall_us(void)
{
    return micros(CLOCK_REALTIME);
}

int osprey_cond_init_mono(pthread_cond_t *cv)
{
    pthread_condattr_t ca;
    if (pthread_condattr_init(&ca) != 0)
        return -1;
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int rc = pthread_cond_init(cv, &ca);
    pthread_condattr_destroy(&ca);
    return rc ? -1 : 0;
}

struct timespec osprey_clock_mono_after(uint64_t ns)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    uint64_t n = (uint64_t)t.tv_nsec + ns;
    t.tv_sec += (time_t)(n / 1000000000u);
    t.tv_nsec = (long)(n % 1000000000u);
    return t;
}
