/* asn1.h — the asn1 keyword's BER walker (asn1.c). */
#ifndef RULES_COMPILE_ASN1_H
#define RULES_COMPILE_ASN1_H

#include <stdbool.h>
#include <stdint.h>

#include "opt_args.h"

/* As Suricata: at most 30 top-level objects (a 31st makes the whole decode fail) and 30
 * levels of nesting (a deeper object is malformed). */
#define ASN1_MAX_FRAMES 30
#define ASN1_MAX_DEPTH 30

/* Decode b[0..n) as a sequence of BER objects; true when a node of a well-formed object
 * trips one of a's checks. Iterative, no allocation, O(n). */
bool asn1_walk(const struct opt_asn1 *a, const uint8_t *b, uint64_t n);

/* The asn1 option on a buffer whose bytes from position origin to len are at buf, the
 * previous payload match having ended at prev_end (relative_offset counts from there). */
bool asn1_match(const struct opt_asn1 *a, const uint8_t *buf, int64_t origin, int64_t len,
                int64_t prev_end);

#endif
