/* framing.h — messages a length prefix frames over a stream (LDAP's BER, MQTT's fixed header):
 * one direction's bytes, any segment boundary, cut into whole messages with the partial one
 * kept (bounded) for the next segment, and a message longer than the protocol's limit
 * skipped past. The protocol says how a header reads and what a message, an over-long one
 * and a bad header do. Internal to parsers/. */
#ifndef OSPREY_PARSERS_FRAMING_H
#define OSPREY_PARSERS_FRAMING_H

#include "parsers_int.h"

/* One direction's framing state (zero it to start). */
struct pframe {
    struct pbuf buf;                /* a message cut by the segment, bounded */
    uint64_t skip;                  /* bytes of an over-long message still to skip */
    bool lost;                      /* bytes were lost (pframe_gap): chunks are passed over
                                       until one the protocol's `resyncs` takes */
};

struct pframe_ops {
    /* The header at p[0..n): 1 with its length *hlen and the bytes after it *body; 0 when
     * more bytes are needed to tell; -1 when it is no header of the protocol's. */
    int (*header)(const uint8_t *p, size_t n, uint32_t *hlen, uint64_t *body);
    uint32_t header_max;            /* bytes a header takes at most (a longer one is bad) */
    uint32_t max;                   /* a longer message is skipped (over_long, then skip) */
    bool max_is_body;               /* max counts the bytes after the header only */
    /* A whole message p[0..hlen + body). false: the direction is given up. */
    bool (*message)(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *p,
                    uint32_t hlen, uint32_t body);
    /* A message past max: its header p[0..hlen) only; its body bytes are skipped. */
    void (*over_long)(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *p,
                      uint32_t hlen, uint64_t body);
    /* A bad header: counted, its anomaly raised (the direction is then given up). */
    void (*bad)(struct pflow *pf, struct mon_flow *f, int dir);
    /* After a gap: does a chunk starting at d[0..n) start in step (a whole message, as
     * Suricata's resync asks)? NULL: the protocol takes no gaps (no pframe_gap). */
    bool (*resyncs)(const uint8_t *d, size_t n);
};

/* Bytes d[0..n) of direction dir into fr's messages; pf->dead[dir] when given up. */
void pframe_feed(struct pframe *fr, const struct pframe_ops *ops, struct pflow *pf,
                 struct mon_flow *f, int dir, const uint8_t *d, size_t n);

/* Bytes of the direction were lost: the message the hole cut is dropped, and the chunks
 * after it are passed over until ops->resyncs takes one (a protocol's gap callback). */
void pframe_gap(struct pframe *fr);

/* The connection closed: a message cut at the close never completes. */
void pframe_free(struct pframe *fr);

#endif
