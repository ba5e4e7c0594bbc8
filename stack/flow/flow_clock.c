/* flow_clock.c — the clock idle timeouts run on.
 *
 * Packet times are not monotonic: a capture made of several (mergecap -a, a benchmark of N
 * copies of one capture, a replay looped) jumps back in time. Expiry reads each timeout
 * list from its head, in order of activity; on raw packet times a flow whose last packet
 * lies "in the future" of the next segment would sit at a head unexpired, and every flow
 * behind it would pile up until the end of the input (the benchmark's 24 copies kept all
 * 114k flows and their detection and parser state alive to the end).
 *
 * The clock follows packet time forward. A packet more than FLOW_CLOCK_JUMP_US older than
 * the latest of its segment starts a new segment, which continues from where the clock
 * stands; smaller disorder (a packet a few milliseconds late) leaves the clock where it is.
 * A packet back in the time of the segment before (one packet stamped years off, between
 * packets of one conversation) returns to that segment: the clock does not leap. On a
 * monotonic capture the clock is the packet time. Records keep the packets' own times. */
#include "flow_internal.h"

#define FLOW_CLOCK_JUMP_US (60u * 1000000u)

static bool near(uint64_t ts_us, uint64_t max_us)
{
    return ts_us + FLOW_CLOCK_JUMP_US >= max_us && ts_us <= max_us + FLOW_CLOCK_JUMP_US;
}

uint64_t mon_flow_clock(struct mon_flow_table *t, uint64_t ts_us)
{
    struct flow_clock *c = &t->clock;
    if (!c->started) {
        *c = (struct flow_clock){.now = ts_us, .cur = {0, ts_us}, .started = true};
        return c->now;
    }
    bool back = ts_us + FLOW_CLOCK_JUMP_US < c->cur.max;
    bool leap = ts_us > c->cur.max + FLOW_CLOCK_JUMP_US;
    if ((back || leap) && c->has_prev && near(ts_us, c->prev.max)) {
        struct flow_clock_seg s = c->cur; /* the segment before, again */
        c->cur = c->prev;
        c->prev = s;
    } else if (back) { /* a new segment, from where the clock stands */
        c->prev = c->cur;
        c->has_prev = true;
        c->cur = (struct flow_clock_seg){c->now - ts_us, ts_us}; /* (now >= cur.max > ts) */
    }
    if (ts_us > c->cur.max)
        c->cur.max = ts_us;
    if (ts_us + c->cur.offset > c->now)
        c->now = ts_us + c->cur.offset;
    return c->now;
}
