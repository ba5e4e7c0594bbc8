/* frames.h — build small Ethernet/IPv4/TCP and UDP frames for unit tests (checksums left
 * zero: tests run with checksum validation off). */
#ifndef MON_TEST_FRAMES_H
#define MON_TEST_FRAMES_H

#include <stdint.h>
#include <string.h>

#include "mon_packet.h"

struct test_frame {
    uint8_t b[1600];
    struct mon_packet p;
};

static inline void tf_put16(uint8_t *b, uint16_t v) { b[0] = (uint8_t)(v >> 8); b[1] = (uint8_t)v; }
static inline void tf_put32(uint8_t *b, uint32_t v)
{
    tf_put16(b, (uint16_t)(v >> 16));
    tf_put16(b + 2, (uint16_t)v);
}

/* src/dst are host-order IPv4 addresses. proto 6 or 17. Returns the packet ready for
 * mon_process (linktype Ethernet). */
static inline struct mon_packet *tf_build(struct test_frame *t, uint32_t src, uint16_t sport,
                                          uint32_t dst, uint16_t dport, uint8_t proto,
                                          uint8_t tcp_flags, uint32_t seq, uint32_t ack,
                                          const char *payload, uint64_t ts_us)
{
    size_t plen = payload ? strlen(payload) : 0;
    size_t l4 = proto == 6 ? 20 : 8;
    memset(t, 0, sizeof *t);
    uint8_t *e = t->b;
    e[0] = 2, e[6] = 2, e[11] = 1;    /* MACs */
    tf_put16(e + 12, 0x0800);
    uint8_t *ip = e + 14;
    ip[0] = 0x45;
    tf_put16(ip + 2, (uint16_t)(20 + l4 + plen));
    ip[8] = 64;
    ip[9] = proto;
    tf_put32(ip + 12, src);
    tf_put32(ip + 16, dst);
    uint8_t *th = ip + 20;
    tf_put16(th, sport);
    tf_put16(th + 2, dport);
    if (proto == 6) {
        tf_put32(th + 4, seq);
        tf_put32(th + 8, ack);
        th[12] = 5 << 4;
        th[13] = tcp_flags;
        tf_put16(th + 14, 65535);
    } else {
        tf_put16(th + 4, (uint16_t)(8 + plen));
    }
    memcpy(th + l4, payload ? payload : "", plen);
    struct mon_packet *p = &t->p;
    p->frame = t->b;
    p->caplen = p->wirelen = (uint32_t)(14 + 20 + l4 + plen);
    p->linktype = 1;
    p->ts_us = ts_us;
    return p;
}

#endif
