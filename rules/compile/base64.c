/* base64.c — see base64.h. */
#include "base64.h"

#include <stdbool.h>

static int b64_value(uint8_t c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Strict: alphabet only, then at most two '=' that end the input. */
static bool strict_ok(const uint8_t *in, uint32_t n)
{
    uint32_t i = 0;
    while (i < n && b64_value(in[i]) >= 0)
        i++;
    uint32_t pad = 0;
    while (i < n && in[i] == '=' && pad < 2) {
        i++;
        pad++;
    }
    return i == n;
}

uint32_t b64_decode(const uint8_t *in, uint32_t n, uint8_t *out, enum b64_mode mode)
{
    if (mode == B64_STRICT && !strict_ok(in, n))
        return 0;
    uint32_t o = 0, acc = 0, k = 0; /* k: characters in the current group */
    for (uint32_t i = 0; i < n; i++) {
        int v = b64_value(in[i]);
        if (v < 0) {
            if (in[i] == '=' || mode != B64_RFC2045)
                break;
            continue;
        }
        acc = acc << 6 | (uint32_t)v;
        if (++k == 4) {
            out[o++] = (uint8_t)(acc >> 16);
            out[o++] = (uint8_t)(acc >> 8);
            out[o++] = (uint8_t)acc;
            acc = 0;
            k = 0;
        }
    }
    if (k >= 2) { /* a short last group: its whole bytes */
        acc <<= 6 * (4 - k);
        out[o++] = (uint8_t)(acc >> 16);
        if (k == 3)
            out[o++] = (uint8_t)(acc >> 8);
    }
    return o;
}
