/* fuzz_defrag.c — libFuzzer target: IPv4/IPv6 defragmentation on sequences of fragments.
 *
 * Input: an options byte, then records. Options: bit 0 IPv6 (else IPv4), bits 1-3 the
 * overlap policy (modulo the policies), bit 4 a tiny memcap (the shedding path), bit 5 at
 * most 4 fragments per datagram, bit 6 at most 2 datagrams in reassembly.
 * Each record is 5 control bytes and data:
 *   ctl     bit 0 more-fragments, bits 1-2 which of 4 datagrams (id and addresses), bit 3
 *           UDP (else TCP) as the protocol, bit 4 the header claims 8 bytes more than are
 *           captured, bit 5 IPv6: a hop-by-hop header before the fragment header, bit 6
 *           IPv6: a second fragment header (an anomaly), bit 7 swap the addresses
 *   off     2 bytes: the fragment offset in 8-byte units (13 bits)
 *   len     the data bytes that follow (cut at the input's end)
 *   dt      time since the previous fragment, in half seconds (the timeout is 60 s)
 * Each fragment is built as a raw IP frame and decoded (mon_decode, DLT_RAW) with the
 * defragmenter attached, so a completed datagram is decoded on, as on a worker; every view of
 * every packet is read back. A fresh defragmenter per input keeps inputs independent. Run it
 * with tools/fuzz/run.sh defrag.
 */
#include <stdlib.h>

#include "fuzz_stack.h"
#include "mon_decode.h"
#include "mon_defrag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_MAX_FRAME (40 + 8 + 8 + 8 + 255 + 8)

/* Build one fragment of the record into b; returns its captured length. */
static uint32_t build(uint8_t *b, bool v6, uint8_t ctl, uint16_t off, const uint8_t *d,
                      uint32_t n)
{
    uint8_t which = (uint8_t)((ctl >> 1) & 3);
    uint8_t proto = (ctl & 8) ? 17 : 6;
    uint8_t s = (uint8_t)(1 + which), t = 100;
    if (ctl & 0x80) {
        uint8_t x = s;
        s = t, t = x;
    }
    uint32_t extra = (ctl & 16) ? 8 : 0; /* claimed but not captured */
    uint16_t frag = (uint16_t)((off & 0x1fff) << (v6 ? 3 : 0));
    if (!v6) {
        frag |= (ctl & 1) ? 0x2000 : 0;
        fz_ipv4(b, 20 + n + extra, (uint16_t)(0x1000 + which), frag, proto, 0x0a000000u | s,
                0x0a000000u | t);
        memcpy(b + 20, d, n);
        return 20 + n;
    }
    frag |= (ctl & 1) ? 1 : 0;
    uint32_t at = 40;
    uint8_t *nh = b + 6; /* the next-header byte naming what follows */
    fz_ipv6(b, 0, 0, s, t);
    if (ctl & 32) { /* hop-by-hop options: 8 bytes of padding */
        *nh = 0;
        memset(b + at, 0, 8);
        b[at + 2] = 1, b[at + 3] = 4; /* PadN of 4 bytes after a 2-byte header */
        nh = b + at;
        at += 8;
    }
    int nfrag = (ctl & 64) ? 2 : 1;
    for (int i = 0; i < nfrag; i++) {
        *nh = 44;
        memset(b + at, 0, 8);
        fz_be16(b + at + 2, frag);
        fz_be32(b + at + 4, 0x2000u + which);
        nh = b + at;
        at += 8;
    }
    *nh = proto;
    memcpy(b + at, d, n);
    fz_be16(b + 4, at - 40 + n + extra);
    return at + n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    bool v6 = opt & 1;
    struct mon_defrag_cfg dc;
    mon_defrag_cfg_defaults(&dc);
    dc.policy.dflt = (enum mon_overlap_policy)(((opt >> 1) & 7) % MON_POLICY__COUNT);
    dc.memcap = (opt & 16) ? 2048 : (1u << 20);
    if (opt & 32)
        dc.max_frags = 4;
    dc.max_trackers = (opt & 64) ? 2 : 64;
    struct mon_defrag *df = mon_defrag_create(&dc);
    if (!df)
        return 0;
    struct mon_decode_cfg cfg;
    mon_decode_cfg_defaults(&cfg);
    cfg.checksum_mode = MON_CSUM_NONE;
    struct mon_decoder d;
    mon_decoder_init(&d, &cfg, df);
    uint64_t ts = 1000000;
    uint64_t num = 0;
    size_t at = 1;
    while (at + 5 <= size) {
        uint8_t ctl = data[at];
        uint16_t off = (uint16_t)(data[at + 1] << 8 | data[at + 2]);
        uint32_t n = data[at + 3];
        ts += (uint64_t)data[at + 4] * 500000;
        at += 5;
        if (n > size - at)
            n = (uint32_t)(size - at);
        uint8_t buf[FZ_MAX_FRAME];
        uint32_t len = build(buf, v6, ctl, off, data + at, n);
        at += n;
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
        mon_defrag_begin_packet(df);
        mon_defrag_expire(df, ts, &d.stats);
        fz_sink += (uint32_t)mon_decode(&d, &p);
        fz_read_packet(&p);
        free(frame);
    }
    const struct mon_defrag_stats *st = mon_defrag_stats(df);
    fz_sink += (uint32_t)(st->reassembled + st->memuse + st->overlaps);
    mon_defrag_destroy(df);
    return 0;
}
