/* ber_build.h — a test helper that writes BER values (definite lengths, short or long form)
 * into a caller's buffer, for the BER protocols' unit tests (krb5, ldap, snmp) and the BER
 * reader's own. Header-only, for parsers/tests. */
#ifndef OSPREY_BER_BUILD_H
#define OSPREY_BER_BUILD_H

#include <stdint.h>
#include <string.h>

struct bb {
    uint8_t p[8192];
    size_t n;
};

/* identifier octet(s) t (one byte, or 0x1f then more when wide), then a length, then v */
static inline struct bb bb_tlv(uint8_t t, const void *v, size_t len)
{
    struct bb b;
    b.n = 0;
    b.p[b.n++] = t;
    if (len < 0x80) {
        b.p[b.n++] = (uint8_t)len;
    } else if (len < 0x100) {
        b.p[b.n++] = 0x81;
        b.p[b.n++] = (uint8_t)len;
    } else {
        b.p[b.n++] = 0x82;
        b.p[b.n++] = (uint8_t)(len >> 8);
        b.p[b.n++] = (uint8_t)len;
    }
    memcpy(b.p + b.n, v, len);
    b.n += len;
    return b;
}
static inline struct bb bb_wrap(uint8_t t, struct bb in) { return bb_tlv(t, in.p, in.n); }
static inline struct bb bb_cat(struct bb a, struct bb b)
{
    memcpy(a.p + a.n, b.p, b.n);
    a.n += b.n;
    return a;
}
static inline struct bb bb_str(uint8_t t, const char *s) { return bb_tlv(t, s, strlen(s)); }
static inline struct bb bb_int(uint8_t t, int64_t v)
{
    uint8_t o[8];
    size_t n = 8;
    for (int i = 7; i >= 0; i--, v >>= 8)
        o[i] = (uint8_t)v;
    size_t k = 0; /* the shortest two's complement */
    while (k < 7 && ((o[k] == 0 && !(o[k + 1] & 0x80)) || (o[k] == 0xff && (o[k + 1] & 0x80))))
        k++;
    return bb_tlv(t, o + k, n - k);
}
static inline struct bb bb_empty(void)
{
    struct bb b;
    b.n = 0;
    return b;
}
/* SEQUENCE (0x30) of up to 8 values */
#define BB_SEQ(...) bb_seq_of(0x30, (struct bb[]){__VA_ARGS__}, \
                              sizeof((struct bb[]){__VA_ARGS__}) / sizeof(struct bb))
static inline struct bb bb_seq_of(uint8_t t, const struct bb *v, size_t n)
{
    struct bb all = bb_empty();
    for (size_t i = 0; i < n; i++)
        all = bb_cat(all, v[i]);
    return bb_wrap(t, all);
}
#define BB_CONS(t, ...) bb_seq_of(t, (struct bb[]){__VA_ARGS__}, \
                                  sizeof((struct bb[]){__VA_ARGS__}) / sizeof(struct bb))

#endif
