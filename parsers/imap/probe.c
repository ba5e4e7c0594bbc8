/* probe.c — is this IMAP? The server's first line is an untagged `* OK` or `* PREAUTH`
 * greeting (any port), or the client's first line is a tagged IMAP command (`a1 LOGIN …`:
 * a tag, a blank, a command IMAP4rev1 / rev2 defines). Port 143 is no condition: the tag
 * form is distinctive enough. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "imap_int.h"

enum probe_verdict imap_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    static const char *const GREET[] = {"* OK ", "* OK\r", "* PREAUTH ", NULL};
    bool prefix = false;
    for (int i = 0; GREET[i]; i++) {
        size_t wl = strlen(GREET[i]);
        enum probe_verdict v = probe_prefix(d, n, GREET[i], wl);
        if (v == DET_YES)
            return DET_YES;
        prefix |= v == DET_NEED_MORE;
    }
    return prefix ? DET_NEED_MORE : DET_NO;
}

enum probe_verdict imap_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    static const char *const CMDS[] = {
        "CAPABILITY", "LOGIN", "AUTHENTICATE", "STARTTLS", "SELECT", "EXAMINE", "LOGOUT",
        "NOOP", "ID", "ENABLE", "LIST", "LSUB", "STATUS", "APPEND", "FETCH", "UID", "SEARCH",
        "STORE", "COPY", "CREATE", "DELETE", "RENAME", "SUBSCRIBE", "NAMESPACE", "IDLE",
        "CHECK", "CLOSE", "EXPUNGE", NULL};
    size_t t = 0;
    while (t < n && t < IMAP_TAG_MAX && (isalnum(d[t]) || d[t] == '.' || d[t] == '-'))
        t++;
    if (t == n)
        return n < IMAP_TAG_MAX ? DET_NEED_MORE : DET_NO;
    if (t == 0 || d[t] != ' ')
        return DET_NO;
    size_t s = t + 1, w = s;
    while (w < n && w - s < 13 && isalpha(d[w]))
        w++;
    if (w == n)
        return w - s < 13 ? DET_NEED_MORE : DET_NO;
    if (d[w] != ' ' && d[w] != '\r' && d[w] != '\n')
        return DET_NO;
    for (int i = 0; CMDS[i]; i++)
        if (strlen(CMDS[i]) == w - s && !strncasecmp((const char *)d + s, CMDS[i], w - s))
            return DET_YES;
    return DET_NO;
}
