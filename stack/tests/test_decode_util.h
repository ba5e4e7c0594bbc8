/* test_decode_util.h — frame builder and checks shared by the decoder unit tests.
 *
 * Frames are built front to back; headers with a length or checksum are opened with
 * *_begin() (which returns their offset) and closed with *_end() once their payload is in.
 * Checksums are computed here independently of stack/decode/checksum.c. */
#ifndef TEST_DECODE_UTIL_H
#define TEST_DECODE_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mon_decode.h"
#include "mon_packet.h"

static int failures;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__,   \
                    __func__, #cond);                                               \
            failures++;                                                             \
        }                                                                           \
    } while (0)

#define CHECK_EQ(a, b)                                                              \
    do {                                                                            \
        long long a_ = (long long)(a), b_ = (long long)(b);                         \
        if (a_ != b_) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s == %lld, expected %s == %lld\n", __FILE__,\
                    __LINE__, __func__, #a, a_, #b, b_);                            \
            failures++;                                                             \
        }                                                                           \
    } while (0)

struct fb {
    uint8_t b[70000];
    uint32_t n;
};

static inline void put8(struct fb *f, uint8_t v) { f->b[f->n++] = v; }
static inline void put16(struct fb *f, uint16_t v) { put8(f, (uint8_t)(v >> 8)); put8(f, (uint8_t)v); }
static inline void put32(struct fb *f, uint32_t v) { put16(f, (uint16_t)(v >> 16)); put16(f, (uint16_t)v); }
static inline void putn(struct fb *f, const void *p, uint32_t n)
{
    if (n)
        memcpy(f->b + f->n, p, n);
    f->n += n;
}
static inline void zeros(struct fb *f, uint32_t n) { memset(f->b + f->n, 0, n); f->n += n; }
static inline void set16(struct fb *f, uint32_t off, uint16_t v)
{
    f->b[off] = (uint8_t)(v >> 8);
    f->b[off + 1] = (uint8_t)v;
}
static inline uint16_t get16(const struct fb *f, uint32_t off)
{
    return (uint16_t)(f->b[off] << 8 | f->b[off + 1]);
}

static inline uint32_t sum16(const uint8_t *b, uint32_t n)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += (i & 1) ? b[i] : (uint32_t)b[i] << 8;
    return s;
}
static inline uint16_t fold(uint32_t s)
{
    while (s >> 16)
        s = (s & 0xffff) + (s >> 16);
    return (uint16_t)~s;
}

static inline void eth(struct fb *f, uint16_t type)
{
    static const uint8_t macs[12] = {0, 1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10};
    putn(f, macs, 12);
    put16(f, type);
}

static inline void vlan(struct fb *f, uint16_t id, uint16_t type)
{
    put16(f, id);
    put16(f, type);
}

/* 10.0.0.<a> */
static inline uint32_t ipv4_begin(struct fb *f, uint8_t proto, uint8_t a_src, uint8_t a_dst)
{
    uint32_t off = f->n;
    put8(f, 0x45); put8(f, 0); put16(f, 0); put16(f, 1); put16(f, 0);
    put8(f, 64); put8(f, proto); put16(f, 0);
    put32(f, 0x0a000000u | a_src);
    put32(f, 0x0a000000u | a_dst);
    return off;
}
static inline void ipv4_end(struct fb *f, uint32_t off)
{
    uint32_t hlen = (f->b[off] & 0x0f) * 4u;
    set16(f, off + 2, (uint16_t)(f->n - off));
    set16(f, off + 10, 0);
    set16(f, off + 10, fold(sum16(f->b + off, hlen)));
}

/* 2001:db8::<a> */
static inline uint32_t ipv6_begin(struct fb *f, uint8_t nh, uint8_t a_src, uint8_t a_dst)
{
    uint32_t off = f->n;
    put32(f, 0x60000000u); put16(f, 0); put8(f, nh); put8(f, 64);
    put32(f, 0x20010db8u); zeros(f, 11); put8(f, a_src);
    put32(f, 0x20010db8u); zeros(f, 11); put8(f, a_dst);
    return off;
}
static inline void ipv6_end(struct fb *f, uint32_t off) { set16(f, off + 4, (uint16_t)(f->n - off - 40)); }

/* Pseudo-header sum for a transport header at l4 inside the IP header at ip. */
static inline uint32_t pseudo(const struct fb *f, uint32_t ip, uint8_t proto, uint32_t len)
{
    if (f->b[ip] >> 4 == 4)
        return sum16(f->b + ip + 12, 8) + proto + len;
    return sum16(f->b + ip + 8, 32) + proto + (len >> 16) + (len & 0xffff);
}

static inline uint32_t udp_begin(struct fb *f, uint16_t sp, uint16_t dp)
{
    uint32_t off = f->n;
    put16(f, sp); put16(f, dp); put16(f, 0); put16(f, 0);
    return off;
}
static inline void udp_end(struct fb *f, uint32_t off, uint32_t ip)
{
    uint32_t len = f->n - off;
    set16(f, off + 4, (uint16_t)len);
    set16(f, off + 6, 0);
    uint16_t c = fold(pseudo(f, ip, 17, len) + sum16(f->b + off, len));
    set16(f, off + 6, c ? c : 0xffff);
}

static inline uint32_t tcp_begin(struct fb *f, uint16_t sp, uint16_t dp, uint8_t flags,
                          const uint8_t *opts, uint32_t optlen)
{
    uint32_t off = f->n;
    put16(f, sp); put16(f, dp); put32(f, 1000); put32(f, 2000);
    put8(f, (uint8_t)(((20 + optlen) / 4) << 4)); put8(f, flags); put16(f, 8192);
    put16(f, 0); put16(f, 0);
    putn(f, opts, optlen);
    return off;
}
static inline void tcp_end(struct fb *f, uint32_t off, uint32_t ip)
{
    uint32_t len = f->n - off;
    set16(f, off + 16, 0);
    set16(f, off + 16, fold(pseudo(f, ip, 6, len) + sum16(f->b + off, len)));
}

static inline uint32_t icmp_begin(struct fb *f, uint8_t type, uint8_t code, uint16_t id)
{
    uint32_t off = f->n;
    put8(f, type); put8(f, code); put16(f, 0); put16(f, id); put16(f, 1);
    return off;
}
static inline void icmp_end(struct fb *f, uint32_t off, uint32_t ip, bool v6)
{
    uint32_t len = f->n - off;
    set16(f, off + 2, 0);
    uint32_t s = sum16(f->b + off, len) + (v6 ? pseudo(f, ip, 58, len) : 0);
    set16(f, off + 2, fold(s));
}

static inline void packet_init(struct mon_packet *p, const struct fb *f, int linktype)
{
    memset(p, 0, sizeof(*p));
    p->frame = f->b;
    p->caplen = p->wirelen = f->n;
    p->linktype = linktype;
    p->num = 1;
}

static inline uint64_t total_events(const struct mon_decoder *d)
{
    uint64_t n = 0;
    for (int i = 0; i < MON_DE__COUNT; i++)
        n += d->stats.event[i];
    return n;
}

/* Decode f with a fresh decoder (defaults, checksum mode ALL, no defrag). */
static inline enum mon_decode_outcome decode_fb(struct mon_decoder *d, struct mon_packet *p,
                                         const struct fb *f, int linktype)
{
    struct mon_decode_cfg cfg;
    mon_decode_cfg_defaults(&cfg);
    cfg.checksum_mode = MON_CSUM_ALL;
    mon_decoder_init(d, &cfg, NULL);
    packet_init(p, f, linktype);
    return mon_decode(d, p);
}

static inline bool has_layers(const struct mon_packet *p, const int *kinds, unsigned n)
{
    if (p->nlayers != n)
        return false;
    for (unsigned i = 0; i < n; i++)
        if (p->layer[i].kind != kinds[i])
            return false;
    return true;
}

#define LAYERS(p, ...)                                                              \
    has_layers((p), (const int[]){__VA_ARGS__},                                     \
               sizeof((const int[]){__VA_ARGS__}) / sizeof(int))

static inline void dump_layers(const struct mon_packet *p)
{
    fprintf(stderr, "  layers:");
    for (unsigned i = 0; i < p->nlayers; i++)
        fprintf(stderr, " %s", mon_layer_name(p->layer[i].kind));
    fprintf(stderr, "  anomaly: %s\n",
            p->anomaly ? mon_decode_event_name(p->anomaly - 1) : "-");
}

#define CHECK_LAYERS(p, ...)                                                        \
    do {                                                                            \
        if (!LAYERS((p), __VA_ARGS__)) {                                            \
            fprintf(stderr, "%s:%d: %s: layers differ\n", __FILE__, __LINE__, __func__);\
            dump_layers(p);                                                         \
            failures++;                                                             \
        }                                                                           \
    } while (0)

#define CHECK_ANOMALY(d, p, ev)                                                     \
    do {                                                                            \
        CHECK_EQ((p)->anomaly, (ev) + 1);                                           \
        CHECK_EQ((d)->stats.event[(ev)], 1);                                        \
        CHECK_EQ(total_events(d), 1);                                               \
    } while (0)

#endif
