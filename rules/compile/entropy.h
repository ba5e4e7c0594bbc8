/* entropy.h — the entropy keyword's evaluation (parser: options/opt_entropy.c). Private to
 * rules/compile/. */
#ifndef RULES_ENTROPY_H
#define RULES_ENTROPY_H

#include <stdbool.h>
#include <stdint.h>

#include "opt_args.h"

/* Shannon entropy of buf[0..n) in bits per byte (0 for no bytes). */
double shannon_entropy(const uint8_t *buf, uint32_t n);
/* Does the buffer buf[0..len) satisfy e (its offset and bytes slice, then the comparison)? */
bool entropy_match(const struct opt_entropy *e, const uint8_t *buf, uint32_t len);

#endif
