/* dns_name.c — domain names with compression (RFC 1035 §4.1.4), bounded as Suricata reads
 * them: more than DNS_NAME_STEPS labels and pointers (a loop, or an attack on the parser)
 * make the name malformed; a dotted name longer than the caller's room is cut there and
 * flagged, and the walk goes on to find where it ends; nothing is read outside the message. */
#include <string.h>

#include "dns_int.h"

int dns_name_read(const uint8_t *msg, size_t n, size_t off, uint8_t *out, uint32_t cap,
                  uint32_t *outlen, size_t *next, bool *truncated)
{
    uint32_t len = 0;
    int steps = 0;
    bool jumped = false, cut = false;
    *outlen = 0;
    for (;;) {
        if (off >= n || ++steps > DNS_NAME_STEPS)
            return -1;
        uint8_t l = msg[off];
        if ((l & 0xc0) == 0xc0) {
            if (off + 1 >= n)
                return -1;
            size_t to = (size_t)(l & 0x3f) << 8 | msg[off + 1];
            if (!jumped) {
                *next = off + 2;
                jumped = true;
            }
            off = to;
            continue;
        }
        if (l & 0xc0)
            return -1; /* 0x40 / 0x80: extended label types, not used */
        if (l == 0) {
            if (!jumped)
                *next = off + 1;
            *outlen = len;
            if (cut && truncated)
                *truncated = true;
            return 0;
        }
        if (off + 1 + l > n)
            return -1;
        if (!cut) {
            /* the dot and the label, as far as they fit; what does not is cut */
            uint32_t want = (len ? 1u : 0u) + l;
            if (want > cap - len)
                cut = true;
            uint32_t take = want < cap - len ? want : cap - len;
            if (take && len) {
                out[len++] = '.';
                take--;
            }
            memcpy(out + len, msg + off + 1, take);
            len += take;
        }
        off += (size_t)l + 1;
    }
}
