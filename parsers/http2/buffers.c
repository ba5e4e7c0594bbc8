/* buffers.c — the buffers and fields an HTTP/2 transaction serves, as Suricata forms them on
 * HTTP/2: the http.* buffers from the pseudo-headers and headers (http.uri from :path,
 * http.host from :authority lower-cased without userinfo and port, http.header as
 * "name: value\r\n" for every field, pseudo-headers included, http.header_names as "\r\n",
 * then "name\r\n" each, then "\r\n"), one element per header (http.request_header /
 * response_header, http2.header_name), the side's DATA (file.data), the frame being read
 * (frame:http2.hdr / .data / .pdu), and the frame facts of the http2.* keywords. A key is
 * (enum h2_buf << 1) | side. */
#include <ctype.h>
#include <string.h>

#include "http2_int.h"

static const uint8_t EMPTY[1];

static const uint8_t *out(const uint8_t *p, uint32_t n, uint32_t *len)
{
    *len = n;
    return p ? p : EMPTY;
}

static const uint8_t *named(const struct h2_side *sd, const char *name, uint32_t *len)
{
    const uint8_t *v = h2_header(sd, name, len);
    return v ? out(v, *len, len) : NULL;
}

/* every value of the cookie fields, joined by "; " (one may be split per crumb, RFC 9113
 * §8.2.3) */
static const uint8_t *cookie(const struct h2_side *sd, struct osprey_scratch *s, uint32_t *len)
{
    bool any = false;
    for (uint32_t i = 0; i < sd->nh; i++) {
        const struct h2_header *h = &sd->h[i];
        if (h->nl != 6 || memcmp(h2_copy(sd) + h->no, "cookie", 6))
            continue;
        if ((any && !scratch_put(s, "; ", 2)) || !scratch_put(s, h2_copy(sd) + h->vo, h->vl))
            return NULL;
        any = true;
    }
    return any ? scratch_bytes(s, len) : NULL;
}

/* :authority as http.host: no userinfo, no port, lower case */
static const uint8_t *host(const struct h2_side *sd, struct osprey_scratch *s, uint32_t *len)
{
    uint32_t n;
    const uint8_t *a = h2_header(sd, ":authority", &n);
    if (!a)
        a = h2_header(sd, "host", &n);
    if (!a)
        return NULL;
    const uint8_t *at = memchr(a, '@', n);
    if (at) {
        n -= (uint32_t)(at + 1 - a);
        a = at + 1;
    }
    uint32_t e = n;
    if (n && a[0] == '[') { /* an IPv6 literal keeps its colons */
        const uint8_t *rb = memchr(a, ']', n);
        e = rb ? (uint32_t)(rb + 1 - a) : n;
    } else {
        const uint8_t *c = memchr(a, ':', n);
        if (c)
            e = (uint32_t)(c - a);
    }
    for (uint32_t i = 0; i < e; i++) {
        uint8_t b = (uint8_t)tolower(a[i]);
        if (!scratch_put(s, &b, 1))
            return NULL;
    }
    return scratch_bytes(s, len);
}

static const uint8_t *headers(const struct h2_side *sd, bool names, struct osprey_scratch *s,
                              uint32_t *len)
{
    if (!sd->nh)
        return NULL;
    if (names && !scratch_put(s, "\r\n", 2))
        return NULL;
    for (uint32_t i = 0; i < sd->nh; i++) {
        const struct h2_header *h = &sd->h[i];
        if (!scratch_put(s, h2_copy(sd) + h->no, h->nl))
            return NULL;
        if (!names && (!scratch_put(s, ": ", 2) || !scratch_put(s, h2_copy(sd) + h->vo, h->vl)))
            return NULL;
        if (!scratch_put(s, "\r\n", 2))
            return NULL;
    }
    if (names && !scratch_put(s, "\r\n", 2))
        return NULL;
    return scratch_bytes(s, len);
}

static const uint8_t *element(const struct h2_side *sd, uint32_t i, bool line,
                              struct osprey_scratch *s, uint32_t *len)
{
    if (i >= sd->nh)
        return NULL;
    const struct h2_header *h = &sd->h[i];
    if (!line)
        return out(h2_copy(sd) + h->no, h->nl, len);
    if (!scratch_put(s, h2_copy(sd) + h->no, h->nl) || !scratch_put(s, ": ", 2) ||
        !scratch_put(s, h2_copy(sd) + h->vo, h->vl))
        return NULL;
    return scratch_bytes(s, len);
}

static const uint8_t *frame(struct http2_state *st, enum h2_buf b, int side,
                            struct osprey_scratch *s, uint32_t *len)
{
    if (st->frame_dir != side)
        return NULL;
    const struct h2_dir *hd = &st->d[side];
    if (b == H2B_FRAME_HDR)
        return out(hd->hdr, H2_HDR, len);
    if (b == H2B_FRAME_DATA)
        return out(hd->payload.p, hd->payload.len, len);
    if (!scratch_put(s, hd->hdr, H2_HDR) || !scratch_put(s, hd->payload.p ? hd->payload.p : EMPTY,
                                                         hd->payload.len))
        return NULL;
    return scratch_bytes(s, len);
}

const uint8_t *h2_buffer(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                         uint32_t *len)
{
    struct http2_state *st = pf->state;
    enum h2_buf b = (enum h2_buf)(key >> 1);
    int side = (int)(key & 1);
    s->len = 0; /* the caller's room: built from its start */
    if (b >= H2B_FRAME_HDR)
        return frame(st, b, side, s, len);
    if (!st->cur)
        return NULL;
    const struct h2_side *sd = &st->cur->s[side];
    switch (b) {
    case H2B_METHOD: return named(sd, ":method", len);
    case H2B_URI: return named(sd, ":path", len);
    case H2B_HOST: return host(sd, s, len);
    case H2B_HOST_RAW: {
        const uint8_t *a = named(sd, ":authority", len);
        return a ? a : named(sd, "host", len);
    }
    case H2B_USER_AGENT: return named(sd, "user-agent", len);
    case H2B_COOKIE: return cookie(sd, s, len);
    case H2B_CONTENT_TYPE: return named(sd, "content-type", len);
    case H2B_REFERER: return named(sd, "referer", len);
    case H2B_STAT_CODE: return named(sd, ":status", len);
    case H2B_PROTOCOL:
        return sd->nh ? out((const uint8_t *)"HTTP/2", 6, len) : NULL;
    case H2B_HEADER: return headers(sd, false, s, len);
    case H2B_HEADER_NAMES: return headers(sd, true, s, len);
    case H2B_HEADER_LINE: return element(sd, i, true, s, len);
    case H2B_HEADER_NAME: return element(sd, i, false, s, len);
    case H2B_BODY: { /* what rules inspect: up to HTTP's inspection limit, as HTTP/1's */
        uint32_t lim = http_body_inspect_limit(h2_http_cfg(pf), side);
        return sd->body.len ? out(sd->body.p, lim && sd->body.len > lim ? lim : sd->body.len,
                                  len)
                            : NULL;
    }
    case H2B_FRAMES: return sd->ntypes ? out(EMPTY, 0, len) : NULL;
    case H2B_DOH_QUERIES: return h2_doh_name(sd, false, i, len);
    case H2B_DOH_ANSWERS: return h2_doh_name(sd, true, i, len);
    default: return NULL;
    }
}

bool h2_field(struct pflow *pf, unsigned key, uint32_t i, int64_t *v)
{
    const struct http2_state *st = pf->state;
    if (!st || !st->cur)
        return false;
    const struct h2_side *sd = &st->cur->s[st->cur_dir];
    switch (key) {
    case H2K_FRAMETYPE: return i < sd->ntypes && (*v = sd->types[i], true);
    case H2K_ERRORCODE: return i < sd->nerrors && (*v = sd->errors[i], true);
    case H2K_PRIORITY: return i < sd->nprios && (*v = sd->prios[i], true);
    case H2K_WINDOW: return i < sd->nwindows && (*v = sd->windows[i], true);
    case H2K_SIZE_UPDATE: return i < sd->nupdates && (*v = sd->updates[i], true);
    case H2K_SETTINGS: /* the id above, the value below: one comparison covers both */
        return i < sd->nsettings &&
               (*v = (int64_t)sd->settings[i].id << 32 | sd->settings[i].value, true);
    default: return false;
    }
}
