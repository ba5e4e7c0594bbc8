/* name.c — domain names with compression (RFC 1035 §4.1.4), bounded as Suricata 8 reads
 * them. Three problems are flagged and the name kept, never a malformed message, when a
 * pointer was already followed (the name's end in the message is known): a pointer to itself
 * (DNS_NAME_LOOP, the name so far), more than DNS_NAME_STEPS labels and pointers
 * (DNS_NAME_LABELS, cut: a cycle of pointers ends here), a dotted name longer than the
 * caller's room (DNS_NAME_TRUNCATED, cut there; without a pointer the walk goes on to find
 * where the name ends). The first two without a pointer followed make the name malformed.
 * Nothing is read outside the message. */
#include <string.h>

#include "dns_wire.h"

int dns_wire_name(const uint8_t *msg, size_t n, size_t off, uint8_t *out, uint32_t cap,
                  uint32_t *outlen, size_t *next, unsigned *flags)
{
    uint32_t len = 0;
    int steps = 0;
    bool jumped = false, cut = false;
    unsigned fl = 0;
    *outlen = 0;
    for (;;) {
        if (off >= n) {
            if (off == n && jumped)
                break; /* a pointer to the message's end: the name ends there */
            return -1;
        }
        uint8_t l = msg[off];
        if (l == 0) {
            if (!jumped)
                *next = off + 1;
            break;
        }
        if ((l & 0xc0) == 0xc0) {
            if (off + 1 >= n)
                return -1;
            size_t to = (size_t)(l & 0x3f) << 8 | msg[off + 1];
            if (to > n)
                return -1;
            if (to == off) { /* a pointer to itself */
                if (!jumped)
                    return -1;
                fl |= DNS_NAME_LOOP;
                break;
            }
            if (!jumped) {
                *next = off + 2;
                jumped = true;
            }
            off = to;
        } else if (l & 0xc0) {
            return -1; /* 0x40 / 0x80: extended label types, not used */
        } else {
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
        if (++steps > DNS_NAME_STEPS) { /* a cycle of pointers, or a name of too many labels */
            if (!jumped)
                return -1;
            fl |= DNS_NAME_LABELS | DNS_NAME_TRUNCATED;
            break;
        }
        if (cut && jumped)
            break; /* cut, and where the name ends is known already */
    }
    *outlen = len;
    if (cut)
        fl |= DNS_NAME_TRUNCATED;
    if (flags)
        *flags |= fl;
    return 0;
}
