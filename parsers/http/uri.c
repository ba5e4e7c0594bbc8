/* uri.c — http.uri from http.uri.raw, as Suricata (libhtp) normalizes it: %XX decoded (an
 * invalid escape stays as sent), then in the path "//" collapsed, "/./" dropped and "/../"
 * resolved (never above the root). Decoding first is what defeats "%2e%2e/" evasions. */
#include <string.h>
#include <strings.h>

#include "http_int.h"

int http_hexval(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static uint32_t pct_decode(const uint8_t *s, uint32_t n, uint8_t *out, uint32_t cap)
{
    uint32_t o = 0;
    for (uint32_t i = 0; i < n && o < cap; i++) {
        int h, l;
        if (s[i] == '%' && i + 2 < n && (h = http_hexval(s[i + 1])) >= 0 &&
            (l = http_hexval(s[i + 2])) >= 0) {
            out[o++] = (uint8_t)(h << 4 | l);
            i += 2;
        } else {
            out[o++] = s[i];
        }
    }
    return o;
}

/* RFC 3986 §5.2.4 on a decoded path, in place, plus "//" → "/". */
static uint32_t remove_dots(uint8_t *p, uint32_t n)
{
    uint32_t o = 0, i = 0;
    while (i < n) {
        if (p[i] == '/') {
            while (i + 1 < n && p[i + 1] == '/')
                i++; /* collapse repeated slashes */
            uint32_t seg = i + 1, e = seg;
            while (e < n && p[e] != '/')
                e++;
            uint32_t sl = e - seg;
            if (sl == 1 && p[seg] == '.') {
                i = e; /* "/." */
                if (i == n)
                    p[o++] = '/';
                continue;
            }
            if (sl == 2 && p[seg] == '.' && p[seg + 1] == '.') {
                while (o > 0 && p[o - 1] != '/')
                    o--; /* drop the last segment */
                if (o > 0)
                    o--; /* and its slash */
                i = e;
                if (i == n)
                    p[o++] = '/';
                continue;
            }
            memmove(p + o, p + i, e - i);
            o += e - i;
            i = e;
        } else {
            /* a relative start ("a/b"): copy up to the next slash */
            uint32_t e = i;
            while (e < n && p[e] != '/')
                e++;
            memmove(p + o, p + i, e - i);
            o += e - i;
            i = e;
        }
    }
    return o;
}

const uint8_t *http_uri_host(const uint8_t *raw, uint32_t n, uint32_t *hl)
{
    uint32_t skip = 0;
    if (n >= 7 && !strncasecmp((const char *)raw, "http://", 7))
        skip = 7;
    else if (n >= 8 && !strncasecmp((const char *)raw, "https://", 8))
        skip = 8;
    if (!skip)
        return NULL;
    uint32_t e = skip;
    while (e < n && raw[e] != '/' && raw[e] != '?')
        e++;
    *hl = e - skip;
    return raw + skip;
}

uint32_t http_uri_normalize(const uint8_t *raw, uint32_t n, uint8_t *out, uint32_t cap)
{
    uint32_t hl;
    const uint8_t *host = http_uri_host(raw, n, &hl);
    if (host) { /* absolute form: keep its path and query */
        uint32_t at = (uint32_t)(host - raw) + hl;
        raw += at, n -= at;
    }
    uint32_t q = 0;
    while (q < n && raw[q] != '?')
        q++;
    uint32_t pl = pct_decode(raw, q, out, cap);
    pl = remove_dots(out, pl);
    if (q < n && pl < cap)
        pl += pct_decode(raw + q, n - q, out + pl, cap - pl);
    return pl;
}
