/* hooks.c — Suricata 8's rule hooks (a protocol's progress states) as the firewall tables see
 * them: each direction's states in order, the rank of each, and the event its rules run at.
 * From the descriptor's hooks[] list, or, for a protocol that lists none, from the hook names
 * its events carry (proto_event.hook), in event order. */
#include <string.h>

#include "proto_def.h"

/* The i-th state of proto's direction dir: its name and its own event's name (NULL: none). */
static bool state_at(const struct osprey_proto_def *d, uint8_t dir, uint8_t rank,
                     const char **name, const char **event)
{
    uint8_t k = 0;
    if (d->hooks) {
        for (size_t i = 0; i < d->nhooks; i++)
            if (d->hooks[i].dir == dir && k++ == rank) {
                *name = d->hooks[i].name;
                *event = d->hooks[i].event;
                return true;
            }
        return false;
    }
    for (size_t i = 0; i < d->nevents; i++)
        if (d->events[i].hook && d->events[i].dir == dir && k++ == rank) {
            *name = d->events[i].hook;
            *event = d->events[i].name;
            return true;
        }
    return false;
}

uint8_t osprey_hook_count(uint16_t proto, uint8_t dir)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    const char *n, *e;
    uint8_t k = 0;
    while (d && state_at(d, dir, k, &n, &e))
        k++;
    return k;
}

const char *osprey_hook_name(uint16_t proto, uint8_t dir, uint8_t rank)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    const char *n, *e;
    return d && state_at(d, dir, rank, &n, &e) ? n : NULL;
}

/* Fill out for the state at (dir, rank): its event, or the next state's that has one. */
static void resolve(const struct osprey_proto_def *d, uint16_t proto, uint8_t dir, uint8_t rank,
                    struct osprey_hook *out)
{
    *out = (struct osprey_hook){.proto = proto, .dir = dir, .rank = rank, .event = -1};
    const char *n, *e;
    for (uint8_t k = rank; state_at(d, dir, k, &n, &e); k++)
        if (e && (out->event = osprey_event_find(e)) >= 0) {
            out->own_event = k == rank;
            return;
        }
}

int osprey_hook_find(uint16_t proto, const char *hook, struct osprey_hook *out)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    const char *n, *e;
    for (uint8_t dir = 0; d && dir < 2; dir++)
        for (uint8_t k = 0; state_at(d, dir, k, &n, &e); k++)
            if (!strcmp(n, hook)) {
                resolve(d, proto, dir, k, out);
                return 0;
            }
    return -1;
}

int osprey_event_hook(uint16_t ev, struct osprey_hook *out)
{
    uint16_t proto = osprey_event_proto(ev);
    const struct osprey_proto_def *d = reg_proto(proto);
    const char *want = osprey_event_name(ev), *n, *e;
    for (uint8_t dir = 0; d && want && dir < 2; dir++)
        for (uint8_t k = 0; state_at(d, dir, k, &n, &e); k++)
            if (e && !strcmp(e, want)) {
                *out = (struct osprey_hook){proto, dir, k, ev, true};
                return 0;
            }
    return -1;
}
