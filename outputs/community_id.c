/* community_id.c — Community ID v1 flow hashes (the corelight spec Suricata and Zeek share):
 * "1:" + base64(SHA-1(seed, ordered addresses, proto, 0, ordered ports)). SHA-1 is computed
 * here so outputs/ needs no crypto library; it is used as a fingerprint, not for security. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "osprey_outputs.h"

struct sha1 {
    uint32_t h[5];
    uint8_t block[64];
    size_t used;
    uint64_t total;
};

static uint32_t rol(uint32_t x, int n)
{
    return (x << n) | (x >> (32 - n));
}

static void sha1_block(struct sha1 *s, const uint8_t *b)
{
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 |
               (uint32_t)b[4 * i + 2] << 8 | b[4 * i + 3];
    for (int i = 16; i < 80; i++)
        w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = s->h[0], bb = s->h[1], c = s->h[2], d = s->h[3], e = s->h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) {
            f = (bb & c) | (~bb & d);
            k = 0x5A827999;
        } else if (i < 40) {
            f = bb ^ c ^ d;
            k = 0x6ED9EBA1;
        } else if (i < 60) {
            f = (bb & c) | (bb & d) | (c & d);
            k = 0x8F1BBCDC;
        } else {
            f = bb ^ c ^ d;
            k = 0xCA62C1D6;
        }
        uint32_t t = rol(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rol(bb, 30);
        bb = a;
        a = t;
    }
    s->h[0] += a;
    s->h[1] += bb;
    s->h[2] += c;
    s->h[3] += d;
    s->h[4] += e;
}

static void sha1_add(struct sha1 *s, const void *data, size_t n)
{
    const uint8_t *p = data;
    s->total += n;
    while (n--) {
        s->block[s->used++] = *p++;
        if (s->used == 64) {
            sha1_block(s, s->block);
            s->used = 0;
        }
    }
}

static void sha1_end(struct sha1 *s, uint8_t out[20])
{
    uint64_t bits = s->total * 8;
    uint8_t one = 0x80, zero = 0;
    sha1_add(s, &one, 1);
    while (s->used != 56)
        sha1_add(s, &zero, 1);
    uint8_t len[8];
    for (int i = 0; i < 8; i++)
        len[i] = (uint8_t)(bits >> (56 - 8 * i));
    sha1_add(s, len, 8);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (uint8_t)(s->h[i] >> (24 - 8 * j));
}

/* ICMP types that have a reply type: the pair stands in for the ports, both ways alike. */
static int icmp_peer(uint8_t proto, uint8_t type)
{
    static const uint8_t v4[][2] = {{8, 0}, {0, 8}, {13, 14}, {14, 13}, {15, 16}, {16, 15},
                                    {10, 9}, {9, 10}, {17, 18}, {18, 17}};
    static const uint8_t v6[][2] = {{128, 129}, {129, 128}, {133, 134}, {134, 133},
                                    {135, 136}, {136, 135}, {130, 131}, {131, 130},
                                    {144, 145}, {145, 144}};
    const uint8_t(*t)[2] = proto == 1 ? v4 : v6;
    size_t n = proto == 1 ? sizeof v4 / sizeof v4[0] : sizeof v6 / sizeof v6[0];
    for (size_t i = 0; i < n; i++)
        if (t[i][0] == type)
            return t[i][1];
    return -1;
}

void osprey_community_id(uint16_t seed, const uint8_t *src, const uint8_t *dst, size_t alen,
                         uint8_t proto, uint16_t sport, uint16_t dport, char *out, size_t len)
{
    bool one_way = false;
    if (proto == 1 || proto == 58) {
        int peer = icmp_peer(proto, (uint8_t)sport);
        if (peer >= 0)
            dport = (uint16_t)peer;
        else
            one_way = true; /* type and code as they are, never swapped */
    }
    int c = memcmp(src, dst, alen);
    if (!one_way && (c > 0 || (c == 0 && sport > dport))) {
        const uint8_t *t = src;
        src = dst;
        dst = t;
        uint16_t tp = sport;
        sport = dport;
        dport = tp;
    }
    bool ports = proto == 6 || proto == 17 || proto == 132 || proto == 1 || proto == 58;
    struct sha1 s = {{0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0}, {0}, 0, 0};
    uint8_t b[4] = {(uint8_t)(seed >> 8), (uint8_t)seed, proto, 0};
    sha1_add(&s, b, 2);
    sha1_add(&s, src, alen);
    sha1_add(&s, dst, alen);
    sha1_add(&s, b + 2, 2);
    if (ports) {
        uint8_t pp[4] = {(uint8_t)(sport >> 8), (uint8_t)sport, (uint8_t)(dport >> 8),
                         (uint8_t)dport};
        sha1_add(&s, pp, 4);
    }
    uint8_t d[20];
    sha1_end(&s, d);
    static const char b64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char enc[32];
    size_t k = 0;
    for (int i = 0; i < 21; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < 20 ? (uint32_t)d[i + 1] << 8 : 0) |
                     (i + 2 < 20 ? d[i + 2] : 0);
        enc[k++] = b64[(v >> 18) & 63];
        enc[k++] = b64[(v >> 12) & 63];
        enc[k++] = i + 1 < 20 ? b64[(v >> 6) & 63] : '=';
        enc[k++] = i + 2 < 20 ? b64[v & 63] : '=';
    }
    enc[k] = '\0';
    snprintf(out, len, "1:%s", enc);
}
