/* fuzz_stack.h — what libmon's libFuzzer targets share (stack/fuzz/fuzz_*.c): the link types
 * a one-byte selector picks, reading every view a decoded packet holds to its last byte (so
 * ASan sees any view that points past its frame or defrag buffer), and writers of the IPv4,
 * IPv6 and TCP headers the sequence targets build their frames from. Header-only; not API. */
#ifndef MON_FUZZ_STACK_H
#define MON_FUZZ_STACK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mon.h"

static volatile uint32_t fz_sink;

/* Every link type mon_decode supports (decode/decode_internal.h's DEC_DLT_*), and one it
 * does not: a selector byte indexes this modulo its length. */
static const int FZ_LINKTYPES[] = {1, 0, 9, 10, 12, 14, 50, 51, 101, 104, 108, 113, 228, 229,
                                   239, 276, 147};
#define FZ_NLINKTYPES (sizeof FZ_LINKTYPES / sizeof FZ_LINKTYPES[0])

static inline void fz_touch(const uint8_t *b, uint32_t len)
{
    for (uint32_t i = 0; b && i < len; i++)
        fz_sink += b[i];
}

/* Read every byte each view of p points at: its layers, IP datagram, transport, payload. */
static inline void fz_read_packet(const struct mon_packet *p)
{
    for (uint8_t i = 0; i < p->nlayers && i < MON_MAX_LAYERS; i++) {
        fz_touch(p->layer[i].hdr, p->layer[i].len);
        fz_sink += (uint32_t)mon_layer_name((enum mon_layer_kind)p->layer[i].kind)[0];
    }
    for (uint8_t i = 0; i < p->ntunnels && i < MON_MAX_TUNNELS; i++)
        fz_sink += (uint32_t)mon_tunnel_name((enum mon_tunnel_kind)p->tunnel[i])[0];
    fz_touch(p->l3, p->l3_len);
    fz_touch(p->l4, p->l4_len);
    fz_touch(p->payload, p->payload_len);
    fz_sink += p->sport + p->dport + p->tcp_seq + p->anomaly + p->decode_notes;
}

/* Internet checksum of b[0..n) added to sum (not folded). */
static inline uint32_t fz_sum(uint32_t sum, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i + 1 < n; i += 2)
        sum += (uint32_t)(b[i] << 8 | b[i + 1]);
    if (n & 1)
        sum += (uint32_t)b[n - 1] << 8;
    return sum;
}

static inline uint16_t fz_fold(uint32_t sum)
{
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return (uint16_t)~sum;
}

static inline void fz_be16(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)(v >> 8);
    b[1] = (uint8_t)v;
}

static inline void fz_be32(uint8_t *b, uint32_t v)
{
    fz_be16(b, v >> 16);
    fz_be16(b + 2, v);
}

/* A 20-byte IPv4 header at b: total length tot, the fragment field frag (flags and offset in
 * 8-byte units, as on the wire), with a correct header checksum. */
static inline void fz_ipv4(uint8_t *b, uint32_t tot, uint16_t id, uint16_t frag, uint8_t proto,
                           uint32_t src, uint32_t dst)
{
    memset(b, 0, 20);
    b[0] = 0x45;
    fz_be16(b + 2, tot);
    fz_be16(b + 4, id);
    fz_be16(b + 6, frag);
    b[8] = 64;
    b[9] = proto;
    fz_be32(b + 12, src);
    fz_be32(b + 16, dst);
    fz_be16(b + 10, fz_fold(fz_sum(0, b, 20)));
}

/* A 40-byte IPv6 header at b: payload length plen, next header nh, addresses ::s and ::d. */
static inline void fz_ipv6(uint8_t *b, uint32_t plen, uint8_t nh, uint8_t s, uint8_t d)
{
    memset(b, 0, 40);
    b[0] = 0x60;
    fz_be16(b + 4, plen);
    b[6] = nh;
    b[7] = 64;
    b[8] = 0x20, b[9] = 0x01, b[23] = s;
    b[24] = 0x20, b[25] = 0x01, b[39] = d;
}

#endif
