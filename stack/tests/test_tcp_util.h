/* test_tcp_util.h — drive stack/tcp directly, the way stack/core does for each TCP packet:
 * tcp_conn_init on the flow's first packet, then sender update, rexmit check, receiver
 * update (skipping a stopped side, and the rest after an ORPHAN). */
#ifndef TEST_TCP_UTIL_H
#define TEST_TCP_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "tcp_contract_internal.h"
#include "unit.h"

#define CLI MON_SIDE_CLI
#define SVR MON_SIDE_SVR
#define EV_START TCP_EV(MON_ON_CONN_START)
#define EV_SC TCP_EV(MON_ON_TCP_STATE_CHANGE)
#define EV_DATA TCP_EV(MON_ON_CONN_NEW_DATA)
#define EV_END TCP_EV(MON_ON_CONN_END)
#define EV_ORPHAN TCP_EV(MON_ON_ORPHAN)
#define EV_ERR TCP_EV(MON_ON_ERROR)
#define EV_DEPTH TCP_EV(MON_ON_DEPTH)

#define F_S MON_TH_SYN
#define F_A MON_TH_ACK
#define F_F MON_TH_FIN
#define F_R MON_TH_RST
#define F_P MON_TH_PUSH

struct tconn {
    struct tcp_ctx t;
    struct mon_flow f;
    bool started, live;
    uint16_t win[2];     /* window each side advertises */
    uint8_t wscale[2];   /* window scale option each side puts in its SYN (0xff none) */
};

/* What one packet raised: phase 1 bits, phase 2 verdict, phase 3 bits. */
struct ph {
    uint32_t snd, rcv;
    bool rx;
};

static inline void tc_init(struct tconn *c, const struct mon_tcp_cfg *cfg)
{
    memset(c, 0, sizeof *c);
    struct mon_tcp_cfg d;
    if (!cfg) {
        mon_tcp_cfg_defaults(&d);
        cfg = &d;
    }
    tcp_ctx_init(&c->t, cfg);
    c->f.proto = 6;
    c->f.ipver = 4;
    c->f.cli.b[0] = 10, c->f.cli.b[3] = 1;
    c->f.srv.b[0] = 10, c->f.srv.b[3] = 2;
    c->win[0] = c->win[1] = 65535;
    c->wscale[0] = c->wscale[1] = 0xff;
}

static inline void tc_free(struct tconn *c)
{
    tcp_conn_free(&c->t, &c->f);
}

static inline struct ph tc_pkt(struct tconn *c, int from, uint8_t flags, uint32_t seq,
                               uint32_t ack, const void *data, uint32_t len)
{
    struct mon_packet p;
    memset(&p, 0, sizeof p);
    p.ipver = 4;
    p.proto = 6;
    p.tcp_flags = flags;
    p.tcp_seq = seq;
    p.tcp_ack = ack;
    p.tcp_win = c->win[from];
    p.tcp_wscale = (flags & F_S) ? c->wscale[from] : 0xff;
    p.payload = data;
    p.payload_len = len;
    p.src = from == CLI ? c->f.cli : c->f.srv;
    p.dst = from == CLI ? c->f.srv : c->f.cli;
    struct ph r = {0};
    if (!c->started) {
        c->started = true;
        r.snd = tcp_conn_init(&c->t, &c->f, from == CLI ? MON_FLOW_TO_SERVER : MON_FLOW_TO_CLIENT, &p);
        c->live = r.snd & EV_START;
        if (!c->live)
            return r;
    } else if (!c->live) {
        r.snd = EV_ORPHAN;
        return r;
    }
    if (!(c->f.tcp.side[from].flags & MON_TCPF_STOPPED)) {
        r.snd |= tcp_sender_update(&c->t, &c->f, from, &p);
        if (c->t.cfg.ack_delivery)
            tcp_ack_ready(&c->t, &c->f, from);
    }
    if (r.snd & EV_ORPHAN)
        return r;
    if (!(c->f.tcp.side[from ^ 1].flags & MON_TCPF_STOPPED)) {
        r.rx = tcp_is_rexmit(&c->t, &c->f, from, &p);
        r.rcv = tcp_receiver_update(&c->t, &c->f, from, &p);
    }
    return r;
}

static inline int tc_state(struct tconn *c, int side)
{
    return c->f.tcp.side[side].state;
}

/* Read everything mon_peek gives now (stops at 0 or an error). Returns bytes read. */
static inline size_t tc_read(struct tconn *c, int side, char *out, size_t max)
{
    size_t n = 0;
    for (;;) {
        ssize_t k = tcp_peek(&c->t, &c->f, side, out + n, max - n);
        if (k <= 0)
            break;
        n += (size_t)k;
    }
    out[n < max ? n : max - 1] = 0;
    return n;
}

static inline uint32_t tc_err(struct tconn *c, int side)
{
    uint32_t v = 0;
    size_t len = sizeof v;
    tcp_getsockopt(&c->t, &c->f, side, MON_SO_ERROR, &v, &len);
    return v;
}

/* The 3-way handshake: client ISN ci, server ISN si. */
static inline void tc_handshake(struct tconn *c, uint32_t ci, uint32_t si)
{
    tc_pkt(c, CLI, F_S, ci, 0, NULL, 0);
    tc_pkt(c, SVR, F_S | F_A, si, ci + 1, NULL, 0);
    tc_pkt(c, CLI, F_A, ci + 1, si + 1, NULL, 0);
}

#endif
