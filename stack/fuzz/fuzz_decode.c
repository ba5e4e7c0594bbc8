/* fuzz_decode.c — libFuzzer target: libmon's decoder, every link type and tunnel, on one frame.
 *
 * Input: a link-type byte (index into FZ_LINKTYPES, fuzz_stack.h), an options byte, then the
 * frame. Options: bits 0-1 checksum mode (none/all/auto), bit 2 every UDP tunnel off (VXLAN,
 * Geneve, Teredo, GTP-U, GRE- and MPLS-in-UDP are on by default here, on their standard
 * ports), bit 3 no defrag (fragments are counted only), bits 4-7 the tunnel depth limit
 * (0 = the default). The frame is decoded with a defrag attached, so a fragment inside a
 * tunnel is held; the packet's every view is then read to its last byte. The decoder state
 * lives across inputs (defrag is flushed by a far-future expiry after each input), as on a
 * worker. The sanitizers do the checking. Run it with tools/fuzz/run.sh decode.
 */
#include <stdlib.h>

#include "fuzz_stack.h"
#include "mon_decode.h"
#include "mon_defrag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct mon_defrag *defrag;

static void enable_all(struct mon_decode_cfg *c, bool on)
{
    c->vxlan_enabled = c->geneve_enabled = c->teredo_enabled = on;
    c->gtpu_enabled = c->gre_udp_enabled = c->mpls_udp_enabled = on;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    if (!defrag) {
        struct mon_defrag_cfg dc;
        mon_defrag_cfg_defaults(&dc);
        dc.memcap = 4u << 20;
        dc.max_trackers = 256;
        if (!(defrag = mon_defrag_create(&dc)))
            abort();
    }
    uint8_t opt = data[1];
    struct mon_decode_cfg cfg;
    mon_decode_cfg_defaults(&cfg);
    cfg.checksum_mode = (uint8_t)((opt & 3) % 3);
    enable_all(&cfg, !(opt & 4));
    if (opt >> 4)
        cfg.max_tunnel_depth = (uint8_t)(opt >> 4);
    struct mon_decoder d;
    mon_decoder_init(&d, &cfg, (opt & 8) ? NULL : defrag);
    /* the frame in a buffer of its own size, so ASan sees a read one byte past it */
    size_t n = size - 2;
    uint8_t *frame = malloc(n ? n : 1);
    if (!frame)
        return 0;
    memcpy(frame, data + 2, n);
    struct mon_packet p;
    memset(&p, 0, sizeof p);
    p.frame = frame;
    p.caplen = (uint32_t)n;
    p.wirelen = (uint32_t)n;
    p.linktype = FZ_LINKTYPES[data[0] % FZ_NLINKTYPES];
    p.ts_us = 1000000;
    p.num = 1;
    mon_defrag_begin_packet(defrag);
    enum mon_decode_outcome oc = mon_decode(&d, &p);
    fz_sink += (uint32_t)oc + (uint32_t)mon_decode_outcome_name(oc)[0];
    fz_read_packet(&p);
    if (p.anomaly)
        fz_sink += (uint32_t)mon_decode_event_name((enum mon_decode_event)(p.anomaly - 1))[0];
    free(frame);
    /* nothing held survives the input: inputs stay independent */
    mon_defrag_begin_packet(defrag);
    mon_defrag_expire(defrag, UINT64_MAX / 2, &d.stats);
    return 0;
}
