/* message.c — one SIP message (RFC 3261 §7) into spans: the start line (a request's method,
 * Request-URI and version, or a response's version, status code and reason phrase), the
 * header lines (name, value; compact forms such as "f" for From, §7.3.3) and the body. The
 * message is copied once (bounded: SIP_MSG_MAX) and every buffer is a span of that copy.
 * Line ends are CRLF or a bare LF. A header line without a colon, or a start line of another
 * shape, makes the message no SIP message (Suricata's parser refuses both too). */
#include <ctype.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "sip_int.h"

/* The next line of d[at..n): its content [at, *end) and where the line after starts (*next);
 * false when there is no LF before n. */
size_t sip_head_end(const uint8_t *d, size_t n, size_t *from)
{
    size_t at = *from, end, next;
    while (at < n && pline_next(d, n, at, &end, &next)) {
        if (end == at && at > 0) {
            *from = at; /* found again at once while the body comes */
            return next;
        }
        at = next;
    }
    *from = at; /* the line not ended yet: where the look goes on with more bytes */
    return 0;
}

static bool is_token(uint8_t c)
{
    return isalnum(c) || (c && strchr("-.!%*_+`'~", c)); /* (strchr finds the NUL too) */
}

/* the header names rules read, long and compact forms */
static enum sip_hdr header_kind(const uint8_t *n, uint32_t len)
{
    static const struct {
        const char *name;
        enum sip_hdr kind;
    } NAMES[] = {
        {"From", SH_FROM}, {"f", SH_FROM}, {"To", SH_TO}, {"t", SH_TO}, {"Via", SH_VIA},
        {"v", SH_VIA}, {"User-Agent", SH_USER_AGENT}, {"Content-Type", SH_CONTENT_TYPE},
        {"c", SH_CONTENT_TYPE}, {"Content-Length", SH_CONTENT_LENGTH},
        {"l", SH_CONTENT_LENGTH},
    };
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (strlen(NAMES[i].name) == len && !strncasecmp((const char *)n, NAMES[i].name, len))
            return NAMES[i].kind;
    return SH_OTHER;
}

/* "SIP/" 1*DIGIT "." 1*DIGIT */
static bool is_version(const uint8_t *p, size_t n)
{
    if (n < 7 || memcmp(p, "SIP/", 4))
        return false;
    size_t i = 4, d1 = 0, d2 = 0;
    while (i < n && isdigit(p[i]))
        i++, d1++;
    if (i >= n || p[i++] != '.')
        return false;
    while (i < n && isdigit(p[i]))
        i++, d2++;
    return d1 && d2 && i == n;
}

static struct span sp(size_t off, size_t len)
{
    return (struct span){(uint32_t)off, (uint32_t)len, true};
}

/* The start line d[0..e): a request "Method SP Request-URI SP SIP-Version" or a response
 * "SIP-Version SP Status-Code SP Reason-Phrase". */
static bool start_line(struct sip_msg *m, const uint8_t *d, size_t e)
{
    const uint8_t *sp1 = memchr(d, ' ', e);
    if (!sp1 || sp1 == d)
        return false;
    size_t a = (size_t)(sp1 - d);
    if (is_version(d, a)) { /* a response */
        size_t c = a + 1;
        if (e < c + 3 || !isdigit(d[c]) || !isdigit(d[c + 1]) || !isdigit(d[c + 2]) ||
            (e > c + 3 && d[c + 3] != ' '))
            return false;
        m->response = true;
        m->version = sp(0, a);
        m->code = sp(c, 3);
        m->reason = e > c + 3 ? sp(c + 4, e - c - 4) : sp(e, 0);
        return true;
    }
    for (size_t i = 0; i < a; i++)
        if (!is_token(d[i]))
            return false;
    const uint8_t *sp2 = memchr(sp1 + 1, ' ', e - a - 1);
    if (!sp2 || sp2 == sp1 + 1)
        return false;
    size_t b = (size_t)(sp2 - d);
    if (!is_version(d + b + 1, e - b - 1))
        return false;
    m->method = sp(0, a);
    m->uri = sp(a + 1, b - a - 1);
    m->version = sp(b + 1, e - b - 1);
    return true;
}

/* A header line d[at..e): name ":" value, the whitespace around each dropped. */
static bool header_line(struct sip_msg *m, const uint8_t *d, size_t at, size_t e,
                        uint32_t *shed)
{
    const uint8_t *colon = memchr(d + at, ':', e - at);
    if (!colon)
        return false;
    size_t c = (size_t)(colon - d), ne = c;
    while (ne > at && (d[ne - 1] == ' ' || d[ne - 1] == '\t'))
        ne--;
    if (ne == at)
        return false;
    size_t vs = c + 1, ve = e;
    while (vs < ve && (d[vs] == ' ' || d[vs] == '\t'))
        vs++;
    while (ve > vs && (d[ve - 1] == ' ' || d[ve - 1] == '\t'))
        ve--;
    if (m->nhdr == SIP_HEADERS_MAX) {
        (*shed)++;
        return true;
    }
    struct sip_header *h = &m->hdr[m->nhdr++];
    h->name = sp(at, ne - at);
    h->value = sp(vs, ve - vs);
    h->kind = header_kind(d + at, (uint32_t)(ne - at));
    return true;
}

void sip_msg_free(struct sip_msg *m)
{
    pbuf_free(&m->raw);
}

enum sip_parse sip_msg_parse(struct sip_msg *m, const uint8_t *d, size_t n, uint32_t *shed)
{
    /* what a message's parse sets: the fields before the header table, its count, the SDP's
     * (sip_sdp_reset). The table and the SDP lists are 30 KB that a count bounds: not zeroed
     * for every message */
    struct pbuf raw = m->raw;
    memset(m, 0, offsetof(struct sip_msg, hdr));
    m->raw = raw;
    m->nhdr = 0;
    sip_sdp_reset(&m->sdp);
    pbuf_reset(&m->raw);
    if (!n)
        return SIP_INCOMPLETE; /* nothing: no copy to point into */
    if (n > SIP_MSG_MAX) {
        m->body_cut = true;
        n = SIP_MSG_MAX;
    }
    if (pbuf_add(&m->raw, d, n, SIP_MSG_MAX) != n)
        return SIP_INVALID; /* out of memory */
    d = m->raw.p;
    size_t end, next;
    if (!pline_next(d, n, 0, &end, &next))
        return SIP_INCOMPLETE;
    if (!start_line(m, d, end))
        return SIP_INVALID;
    m->line = sp(0, end);
    m->line_crlf = sp(0, next);
    size_t at = next, hs = next;
    for (;;) {
        if (!pline_next(d, n, at, &end, &next))
            return SIP_INCOMPLETE; /* no empty line: the head is cut */
        if (end == at)
            break;
        if (!header_line(m, d, at, end, shed))
            return SIP_INVALID;
        at = next;
    }
    m->headers = sp(hs, at - hs);
    m->body = sp(next, n - next);
    return SIP_OK;
}

int64_t sip_head_content_length(const uint8_t *d, size_t n)
{
    size_t at = 0, end, next;
    if (!pline_next(d, n, 0, &end, &next))
        return -1;
    for (at = next; pline_next(d, n, at, &end, &next) && end > at; at = next) {
        const uint8_t *colon = memchr(d + at, ':', end - at);
        if (!colon)
            continue;
        size_t ne = (size_t)(colon - d);
        while (ne > at && (d[ne - 1] == ' ' || d[ne - 1] == '\t'))
            ne--;
        if (header_kind(d + at, (uint32_t)(ne - at)) != SH_CONTENT_LENGTH)
            continue;
        size_t i = (size_t)(colon - d) + 1;
        while (i < end && (d[i] == ' ' || d[i] == '\t'))
            i++;
        int64_t v = 0;
        size_t digits = 0;
        for (; i < end && isdigit(d[i]) && v < ((int64_t)1 << 40); i++, digits++)
            v = v * 10 + (d[i] - '0');
        while (i < end && (d[i] == ' ' || d[i] == '\t'))
            i++;
        return digits && i == end ? v : -1;
    }
    return -1;
}
