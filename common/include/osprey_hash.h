/* osprey_hash.h — one hash for the tables built at startup (keyword and buffer names, fast
 * patterns, the compiler's interned keys): their keys come from the configuration and the
 * rules, never from traffic, so a fixed, simple hash is enough. Eight bytes a step (keys
 * run up to a kilobyte), FNV-1a on the tail. Tables keyed by what the network sends use
 * libmon's keyed SipHash instead. */
#ifndef OSPREY_HASH_H
#define OSPREY_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t osprey_hash_bytes(const void *data, size_t n)
{
    const uint8_t *p = data;
    uint64_t h = 1469598103934665603ull ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 32;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h ^ (h >> 29); /* the low bits index the tables: fold the high ones in */
}

#endif
