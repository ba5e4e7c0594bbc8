/* url.c — the URLs of an email's text (Suricata's email.url): each "http://" in a line
 * (any case), the URL up to a blank or a delimiter, its scheme removed and lower-cased as
 * Suricata logs them. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "mime.h"

#define URL_MAX 1024 /* bytes of one URL kept */

static bool url_end(uint8_t c)
{
    return c <= ' ' || c == '"' || c == '\'' || c == '<' || c == '>' || c == 0x7f;
}

void mime_urls(const uint8_t *l, size_t n, void (*cb)(void *arg, const uint8_t *u, size_t ul),
               void *arg)
{
    static const char SCHEME[] = "http://";
    const size_t sl = sizeof SCHEME - 1;
    for (size_t i = 0; i + sl < n; i++) {
        if (strncasecmp((const char *)l + i, SCHEME, sl))
            continue;
        size_t s = i + sl, e = s;
        while (e < n && !url_end(l[e]))
            e++;
        if (e > s) {
            uint8_t u[URL_MAX];
            size_t ul = e - s < URL_MAX ? e - s : URL_MAX;
            for (size_t k = 0; k < ul; k++)
                u[k] = (uint8_t)tolower(l[s + k]);
            cb(arg, u, ul);
        }
        i = e ? e - 1 : e;
    }
}
