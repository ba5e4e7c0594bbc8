/* probe.c — is this FTP? The client's first line starts with a command only FTP has (USER,
 * PASS, PORT, RETR …; on port 21 also the words FTP shares with SMTP: AUTH, QUIT, NOOP, HELP),
 * or the server's greeting is a 220 reply on port 21 or vsftpd's "220 (" (Suricata's one
 * server pattern), or, weakly (the client's first command decides), one that names FTP on
 * another port (an SMTP server greets with 220 too). Port 21 is a hint only, as in Suricata. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "ftp_int.h"

static bool port21(const struct mon_flow *f)
{
    return f && (f->sport == 21 || f->cport == 21);
}

enum probe_verdict ftp_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    static const char *const ONLY_FTP[] = {
        "USER", "PASS", "ACCT", "PORT", "PASV", "EPRT", "EPSV", "RETR", "STOR", "STOU",
        "APPE", "LIST", "NLST", "CWD",  "CDUP", "PWD",  "XPWD", "MKD",  "RMD",  "DELE",
        "RNFR", "RNTO", "SITE", "SYST", "TYPE", "STRU", "FEAT", "OPTS", "SIZE", "MDTM",
        "MLSD", "MLST", "REST", "ABOR", "ALLO", NULL};
    static const char *const SHARED[] = {"AUTH", "QUIT", "NOOP", "HELP", NULL};
    size_t w = 0;
    while (w < n && w < 5 && isalpha(d[w]))
        w++;
    if (w == n && n < 5)
        return DET_NEED_MORE; /* a word still coming */
    if (w < 3 || w > 4 || w == n)
        return DET_NO;
    if (d[w] != ' ' && d[w] != '\r' && d[w] != '\n')
        return DET_NO;
    for (int i = 0; ONLY_FTP[i]; i++)
        if (strlen(ONLY_FTP[i]) == w && !strncasecmp((const char *)d, ONLY_FTP[i], w))
            return DET_YES;
    for (int i = 0; SHARED[i]; i++)
        if (strlen(SHARED[i]) == w && !strncasecmp((const char *)d, SHARED[i], w))
            return port21(f) ? DET_YES : DET_NO;
    return DET_NO;
}

enum probe_verdict ftp_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    enum probe_verdict v = probe_prefix(d, n, "220", 3);
    if (v != DET_YES)
        return v;
    if (n < 4)
        return DET_NEED_MORE;
    if (d[3] != ' ' && d[3] != '-')
        return DET_NO;
    if (port21(f))
        return DET_YES;
    if (n < 5)
        return DET_NEED_MORE;
    if (d[3] == ' ' && d[4] == '(')
        return DET_YES;
    /* off port 21: the greeting line must name FTP */
    const uint8_t *lf = memchr(d, '\n', n);
    size_t ln = lf ? (size_t)(lf - d) : n;
    for (size_t i = 4; i + 3 <= ln; i++)
        if (!strncasecmp((const char *)d + i, "FTP", 3))
            return DET_WEAK;
    return lf || n >= FTP_LINE_MAX ? DET_NO : DET_NEED_MORE;
}
