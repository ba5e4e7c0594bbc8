/* tag.c — Suricata's tag keyword: once a tagging rule alerts, the packets that follow on its
 * flow (tag:session) or to and from a host (tag:host, the alert packet's source or
 * destination) are tagged, for a number of packets, bytes or seconds. The alert's own packet
 * counts toward packets and bytes but is not tagged (it is the alert). The engine logs tagged
 * packets (EVE "packet" records, as Suricata's alert.tagged-packets).
 *
 * Host tags live in a fixed open-addressing table per worker (TAG_SLOTS): a tag that finds no
 * room is dropped and counted, never a crash. Session tags live in the flow's state.
 */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"

#define TAG_SLOTS 4096u /* power of two */
#define TAG_PROBE 32u

struct host_tag {
    uint8_t used; /* 0 never, 1 a tag, 2 ended (probe chains go on past it) */
    uint8_t addr[16];
    struct det_tag_state s;
};

struct det_tags {
    struct host_tag e[TAG_SLOTS];
    uint32_t live;  /* host tags in use: 0 skips the lookups */
    uint64_t full;  /* host tags dropped: no room */
};

struct det_tags *det_tags_create(void)
{
    return calloc(1, sizeof(struct det_tags));
}

void det_tags_free(struct det_tags *t)
{
    free(t);
}

uint64_t det_tags_dropped(const struct det_tags *t)
{
    return t ? t->full : 0;
}

static bool state_live(const struct det_tag_state *s, uint64_t now)
{
    return s->metric == TAG_SECONDS ? now < s->until_us : s->left > 0;
}

/* A new tag: the alert packet p counts toward packets and bytes. An existing live tag keeps
 * the larger of the two allowances. */
static void state_start(struct det_tag_state *s, const struct opt_tag *o,
                        const struct mon_packet *p)
{
    struct det_tag_state n = {.metric = o->metric};
    if (o->metric == TAG_SECONDS)
        n.until_us = p->ts_us + (uint64_t)o->count * 1000000u;
    else if (o->metric == TAG_BYTES)
        n.left = o->count > p->wirelen ? o->count - p->wirelen : 0;
    else
        n.left = o->count - 1;
    if (s->metric == n.metric && state_live(s, p->ts_us) &&
        (n.metric == TAG_SECONDS ? s->until_us >= n.until_us : s->left >= n.left))
        return;
    *s = n;
}

/* Uses up one packet of a live tag; true when the packet is tagged. */
static bool state_take(struct det_tag_state *s, const struct mon_packet *p)
{
    if (!state_live(s, p->ts_us))
        return false;
    if (s->metric == TAG_PACKETS)
        s->left--;
    else if (s->metric == TAG_BYTES)
        s->left = s->left > p->wirelen ? s->left - p->wirelen : 0;
    return true;
}

static uint32_t addr_hash(const uint8_t a[16])
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < 16; i++)
        h = (h ^ a[i]) * 16777619u;
    return h;
}

/* The host's tag, or NULL; with room, the first free slot on the way. */
static struct host_tag *host_find(struct det_tags *t, const uint8_t a[16], uint64_t now,
                                  struct host_tag **room)
{
    uint32_t h = addr_hash(a);
    if (room)
        *room = NULL;
    for (uint32_t i = 0; i < TAG_PROBE; i++) {
        struct host_tag *e = &t->e[(h + i) & (TAG_SLOTS - 1)];
        if (e->used == 1 && !memcmp(e->addr, a, 16)) {
            if (state_live(&e->s, now))
                return e;
            e->used = 2; /* ended: its slot can be used again */
            t->live--;
        }
        if (room && !*room && e->used != 1)
            *room = e;
        if (!e->used)
            break;
    }
    return NULL;
}

void det_tag_start(struct det_tags *t, struct det_tag_state *session, const struct opt_tag *o,
                   const struct mon_packet *p)
{
    if (o->kind == TAG_SESSION) {
        if (session)
            state_start(session, o, p);
        return;
    }
    if (!t || !p->ipver)
        return;
    const uint8_t *a = o->dir ? p->dst.b : p->src.b;
    struct host_tag *room, *e = host_find(t, a, p->ts_us, &room);
    if (!e) {
        if (!(e = room)) {
            t->full++;
            return;
        }
        memset(e, 0, sizeof *e);
        e->used = 1;
        memcpy(e->addr, a, 16);
        t->live++;
    }
    state_start(&e->s, o, p);
}

bool det_tag_packet(struct det_tags *t, struct det_tag_state *session,
                    const struct mon_packet *p)
{
    bool tagged = session && state_take(session, p);
    if (!t || !t->live || !p->ipver)
        return tagged;
    struct host_tag *s = host_find(t, p->src.b, p->ts_us, NULL);
    struct host_tag *d = host_find(t, p->dst.b, p->ts_us, NULL);
    if (s)
        tagged |= state_take(&s->s, p);
    if (d && d != s)
        tagged |= state_take(&d->s, p);
    return tagged;
}
