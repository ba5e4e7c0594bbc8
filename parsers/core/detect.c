/* detect.c — what the protocols' probes share (each protocol's own probe lives in its
 * folder, parsers/<proto>/probe.c, and is listed in its descriptor). */
#include <string.h>

#include "parsers_int.h"

/* YES when d starts with word; NEED_MORE when d is a proper prefix of it. */
enum probe_verdict probe_prefix(const uint8_t *d, size_t n, const char *word, size_t wl)
{
    size_t k = n < wl ? n : wl;
    if (memcmp(d, word, k))
        return DET_NO;
    return n >= wl ? DET_YES : DET_NEED_MORE;
}

