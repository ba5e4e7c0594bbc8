/* probe.c — is this POP3? The server's first line is a `+OK` greeting (any port), or the
 * client's first line is a POP3 command: on port 110 any of them (a hint, Suricata's default
 * port), elsewhere only those no other mail or file protocol shares (APOP, STAT, RETR, TOP,
 * UIDL, DELE, CAPA, STLS: USER, PASS, LIST are FTP's too, NOOP, RSET, QUIT SMTP's). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "pop3_int.h"

const char *const pop3_cmd_names[P3_N] = {
    [P3_UNKNOWN] = "", [P3_USER] = "USER", [P3_PASS] = "PASS", [P3_APOP] = "APOP",
    [P3_AUTH] = "AUTH", [P3_CAPA] = "CAPA", [P3_STLS] = "STLS", [P3_STAT] = "STAT",
    [P3_LIST] = "LIST", [P3_RETR] = "RETR", [P3_TOP] = "TOP", [P3_UIDL] = "UIDL",
    [P3_DELE] = "DELE", [P3_NOOP] = "NOOP", [P3_RSET] = "RSET", [P3_QUIT] = "QUIT",
    [P3_SASL] = "<SASL DATA>"};

enum pop3_cmd pop3_cmd_of(const uint8_t *w, size_t n)
{
    for (int c = P3_USER; c < P3_SASL; c++)
        if (strlen(pop3_cmd_names[c]) == n && !strncasecmp((const char *)w, pop3_cmd_names[c], n))
            return (enum pop3_cmd)c;
    return P3_UNKNOWN;
}

enum probe_verdict pop3_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    size_t w = 0;
    while (w < n && w < 5 && isalpha(d[w]))
        w++;
    if (w == n && n < 5)
        return DET_NEED_MORE; /* a word still coming */
    if (w < 3 || w > 4 || w == n || (d[w] != ' ' && d[w] != '\r' && d[w] != '\n'))
        return DET_NO;
    enum pop3_cmd c = pop3_cmd_of(d, w);
    if (c == P3_UNKNOWN)
        return DET_NO;
    if (f && f->sport == 110)
        return DET_YES;
    static const unsigned OWN = 1u << P3_APOP | 1u << P3_STAT | 1u << P3_RETR | 1u << P3_TOP |
                                1u << P3_UIDL | 1u << P3_DELE | 1u << P3_CAPA | 1u << P3_STLS;
    return OWN & (1u << c) ? DET_YES : DET_NO;
}

enum probe_verdict pop3_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    enum probe_verdict v = probe_prefix(d, n, "+OK", 3);
    if (v != DET_YES)
        return v;
    if (n < 4)
        return DET_NEED_MORE;
    return d[3] == ' ' || d[3] == '\r' || d[3] == '\n' ? DET_YES : DET_NO;
}
