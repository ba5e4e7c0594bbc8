/* fuzz_flow.c — libFuzzer target: flow tracking, the TCP state machine and reassembly, on
 * sequences of segments of both directions, through libmon's public API (mon_process).
 *
 * Input: two options bytes, then records. Options byte 0: bit 0 midstream pick-up, bit 1
 * one-sided flows accepted, bits 2-4 the overlap policy, bit 5 small buffers (512 bytes,
 * depth 2000), bit 6 IPv6, bit 7 a tight reassembly memcap (4 KiB with small buffers, else
 * 12 KiB: room for a few of the 8 streams' rings, so buffers are refused and held out-of-order
 * data reclaimed). Byte 1: bits 0-1 the urgent
 * policy, bit 2 at most 4 out-of-order runs per side, bit 3 a flow memcap of a few flows
 * (eviction), bit 4 start sequence numbers just below 2^32 (wrap-around).
 * Each record is 9 control bytes and data:
 *   ctl    bit 0 server to client (else client to server), bits 1-2 which of 4 connections
 *          (client port), bit 3 advance the sender's next sequence by the segment, bit 4 a
 *          zero window, bit 5 mon_tick after the segment, bit 6 urgent pointer = len / 2
 *   flags  the TCP flags as on the wire
 *   dseq   2 bytes, signed: seq = the sender's next sequence + dseq (retransmits, holes)
 *   dack   2 bytes, signed: ack = the peer's next sequence + dack
 *   dt     time since the previous segment: < 128 in 10 ms, else (dt - 128) minutes
 *   topt   TCP options: bit 0 timestamps, bit 1 window scale (bits 4-7 the shift), bit 2
 *          MSS, bit 3 SACK-permitted
 *   len    the data bytes that follow (cut at the input's end)
 * A socket reads every connection's new data (mon_peek until empty, mon_ppeek at the oldest
 * held byte and of every out-of-order run) and its buffer and error state on every event.
 * A fresh engine and context per input keep inputs independent; mon_ctx_destroy ends every
 * flow. The sanitizers do the checking. Run it with tools/fuzz/run.sh flow.
 */
#include <stdlib.h>

#include "fuzz_stack.h"
#include "mon_tcp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t rd[4096];

/* Every held byte of side: in order through mon_peek, out of order through mon_ppeek. */
static void on_data(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ev, (void)arg;
    ssize_t n;
    int guard = 0;
    while ((n = mon_peek(ctx, f, side, rd, sizeof rd)) != 0 && guard++ < 64)
        if (n > 0)
            fz_touch(rd, (uint32_t)n);
    struct mon_buf_info bi;
    size_t len = sizeof bi;
    if (mon_getsockopt(ctx, f, side, MON_SO_BUF_INFO, &bi, &len) == 0 && bi.size &&
        (n = mon_ppeek(ctx, f, side, rd, sizeof rd, bi.head_off)) > 0)
        fz_touch(rd, (uint32_t)n);
    struct mon_frag fr[8];
    len = sizeof fr;
    if (mon_getsockopt(ctx, f, side, MON_SO_FRAGS, fr, &len) == 0)
        for (size_t i = 0; i < len / sizeof fr[0] && i < 8; i++)
            if ((n = mon_ppeek(ctx, f, side, rd, sizeof rd, fr[i].off)) > 0)
                fz_touch(rd, (uint32_t)n);
}

/* Any other event: the side's state and errors. */
static void on_event(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)arg;
    fz_sink += ev;
    if (!f)
        return;
    int st;
    uint32_t err;
    size_t len = sizeof st;
    if (mon_getsockopt(ctx, f, side, MON_SO_TCP_STATE, &st, &len) == 0)
        fz_sink += (uint32_t)st;
    len = sizeof err;
    if (mon_getsockopt(ctx, f, side, MON_SO_ERROR, &err, &len) == 0)
        fz_sink += err;
}

static struct mon_ctx *setup(struct mon_engine **eng, uint8_t o0, uint8_t o1)
{
    struct mon_engine_cfg cfg;
    mon_engine_cfg_defaults(&cfg);
    cfg.decode.checksum_mode = MON_CSUM_NONE;
    cfg.flow.hash_size = 16;
    cfg.flow.prealloc = 4;
    cfg.flow.hash_seed = 1;
    /* a small table: the hash may be sized from the memcap, and one is made per input */
    cfg.flow.memcap = (o1 & 8) ? 4096 : (1u << 20);
    cfg.tcp.midstream = o0 & 1;
    cfg.tcp.async_oneside = (o0 & 2) != 0;
    cfg.tcp.policy.dflt = (enum mon_overlap_policy)(((o0 >> 2) & 7) % MON_POLICY__COUNT);
    if (o0 & 32) {
        cfg.tcp.buf_size = 512;
        cfg.tcp.depth = 2000;
    }
    if (o0 & 128) /* a few rings for 8 streams: buffers refused and held data reclaimed */
        cfg.tcp.memcap = (o0 & 32) ? 4096 : 12288;
    cfg.tcp.urgent_policy = (uint8_t)((o1 & 3) % 3);
    if (o1 & 4)
        cfg.tcp.max_frags = 4;
    *eng = mon_engine_create(&cfg);
    if (!*eng)
        return NULL;
    if (mon_engine_freeze(*eng) != MON_OK)
        return NULL;
    struct mon_ctx *ctx = mon_ctx_create(*eng, 0);
    struct mon_sock *s = ctx ? mon_socket(ctx, MON_SOCK_STREAM, "tcp") : NULL;
    if (!s)
        return ctx;
    mon_register(ctx, s, MON_ON_CONN_NEW_DATA, MON_HK_RCV, on_data, NULL);
    static const mon_event_t others[] = {MON_ON_CONN_START, MON_ON_REXMIT, MON_ON_TCP_STATE_CHANGE,
                                         MON_ON_CONN_END, MON_ON_ERROR, MON_ON_DEPTH,
                                         MON_ON_ONE_SIDED, MON_ON_TIMEOUT};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        mon_register(ctx, s, others[i], MON_HK_ANY, on_event, NULL);
    return ctx;
}

/* The TCP header (and options) of a segment at b; returns its length. */
static uint32_t tcp_header(uint8_t *b, uint16_t sport, uint16_t dport, uint32_t seq, uint32_t ack,
                           uint8_t flags, uint16_t win, uint16_t urp, uint8_t topt, uint32_t tsval)
{
    uint32_t h = 20;
    uint8_t *o = b + 20;
    if (topt & 4)
        o[0] = 2, o[1] = 4, fz_be16(o + 2, 1460), o += 4, h += 4;
    if (topt & 2)
        o[0] = 1, o[1] = 3, o[2] = 3, o[3] = (uint8_t)(topt >> 4), o += 4, h += 4;
    if (topt & 8)
        o[0] = 1, o[1] = 1, o[2] = 4, o[3] = 2, o += 4, h += 4;
    if (topt & 1)
        o[0] = 1, o[1] = 1, o[2] = 8, o[3] = 10, fz_be32(o + 4, tsval), fz_be32(o + 8, tsval / 2),
        o += 12, h += 12;
    fz_be16(b, sport);
    fz_be16(b + 2, dport);
    fz_be32(b + 4, seq);
    fz_be32(b + 8, ack);
    b[12] = (uint8_t)((h / 4) << 4);
    b[13] = flags;
    fz_be16(b + 14, win);
    fz_be16(b + 16, 0);
    fz_be16(b + 18, urp);
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    uint8_t o0 = data[0], o1 = data[1];
    bool v6 = (o0 & 64) != 0;
    struct mon_engine *eng = NULL;
    struct mon_ctx *ctx = setup(&eng, o0, o1);
    if (!ctx) {
        mon_engine_destroy(eng);
        return 0;
    }
    uint32_t nxt[4][2]; /* the next sequence each side of each connection sends */
    for (int c = 0; c < 4; c++) {
        nxt[c][0] = (o1 & 16) ? 0xfffffff0u - (uint32_t)c * 100 : 1000u + (uint32_t)c * 7919;
        nxt[c][1] = (o1 & 16) ? 0xffffff00u : 500000u + (uint32_t)c * 104729;
    }
    uint64_t ts = 1000000, num = 0;
    size_t at = 2;
    while (at + 9 <= size) {
        const uint8_t *r = data + at;
        uint8_t ctl = r[0], flags = r[1];
        int16_t dseq = (int16_t)(r[2] << 8 | r[3]), dack = (int16_t)(r[4] << 8 | r[5]);
        uint8_t dt = r[6], topt = r[7];
        uint32_t n = r[8];
        at += 9;
        if (n > size - at)
            n = (uint32_t)(size - at);
        ts += dt < 128 ? (uint64_t)dt * 10000 : (uint64_t)(dt - 128) * 60000000;
        int dir = ctl & 1, c = (ctl >> 1) & 3;
        uint16_t cport = (uint16_t)(40000 + c), sport = dir ? 80 : cport, dport = dir ? cport : 80;
        uint32_t seq = nxt[c][dir] + (uint32_t)(int32_t)dseq;
        uint32_t ack = nxt[c][!dir] + (uint32_t)(int32_t)dack;
        uint8_t buf[40 + 60 + 255];
        uint32_t ip = v6 ? 40 : 20;
        uint32_t th = tcp_header(buf + ip, sport, dport, seq, ack, flags,
                                 (ctl & 16) ? 0 : 65535, (ctl & 64) ? (uint16_t)(n / 2) : 0, topt,
                                 (uint32_t)(ts / 1000));
        memcpy(buf + ip + th, data + at, n);
        at += n;
        uint32_t len = ip + th + n;
        uint8_t a = (uint8_t)(1 + c), b = 100;
        if (v6)
            fz_ipv6(buf, th + n, 6, dir ? b : a, dir ? a : b);
        else
            fz_ipv4(buf, len, (uint16_t)num, 0, 6, 0x0a000000u | (dir ? b : a),
                    0x0a000000u | (dir ? a : b));
        if (ctl & 8)
            nxt[c][dir] = seq + n + ((flags & 2) ? 1 : 0) + ((flags & 1) ? 1 : 0);
        /* the frame in a buffer of its own size, so ASan sees a read past it */
        uint8_t *frame = malloc(len);
        if (!frame)
            break;
        memcpy(frame, buf, len);
        struct mon_packet p;
        memset(&p, 0, sizeof p);
        p.frame = frame;
        p.caplen = p.wirelen = len;
        p.linktype = 12; /* DLT_RAW */
        p.ts_us = ts;
        p.num = ++num;
        fz_sink += (uint32_t)mon_process(ctx, &p);
        free(frame);
        if (ctl & 32)
            mon_tick(ctx, ts);
    }
    mon_ctx_destroy(ctx);
    mon_engine_destroy(eng);
    return 0;
}
