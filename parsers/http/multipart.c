/* multipart.c — a multipart/form-data request body (RFC 7578, RFC 2046 §5.1) read into its
 * parts as Suricata makes files of them: the boundary from the request's Content-Type, each
 * part's header lines up to their empty line, its Content-Disposition filename, its data up
 * to the CRLF before the next "--boundary". A part the body ends inside (the flow's end, the
 * request-body-limit) is incomplete. Read from the decoded body the parser keeps. */
#include <string.h>
#include <strings.h>

#include "http_int.h"

static const uint8_t *boundary_of(const uint8_t *ct, uint32_t n, uint32_t *bl)
{
    static const char MP[] = "multipart/form-data", B[] = "boundary=";
    uint32_t i = 0;
    while (i < n && (ct[i] == ' ' || ct[i] == '\t'))
        i++;
    if (n - i < sizeof MP - 1 || strncasecmp((const char *)ct + i, MP, sizeof MP - 1))
        return NULL;
    for (i += sizeof MP - 1; i + sizeof B - 1 <= n; i++) {
        if (strncasecmp((const char *)ct + i, B, sizeof B - 1))
            continue;
        const uint8_t *v = ct + i + sizeof B - 1, *e = ct + n;
        if (v < e && *v == '"') {
            v++;
            const uint8_t *q = memchr(v, '"', (size_t)(e - v));
            e = q ? q : e;
        } else {
            const uint8_t *p = v;
            while (p < e && *p != ';' && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
                p++;
            e = p;
        }
        *bl = (uint32_t)(e - v);
        return *bl && *bl <= 200 ? v : NULL; /* RFC 2046: at most 70 */
    }
    return NULL;
}

/* The delimiter "--boundary" at or after `from` in b[0..n): at the body's start or after a
 * line end, and followed by "--", white space or a line end (a longer word is data); -1 when
 * none. */
static int64_t delimiter(const uint8_t *b, uint32_t n, uint32_t from, const uint8_t *bd,
                         uint32_t bl)
{
    for (uint32_t i = from; i + 2 + bl <= n; i++) {
        const uint8_t *p = memchr(b + i, '-', n - i - 1 - bl);
        if (!p)
            return -1;
        i = (uint32_t)(p - b);
        uint32_t e = i + 2 + bl; /* what follows it */
        if (p[1] == '-' && !memcmp(p + 2, bd, bl) && (i == 0 || b[i - 1] == '\n') &&
            (e == n || b[e] == '-' || b[e] == '\r' || b[e] == '\n' || b[e] == ' ' ||
             b[e] == '\t'))
            return i;
    }
    return -1;
}

int http_multipart(const struct http_msg *req, struct http_part *parts, int max)
{
    if (!req->present || !req->sp[HB_CONTENT_TYPE].set || !req->body.len)
        return -1;
    uint32_t bl = 0;
    const uint8_t *bd = boundary_of(req->copy.p + req->sp[HB_CONTENT_TYPE].off,
                                    req->sp[HB_CONTENT_TYPE].len, &bl);
    if (!bd)
        return -1; /* not multipart/form-data */
    const uint8_t *b = req->body.p;
    uint32_t n = req->body.len;
    int np = 0;
    int64_t at = delimiter(b, n, 0, bd, bl);
    while (at >= 0 && np < max) {
        uint32_t p = (uint32_t)at + 2 + bl;
        if (p + 2 <= n && b[p] == '-' && b[p + 1] == '-')
            break; /* the close delimiter */
        const uint8_t *eol = memchr(b + p, '\n', n - p);
        if (!eol)
            break;
        uint32_t hs = (uint32_t)(eol - b) + 1, he = hs; /* the part's header lines */
        while (he < n && b[he] != '\n' && !(b[he] == '\r' && he + 1 < n && b[he + 1] == '\n')) {
            const uint8_t *l = memchr(b + he, '\n', n - he);
            he = l ? (uint32_t)(l - b) + 1 : n;
        }
        if (he >= n)
            break; /* its headers never end */
        struct http_part *pt = &parts[np++];
        memset(pt, 0, sizeof *pt);
        pt->hdr_off = hs;
        pt->hdr_len = he - hs;
        uint32_t ds = he + (b[he] == '\r' ? 2 : 1);
        int64_t next = delimiter(b, n, ds, bd, bl);
        uint32_t de = next < 0 ? n : (uint32_t)next;
        if (next >= 0) { /* the line end before the delimiter is the delimiter's */
            if (de > ds && b[de - 1] == '\n')
                de--;
            if (de > ds && b[de - 1] == '\r')
                de--;
        }
        pt->data_off = ds;
        pt->data_len = de - ds;
        pt->complete = next >= 0;
        at = next;
    }
    return np;
}
