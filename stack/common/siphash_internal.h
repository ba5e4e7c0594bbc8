/* siphash_internal.h — SipHash-2-4 (Aumasson & Bernstein), a keyed hash: without the key an
 * attacker cannot predict bucket indices, which is what makes the flow table flood-resistant. */
#ifndef MON_SIPHASH_INTERNAL_H
#define MON_SIPHASH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

uint64_t mon_siphash24(const uint64_t key[2], const void *data, size_t len);

#endif
