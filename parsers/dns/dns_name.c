/* dns_name.c — domain names with compression (RFC 1035 §4.1.4), bounded: a pointer chain
 * longer than DNS_MAX_POINTERS (a loop, or an attack on the parser) makes the name
 * malformed; nothing is read outside the message. */
#include <string.h>

#include "dns_int.h"

int dns_name_read(const uint8_t *msg, size_t n, size_t off, uint8_t *out, uint32_t cap,
                  uint32_t *outlen, size_t *next)
{
    uint32_t len = 0;
    int jumps = 0;
    bool jumped = false;
    size_t total = 0; /* wire length of the labels, RFC limit 255 */
    *outlen = 0;
    for (;;) {
        if (off >= n)
            return -1;
        uint8_t l = msg[off];
        if ((l & 0xc0) == 0xc0) {
            if (off + 1 >= n || ++jumps > DNS_MAX_POINTERS)
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
            return 0;
        }
        if (off + 1 + l > n || (total += (size_t)l + 1) > DNS_NAME_MAX)
            return -1;
        if (len && len < cap)
            out[len++] = '.';
        uint32_t take = l;
        if (take > cap - len)
            take = cap - len;
        memcpy(out + len, msg + off + 1, take);
        len += take;
        off += (size_t)l + 1;
    }
}
