/* osprey_hash.h — FNV-1a over bytes, for the tables built at startup (keyword and buffer
 * names, fast patterns): their keys come from the configuration and the rules, never from
 * traffic, so a fixed, simple hash is enough. Tables keyed by what the network sends use
 * libmon's keyed SipHash instead. */
#ifndef OSPREY_HASH_H
#define OSPREY_HASH_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t osprey_fnv1a32(const void *data, size_t n)
{
    const uint8_t *p = data;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h ^ (h >> 15); /* the low bits index the tables: fold the high ones in */
}

#endif
