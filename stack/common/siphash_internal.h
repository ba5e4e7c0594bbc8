/* siphash_internal.h — SipHash (Aumasson & Bernstein), a keyed hash: without the key an
 * attacker cannot predict bucket indices, which is what makes the flow table flood-resistant.
 * SipHash-1-3 is the variant for hash tables (as Rust's and Python's): the flow key is hashed
 * on every packet, and 1-3 costs about half the rounds of 2-4 over its 36 bytes. */
#ifndef MON_SIPHASH_INTERNAL_H
#define MON_SIPHASH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

uint64_t mon_siphash24(const uint64_t key[2], const void *data, size_t len);
uint64_t mon_siphash13(const uint64_t key[2], const void *data, size_t len);

#endif
