/* probe.c — is this SIP? The first line is a request line "Method SP Request-URI SP SIP/2.0"
 * (the methods of RFC 3261 and its extensions, as Suricata knows them) or a status line
 * "SIP/2.0 SP 3DIGIT". NEED_MORE while the bytes are a prefix of either and no line end is in
 * (a UDP datagram is whole: the driver takes NEED_MORE there as NO). Port 5060 is not needed:
 * the whole line is checked. */
#include <ctype.h>
#include <string.h>

#include "sip_int.h"

static const char *const METHODS[] = {"INVITE", "ACK", "BYE", "CANCEL", "REGISTER", "OPTIONS",
                                      "PRACK", "SUBSCRIBE", "NOTIFY", "PUBLISH", "INFO",
                                      "REFER", "MESSAGE", "UPDATE"};

/* d[0..n) against "SIP/2.0 DDD": YES, NO or NEED_MORE */
static enum probe_verdict status_line(const uint8_t *d, size_t n)
{
    enum probe_verdict v = probe_prefix(d, n, "SIP/2.0 ", 8);
    if (v != DET_YES)
        return v;
    for (size_t i = 8; i < 11; i++) {
        if (i >= n)
            return DET_NEED_MORE;
        if (!isdigit(d[i]))
            return DET_NO;
    }
    return DET_YES;
}

/* "METHOD SP uri SP SIP/2.0" CR? LF */
static enum probe_verdict request_line(const uint8_t *d, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < sizeof METHODS / sizeof METHODS[0]; i++) {
        size_t l = strlen(METHODS[i]);
        enum probe_verdict v = probe_prefix(d, n, METHODS[i], l);
        if (v == DET_NEED_MORE)
            return v;
        if (v == DET_YES && n > l && d[l] == ' ') {
            m = l;
            break;
        }
        if (v == DET_YES && n == l)
            return DET_NEED_MORE;
    }
    if (!m)
        return DET_NO;
    const uint8_t *lf = memchr(d, '\n', n);
    if (!lf)
        return DET_NEED_MORE;
    size_t e = (size_t)(lf - d);
    if (e && d[e - 1] == '\r')
        e--;
    const uint8_t *sp = e > m + 1 ? memchr(d + m + 1, ' ', e - m - 1) : NULL;
    if (!sp || sp == d + m + 1)
        return DET_NO;
    size_t v = (size_t)(sp - d) + 1;
    return e - v == 7 && !memcmp(d + v, "SIP/2.0", 7) ? DET_YES : DET_NO;
}

enum probe_verdict sip_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    enum probe_verdict a = status_line(d, n);
    if (a == DET_YES)
        return a;
    enum probe_verdict b = request_line(d, n);
    if (b == DET_YES)
        return b;
    return a == DET_NEED_MORE || b == DET_NEED_MORE ? DET_NEED_MORE : DET_NO;
}
