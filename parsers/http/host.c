/* host.c — a request's host names as libhtp checks them: "host[:port]" split (an IPv6
 * literal in brackets), the host name's labels (letters, digits, '-' and '_', 1 to 63 bytes,
 * one dot between them, 255 bytes at most) and the port (1-65535). What Suricata's events
 * http.request_header_host_invalid, http.request_uri_host_invalid and
 * http.host_header_ambiguous are raised on. */
#include <string.h>
#include <strings.h>

#include "http_int.h"

static bool label_char(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_';
}

bool http_hostname_valid(const uint8_t *h, uint32_t n)
{
    if (!n || n > 255)
        return false;
    if (h[0] == '[') /* an IPv6 literal: the bracket closes it, nothing after */
        return memchr(h, ']', n) == h + n - 1;
    for (uint32_t p = 0; p < n;) {
        uint32_t s = p;
        while (p < n && h[p] != '.') {
            if (!label_char(h[p]))
                return false;
            p++;
        }
        if (p == s || p - s > 63)
            return false;
        if (p == n)
            return true;
        p++; /* one dot: then a label, or the end (a trailing dot is allowed) */
        if (p < n && h[p] == '.')
            return false;
    }
    return true;
}

bool http_hostport(const uint8_t *v, uint32_t n, struct http_hostport *out)
{
    memset(out, 0, sizeof *out);
    out->port = -1;
    while (n && (v[0] == ' ' || v[0] == '\t'))
        v++, n--;
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    uint32_t he = 0;
    if (n && v[0] == '[') {
        const uint8_t *rb = memchr(v, ']', n);
        he = rb ? (uint32_t)(rb - v) + 1 : n;
    } else {
        while (he < n && v[he] != ':')
            he++;
    }
    out->host = v, out->host_len = he;
    bool ok = http_hostname_valid(v, he);
    if (he < n) {
        if (v[he] != ':')
            return false; /* something after an IPv6 literal */
        uint32_t port = 0, i = he + 1;
        if (i == n)
            return false;
        for (; i < n; i++) {
            if (v[i] < '0' || v[i] > '9' || (port = port * 10 + (uint32_t)(v[i] - '0')) > 65535)
                return false;
        }
        if (!port)
            return false;
        out->port = (int32_t)port;
    }
    return ok;
}

bool http_host_same(const struct http_hostport *a, const struct http_hostport *b)
{
    return a->host_len == b->host_len &&
           !strncasecmp((const char *)a->host, (const char *)b->host, a->host_len) &&
           (a->port < 0 || b->port < 0 || a->port == b->port);
}
