/* probe.c — is this SIP? The first line is a request line "Method SP Request-URI SP SIP/2.0"
 * or a status line "SIP/2.0 SP 3DIGIT". The methods of RFC 3261 and its extensions (as
 * Suricata knows them) are taken on any port; another method token (RFC 3261 allows any) only
 * with port 5060 or 5061 on either end: the port is a hint, the line is still checked to its
 * end. NEED_MORE while the bytes are a prefix of a YES and no line end is in (a UDP datagram
 * is whole: the driver takes NEED_MORE there as NO). */
#include <ctype.h>
#include <string.h>

#include "sip_int.h"

#define METHOD_MAX 32 /* longest method token taken */

static const char *const METHODS[] = {"INVITE", "ACK", "BYE", "CANCEL", "REGISTER", "OPTIONS",
                                      "PRACK", "SUBSCRIBE", "NOTIFY", "PUBLISH", "INFO",
                                      "REFER", "MESSAGE", "UPDATE"};

static bool sip_port(const struct mon_flow *f)
{
    return f && (f->sport == 5060 || f->cport == 5060 || f->sport == 5061 || f->cport == 5061);
}

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

static bool known_method(const uint8_t *d, size_t n)
{
    for (size_t i = 0; i < sizeof METHODS / sizeof METHODS[0]; i++)
        if (strlen(METHODS[i]) == n && !memcmp(d, METHODS[i], n))
            return true;
    return false;
}

/* Could d[0..n) (no space yet) still become a method taken here? */
static bool method_prefix(const uint8_t *d, size_t n, bool any)
{
    if (any)
        return true;
    for (size_t i = 0; i < sizeof METHODS / sizeof METHODS[0]; i++)
        if (strlen(METHODS[i]) >= n && !memcmp(d, METHODS[i], n))
            return true;
    return false;
}

/* "METHOD SP uri SP SIP/2.0" CR? LF; any: a method token outside the list is taken */
static enum probe_verdict request_line(const uint8_t *d, size_t n, bool any)
{
    size_t m = 0;
    while (m < n && m <= METHOD_MAX && isupper(d[m]))
        m++;
    if (m > METHOD_MAX)
        return DET_NO;
    if (m == n) /* the method so far */
        return m && method_prefix(d, m, any) ? DET_NEED_MORE : DET_NO;
    if (!m || d[m] != ' ' || !(known_method(d, m) || any))
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
    enum probe_verdict a = status_line(d, n);
    if (a == DET_YES)
        return a;
    enum probe_verdict b = request_line(d, n, sip_port(f));
    if (b == DET_YES)
        return b;
    return a == DET_NEED_MORE || b == DET_NEED_MORE ? DET_NEED_MORE : DET_NO;
}
