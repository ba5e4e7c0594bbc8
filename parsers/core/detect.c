/* detect.c — protocol detection by content (Suricata's probing idea, our rules):
 *   HTTP  a known method and a space at the start of the client's stream, or "HTTP/1." at
 *         the start of the server's;
 *   TLS   a handshake record (0x16 0x03 0x00-0x04) whose first message is a ClientHello;
 *   DNS   a header that makes sense and a first question that decodes.
 * Each answers YES, NO, or NEED_MORE while the bytes so far are a prefix of a YES. */
#include <string.h>

#include "parsers_int.h"

static const char *const methods[] = {
    "GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "CONNECT", "TRACE", "PATCH",
    "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "SEARCH", "REPORT",
    "CHECKOUT", "MERGE", "NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE", "MKACTIVITY",
};

/* YES when d starts with word; NEED_MORE when d is a proper prefix of it. */
static enum detect_verdict prefix(const uint8_t *d, size_t n, const char *word, size_t wl)
{
    size_t k = n < wl ? n : wl;
    if (memcmp(d, word, k))
        return DET_NO;
    return n >= wl ? DET_YES : DET_NEED_MORE;
}

enum detect_verdict detect_http_request(const uint8_t *d, size_t n)
{
    enum detect_verdict best = DET_NO;
    /* a client may send empty lines before its first request */
    while (n && (*d == '\r' || *d == '\n'))
        d++, n--;
    if (!n)
        return DET_NEED_MORE;
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        char w[24];
        size_t wl = strlen(methods[i]);
        memcpy(w, methods[i], wl);
        w[wl++] = ' ';
        enum detect_verdict v = prefix(d, n, w, wl);
        if (v == DET_YES)
            return DET_YES;
        if (v == DET_NEED_MORE)
            best = DET_NEED_MORE;
    }
    return best;
}

enum detect_verdict detect_http_response(const uint8_t *d, size_t n)
{
    return prefix(d, n, "HTTP/1.", 7);
}

/* SSLv2-framed ClientHello (what clients that still offered SSLv2 sent first): a 2-byte
 * length with the top bit set, message type 1, then version 0x0002 or 0x0300–0x0304. */
static enum detect_verdict detect_sslv2_client_hello(const uint8_t *d, size_t n)
{
    if (n >= 3 && d[2] != 0x01)
        return DET_NO;
    if (n >= 4 && d[3] != 0x00 && d[3] != 0x03)
        return DET_NO;
    if (n >= 5 && (d[3] == 0x00 ? d[4] != 0x02 : d[4] > 0x04))
        return DET_NO;
    return n >= 5 ? DET_YES : DET_NEED_MORE;
}

enum detect_verdict detect_tls_client_hello(const uint8_t *d, size_t n)
{
    if (n >= 1 && (d[0] & 0x80))
        return detect_sslv2_client_hello(d, n);
    if (n >= 1 && d[0] != 0x16)
        return DET_NO;
    if (n >= 2 && d[1] != 0x03)
        return DET_NO;
    if (n >= 3 && d[2] > 0x04)
        return DET_NO;
    if (n >= 6 && d[5] != 0x01)
        return DET_NO;
    return n >= 6 ? DET_YES : DET_NEED_MORE;
}

static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

enum detect_verdict detect_dns(const uint8_t *d, size_t n, bool tcp)
{
    size_t msglen = n;
    if (tcp) {
        if (n < 2)
            return DET_NEED_MORE;
        msglen = be16(d);
        if (msglen < 12)
            return DET_NO;
        d += 2, n -= 2;
        if (n > msglen)
            n = msglen;
    }
    if (n < 12)
        return tcp ? DET_NEED_MORE : DET_NO;
    uint16_t flags = be16(d + 2), qd = be16(d + 4), an = be16(d + 6), ns = be16(d + 8),
             ar = be16(d + 10);
    /* the reserved Z bit does not decide: Suricata takes such a message as DNS and raises
     * dns.z_flag_set (only the stricter off-port probe below refuses it) */
    unsigned opcode = flags >> 11 & 0xf;
    if (opcode > 5 || qd == 0 || qd > 32 || an > 512 || ns > 512 || ar > 512)
        return DET_NO;
    uint8_t name[DNS_NAME_MAX];
    uint32_t nl;
    size_t next;
    if (dns_name_read(d, n, 12, name, sizeof name, &nl, &next) != 0 || next + 4 > n)
        return tcp && n < msglen ? DET_NEED_MORE : DET_NO;
    uint16_t qclass = be16(d + next + 2) & 0x7fff; /* mDNS: the top bit asks for unicast */
    if (qclass != 1 && qclass != 3 && qclass != 4 && qclass != 255 && !(flags & 0x8000))
        return DET_NO;
    return DET_YES;
}

enum detect_verdict detect_dns_strict(const uint8_t *d, size_t n)
{
    if (detect_dns(d, n, false) != DET_YES)
        return DET_NO;
    uint16_t flags = be16(d + 2), qd = be16(d + 4), an = be16(d + 6);
    bool response = flags & 0x8000;
    if (qd != 1 || (flags >> 11 & 0xf) != 0 || (flags >> 6 & 1) || (!response && an != 0))
        return DET_NO;
    return DET_YES;
}
