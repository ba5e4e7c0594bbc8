/* probe.c — is this SMTP? The client's first line is EHLO / HELO (any port), or on the
 * submission ports (25, 587: a hint, as in Suricata) another SMTP command; or, weakly, the
 * server's first line is a 220 greeting that does not name FTP (FTP greets with 220 too, and
 * its probe runs first on port 21): the client's first command decides, as Suricata detects
 * SMTP on the client's side only (a FileZilla server greets "220-FileZilla"). The server's
 * whole first line is awaited: a greeting cut short could still name FTP. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "smtp_int.h"

static bool mail_port(const struct mon_flow *f)
{
    return f && (f->sport == 25 || f->sport == 587);
}

static bool word_is(const uint8_t *d, size_t w, const char *s)
{
    return strlen(s) == w && !strncasecmp((const char *)d, s, w);
}

enum probe_verdict smtp_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    static const char *const ON_PORT[] = {"MAIL", "RCPT", "DATA", "BDAT", "RSET", "VRFY",
                                          "EXPN", "NOOP", "QUIT", "AUTH", "STARTTLS", NULL};
    size_t w = 0;
    while (w < n && w < 9 && isalpha(d[w]))
        w++;
    if (w == n && n < 9)
        return DET_NEED_MORE; /* a word still coming */
    if (w < 4 || w > 8 || w == n || (d[w] != ' ' && d[w] != '\r' && d[w] != '\n'))
        return DET_NO;
    if (word_is(d, w, "EHLO") || word_is(d, w, "HELO"))
        return DET_YES;
    for (int i = 0; ON_PORT[i]; i++)
        if (word_is(d, w, ON_PORT[i]))
            return mail_port(f) ? DET_YES : DET_NO;
    return DET_NO;
}

enum probe_verdict smtp_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    enum probe_verdict v = probe_prefix(d, n, "220", 3);
    if (v != DET_YES)
        return v;
    if (n < 4)
        return DET_NEED_MORE;
    if ((d[3] != ' ' && d[3] != '-') || (f && (f->sport == 21 || f->cport == 21)))
        return DET_NO;
    const uint8_t *lf = memchr(d, '\n', n);
    if (!lf)
        return n >= SMTP_LINE_MAX ? DET_NO : DET_NEED_MORE;
    for (size_t i = 4; i + 3 <= (size_t)(lf - d); i++)
        if (!strncasecmp((const char *)d + i, "FTP", 3))
            return DET_NO;
    return DET_WEAK;
}
