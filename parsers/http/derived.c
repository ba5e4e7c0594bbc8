/* derived.c — HTTP buffers built from the parser's on demand, in the caller's scratch
 * (moved here from the rule compiler): Suricata's http.header_names, http.start, the
 * single-header buffers (http.accept …, repeated ones joined by ", "), http.header without
 * its cookies, the HTTP/1 frames (the whole message), and http.request_header /
 * http.response_header (one element per header line). The headers come as "Name:
 * value\r\n" lines (normalized: folded lines joined). */
#include <string.h>

#include "http_int.h"

static bool name_is(const uint8_t *p, size_t n, const char *name)
{
    if (n != strlen(name))
        return false;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i] >= 'A' && p[i] <= 'Z' ? (uint8_t)(p[i] + 32) : p[i];
        if (c != (uint8_t)name[i])
            return false;
    }
    return true;
}

/* Suricata's http.header leaves out the cookies (they have http.cookie): the parser's
 * normalized headers without the Cookie (request) or Set-Cookie (response) lines. */
static const uint8_t *without_cookies(struct osprey_scratch *s, const uint8_t *h, uint32_t n,
                                      const char *drop, uint32_t *len)
{
    for (uint32_t i = 0; i < n;) {
        const uint8_t *line = h + i, *eol = memchr(line, '\n', n - i);
        uint32_t ll = eol ? (uint32_t)(eol - line) + 1 : n - i;
        i += ll;
        const uint8_t *colon = memchr(line, ':', ll);
        if (colon && name_is(line, (size_t)(colon - line), drop))
            continue;
        if (!scratch_put(s, line, ll))
            return NULL;
    }
    *len = s->len;
    return s->len ? s->p : (const uint8_t *)"";
}

/* Suricata's http.header_names: "\r\n" then each name followed by "\r\n", then "\r\n";
 * or the values of one header (several joined by ", "). */
static const uint8_t *from_headers(struct osprey_scratch *s, const uint8_t *h, uint32_t n,
                                   const char *want, uint32_t *len)
{
    bool any = false, ok = true;
    if (!want)
        ok = scratch_put(s, "\r\n", 2);
    for (uint32_t i = 0; ok && i < n;) {
        const uint8_t *line = h + i, *eol = memchr(line, '\n', n - i);
        uint32_t ll = eol ? (uint32_t)(eol - line) : n - i;
        i += ll + (eol ? 1 : 0);
        if (ll && line[ll - 1] == '\r')
            ll--;
        const uint8_t *colon = memchr(line, ':', ll);
        if (!ll || !colon)
            continue;
        size_t nl = (size_t)(colon - line);
        while (nl && (line[nl - 1] == ' ' || line[nl - 1] == '\t'))
            nl--;
        if (!want) {
            ok = scratch_put(s, line, nl) && scratch_put(s, "\r\n", 2);
            any = true;
            continue;
        }
        if (!name_is(line, nl, want))
            continue;
        const uint8_t *v = colon + 1, *ve = line + ll;
        while (v < ve && (*v == ' ' || *v == '\t'))
            v++;
        while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
            ve--;
        ok = (!any || scratch_put(s, ", ", 2)) && scratch_put(s, v, (size_t)(ve - v));
        any = true;
    }
    if (ok && !want)
        ok = scratch_put(s, "\r\n", 2);
    if (!ok || !any)
        return NULL; /* no such header (or out of memory): the buffer is absent */
    *len = s->len;
    return s->p ? s->p : (const uint8_t *)"";
}

/* Line i of "Name: value\r\n" lines (the parser's normalized headers), without its CRLF. */
static const uint8_t *header_line(const uint8_t *h, uint32_t n, uint32_t i, uint32_t *len)
{
    for (uint32_t at = 0, k = 0; at < n; k++) {
        const uint8_t *line = h + at, *eol = memchr(line, '\n', n - at);
        uint32_t ll = eol ? (uint32_t)(eol - line) : n - at;
        at += ll + (eol ? 1 : 0);
        if (k != i)
            continue;
        if (ll && line[ll - 1] == '\r')
            ll--;
        *len = ll;
        return line;
    }
    return NULL;
}

static bool is_response(unsigned which)
{
    switch (which) {
    case HD_RESP_HEADER_NAMES: case HD_RESP_START: case HD_RESP_CONTENT_LEN:
    case HD_RESP_CONNECTION: case HD_LOCATION: case HD_SERVER: case HD_RESP_HEADER:
    case HD_RESP_FRAME: case HD_RESP_HEADER_LINES:
        return true;
    default:
        return false;
    }
}

const uint8_t *http_derived(struct pflow *pf, unsigned which, uint32_t i,
                            struct osprey_scratch *s, uint32_t *len)
{
    static const char *const ONE[] = {
        [HD_REQ_CONTENT_LEN] = "content-length", [HD_RESP_CONTENT_LEN] = "content-length",
        [HD_REQ_CONNECTION] = "connection",      [HD_RESP_CONNECTION] = "connection",
        [HD_ACCEPT] = "accept",                  [HD_ACCEPT_ENC] = "accept-encoding",
        [HD_ACCEPT_LANG] = "accept-language",    [HD_LOCATION] = "location",
        [HD_SERVER] = "server",
    };
    bool resp = is_response(which);
    uint32_t n = 0;
    const uint8_t *h;
    s->len = 0;
    if (which == HD_REQ_HEADER_LINES || which == HD_RESP_HEADER_LINES) {
        h = http_buffer(pf, resp ? HB_RESPONSE_HEADER : HB_HEADER, &n);
        return h ? header_line(h, n, i, len) : NULL;
    }
    if (i > 0)
        return NULL;
    if (which == HD_REQ_HEADER || which == HD_RESP_HEADER) {
        h = http_buffer(pf, resp ? HB_RESPONSE_HEADER : HB_HEADER, &n);
        return h ? without_cookies(s, h, n, resp ? "set-cookie" : "cookie", len) : NULL;
    }
    bool frame = which == HD_REQ_FRAME || which == HD_RESP_FRAME;
    if (which == HD_REQ_START || which == HD_RESP_START || frame) {
        /* the start line, CRLF, then the headers as sent (with their empty line); a frame
         * then has the body (as decoded: dechunked, decompressed) */
        uint32_t sl = 0;
        const uint8_t *st = http_buffer(pf, resp ? HB_RESPONSE_LINE : HB_REQUEST_LINE, &sl);
        h = http_buffer(pf, resp ? HB_RESPONSE_HEADER_RAW : HB_HEADER_RAW, &n);
        if (!st || !scratch_put(s, st, sl) || !scratch_put(s, "\r\n", 2) ||
            (h && !scratch_put(s, h, n)))
            return NULL;
        uint32_t bn = 0;
        const uint8_t *b =
            frame ? http_buffer(pf, resp ? HB_RESPONSE_BODY : HB_REQUEST_BODY, &bn) : NULL;
        if (b && !scratch_put(s, b, bn))
            return NULL;
        *len = s->len;
        return s->p;
    }
    bool names = which == HD_REQ_HEADER_NAMES || which == HD_RESP_HEADER_NAMES;
    enum http_buf src = names ? (resp ? HB_RESPONSE_HEADER_RAW : HB_HEADER_RAW)
                              : (resp ? HB_RESPONSE_HEADER : HB_HEADER);
    h = http_buffer(pf, src, &n);
    if (!h)
        return NULL;
    return from_headers(s, h, n, names ? NULL : ONE[which], len);
}
