/* probe.c — how each recognition-only service is told: by its first bytes where it has a
 * clear signature (IRC's registration commands and server prefix, SSDP's request lines,
 * MySQL's server greeting, NNTP's greeting on its port), by its
 * port otherwise (NetBIOS name and datagram services, WINS replication). The ports are
 * Snort 3's (the wizard's and the community rules' headers). */
#include <string.h>

#include "services_int.h"

static bool port_is(const struct mon_flow *f, uint16_t port)
{
    return f && (f->sport == port || f->cport == port);
}

/* Does d start with one of words (NEED_MORE while it is a prefix of one)? */
static enum probe_verdict one_of(const uint8_t *d, size_t n, const char *const *words)
{
    enum probe_verdict v = DET_NO;
    for (; *words; words++) {
        enum probe_verdict w = probe_prefix(d, n, *words, strlen(*words));
        if (w == DET_YES)
            return DET_YES;
        if (w == DET_NEED_MORE)
            v = DET_NEED_MORE;
    }
    return v;
}

/* IRC (RFC 2812 §3.1): a client registers with PASS, NICK, USER (or CAP first, IRCv3) */
enum probe_verdict irc_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    static const char *const W[] = {"NICK ", "USER ", "PASS ", "CAP LS", "CAP REQ", NULL};
    return one_of(d, n, W);
}

/* a server speaks first with a prefixed NOTICE (":irc.example.net NOTICE * :*** Looking up
 * your hostname"): ':', a server name without spaces, " NOTICE " */
enum probe_verdict irc_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    if (!n)
        return DET_NEED_MORE;
    if (d[0] != ':')
        return DET_NO;
    size_t i = 1;
    while (i < n && i < 256 && d[i] > ' ')
        i++;
    if (i == n)
        return i < 256 ? DET_NEED_MORE : DET_NO;
    if (i == 1 || d[i] != ' ')
        return DET_NO;
    return probe_prefix(d + i, n - i, " NOTICE ", 8);
}

/* NetBIOS name service (RFC 1002 §4.2): port 137, UDP or TCP, a header of 12 bytes */
enum probe_verdict netbios_ns_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)d;
    return port_is(f, 137) && n >= 12 ? DET_YES : DET_NO;
}

/* NetBIOS datagram service (RFC 1002 §4.4): port 138, message types 0x10-0x16 */
enum probe_verdict netbios_dgm_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    return port_is(f, 138) && n >= 10 && d[0] >= 0x10 && d[0] <= 0x16 ? DET_YES : DET_NO;
}

/* WINS replication: TCP port 42, either side */
enum probe_verdict wins_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)d, (void)n;
    return port_is(f, 42) ? DET_YES : DET_NO;
}

/* SSDP (UPnP 1.1 §1): HTTP-like datagrams on UDP 1900 — M-SEARCH and NOTIFY requests, the
 * unicast "HTTP/1.1 200" answers */
enum probe_verdict ssdp_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    static const char *const W[] = {"M-SEARCH ", "NOTIFY ", "HTTP/1.1 ", NULL};
    return port_is(f, 1900) && one_of(d, n, W) == DET_YES ? DET_YES : DET_NO;
}

/* MySQL's initial handshake (protocol 10): a packet of 3 length bytes (little-endian) and
 * sequence 0, then 0x0a and a NUL-terminated printable server version. An error packet
 * (0xff) in its place ("host is not allowed") counts on the MySQL port. */
enum probe_verdict mysql_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    /* what of the packet header is in must already fit: a length of 2..1024, sequence 0 */
    if ((n >= 2 && d[1] > 4) || (n >= 3 && d[2] != 0) || (n >= 4 && d[3] != 0))
        return DET_NO;
    if (n < 5)
        return DET_NEED_MORE;
    uint32_t len = (uint32_t)d[0] | (uint32_t)d[1] << 8;
    if (len < 2 || len > 1024)
        return DET_NO;
    if (d[4] == 0xff)
        return port_is(f, 3306) ? DET_YES : DET_NO;
    if (d[4] != 0x0a)
        return DET_NO;
    for (size_t i = 5; i < n && i < 4 + (size_t)len; i++) {
        if (d[i] == 0)
            return i > 5 ? DET_YES : DET_NO;
        if (d[i] < 0x20 || d[i] > 0x7e)
            return DET_NO;
    }
    return n < 4 + (size_t)len ? DET_NEED_MORE : DET_NO;
}

/* NNTP (RFC 3977 §5.1): the server's greeting, 200 or 201, on port 119 */
enum probe_verdict nntp_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    static const char *const W[] = {"200 ", "201 ", NULL};
    return port_is(f, 119) ? one_of(d, n, W) : DET_NO;
}
