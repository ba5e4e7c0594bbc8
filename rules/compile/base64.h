/* base64.h — base64 decoding for base64_decode / base64_data and the from_base64 transform.
 * Private to rules/compile/. */
#ifndef RULES_BASE64_H
#define RULES_BASE64_H

#include <stdint.h>

/* How characters outside the alphabet are treated (Suricata's modes):
 *   B64_RFC4648  decoding stops at the first one (what came before is kept);
 *   B64_RFC2045  they are skipped (MIME: line breaks, spaces …);
 *   B64_STRICT   the input is refused (nothing decoded) unless it is all alphabet, with
 *                '=' padding only at the end.
 * '=' ends the data in every mode. A last group of 2 or 3 characters gives 1 or 2 bytes; a
 * lone character gives none. */
enum b64_mode { B64_RFC4648, B64_RFC2045, B64_STRICT };

/* Decode in[0..n) into out (room for n * 3 / 4 + 2 bytes); returns the decoded length. */
uint32_t b64_decode(const uint8_t *in, uint32_t n, uint8_t *out, enum b64_mode mode);

#endif
