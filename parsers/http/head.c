/* head.c — one HTTP message head into its buffers.
 *
 * Buffers (as Suricata defines them): the start line without its line end; http.header =
 * every header as "Name: value\r\n" (folded lines joined by one space, the value trimmed;
 * Cookie included, as Suricata does); http.header.raw = the header lines exactly as sent,
 * the empty line included; single headers (Host, User-Agent, Cookie, Referer, Content-Type)
 * with repeated occurrences joined by ", "; http.host lower-cased without its port (from an
 * absolute request target when there is one), http.host.raw as sent.
 *
 * A response head is read with resp_head.c's lenient line rules, and its framing headers
 * (Transfer-Encoding, Content-Length, Content-Encoding) as libhtp reads them: names matched
 * ignoring case and NUL bytes, repeated headers merged with ", ". */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http_int.h"

#define MAX_HEADERS 256

struct hdr {
    uint32_t name, nlen; /* offsets into the head */
    uint32_t val;        /* offset into m->copy of the unfolded value */
    uint32_t vlen;
};

static bool is_ws(uint8_t c) { return c == ' ' || c == '\t'; }

/* RFC 9110 §5.6.2 token characters (a method, a header name): letters, digits and
 * !#$%&'*+-.^_`|~, as bit c of two masks (a header name's every byte is tested) */
bool http_is_tchar(uint8_t c)
{
    static const uint64_t below64 = 0x03ff6cfa00000000ull, below128 = 0x57ffffffc7fffffeull;
    return c < 64 ? below64 >> c & 1 : c < 128 && (below128 >> (c - 64) & 1);
}

/* Next line [s, e) of d from *at, without its CR LF; false at the end. */
static bool next_line(const uint8_t *d, uint32_t n, uint32_t *at, uint32_t *s, uint32_t *e)
{
    if (*at >= n)
        return false;
    *s = *at;
    size_t end, next;
    pline_next(d, n, *at, &end, &next); /* the last line may lack its LF */
    *at = (uint32_t)next;
    *e = (uint32_t)end;
    return true;
}

static void put(struct http_msg *m, enum http_buf b, const uint8_t *d, uint32_t n)
{
    uint32_t off = m->copy.len;
    if (pbuf_add(&m->copy, d, n, 0) == n || !n)
        m->sp[b] = (struct span){off, n, true};
}

static void append_to(struct http_msg *m, enum http_buf b, const uint8_t *d, uint32_t n)
{
    /* the buffer being built is always the last thing in the copy */
    if (!m->sp[b].set)
        m->sp[b] = (struct span){m->copy.len, 0, true};
    m->sp[b].len += pbuf_add(&m->copy, d, n, 0);
}

static const uint8_t *bytes(const struct http_msg *m, enum http_buf b)
{
    return m->copy.p + m->sp[b].off;
}

/* The value of every header called name, joined by ", ", into buffer b. */
static void single(struct http_msg *m, const uint8_t *d, const struct hdr *h, int nh,
                   const char *name, enum http_buf b)
{
    size_t nl = strlen(name);
    for (int i = 0; i < nh; i++) {
        if (h[i].nlen != nl || strncasecmp((const char *)d + h[i].name, name, nl))
            continue;
        if (m->sp[b].set)
            append_to(m, b, (const uint8_t *)", ", 2);
        if (!h[i].vlen) /* an empty header is a buffer of 0 bytes (bsize:0), not a missing one */
            append_to(m, b, (const uint8_t *)"", 0);
        /* the value lives in the copy, which append may move: copy it through a bounce */
        uint8_t tmp[512];
        for (uint32_t o = 0; o < h[i].vlen; o += sizeof tmp) {
            uint32_t k = h[i].vlen - o < sizeof tmp ? h[i].vlen - o : (uint32_t)sizeof tmp;
            memcpy(tmp, m->copy.p + h[i].val + o, k);
            append_to(m, b, tmp, k);
        }
    }
}

static uint64_t parse_u64(const uint8_t *s, uint32_t n, bool *ok)
{
    uint64_t v = 0;
    uint32_t i = 0;
    while (i < n && is_ws(s[i]))
        i++;
    *ok = i < n;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        v = v > UINT64_MAX / 16 ? UINT64_MAX : v * 10 + (uint64_t)(s[i] - '0');
    while (i < n && is_ws(s[i]))
        i++;
    if (i != n)
        *ok = false;
    return v;
}

static bool has_token(const uint8_t *v, uint32_t n, const char *tok)
{
    size_t tl = strlen(tok);
    for (uint32_t i = 0; i + tl <= n; i++)
        if (!strncasecmp((const char *)v + i, tok, tl))
            return true;
    return false;
}

/* http.header / http.response_header: "Name: value\r\n" per header. */
static void header_buffer(struct http_msg *m, const uint8_t *d, const struct hdr *h, int nh,
                          enum http_buf hb)
{
    m->sp[hb] = (struct span){m->copy.len, 0, true};
    for (int i = 0; i < nh; i++) {
        uint8_t tmp[512];
        append_to(m, hb, d + h[i].name, h[i].nlen);
        append_to(m, hb, (const uint8_t *)": ", 2);
        for (uint32_t o = 0; o < h[i].vlen; o += sizeof tmp) {
            uint32_t k = h[i].vlen - o < sizeof tmp ? h[i].vlen - o : (uint32_t)sizeof tmp;
            memcpy(tmp, m->copy.p + h[i].val + o, k);
            append_to(m, hb, tmp, k);
        }
        append_to(m, hb, (const uint8_t *)"\r\n", 2);
    }
}

int http_protocol_number(const uint8_t *p, uint32_t n)
{
    if (n != 8 || strncasecmp((const char *)p, "HTTP/", 5))
        return -1;
    return !memcmp(p + 5, "1.1", 3) ? 11 : !memcmp(p + 5, "1.0", 3) ? 10
           : !memcmp(p + 5, "0.9", 3) ? 9 : -1;
}

/* A header name d[s, ne) (the head's header nh, the ones before it in h): not a token, or
 * seen before (libhtp's warnings; the second of each name, once noted) */
static void note_name(const uint8_t *d, const struct hdr *h, int nh, uint32_t s, uint32_t ne,
                      struct http_head_info *info)
{
    for (uint32_t i = s; i < ne; i++)
        info->name_invalid |= !http_is_tchar(d[i]);
    for (int i = 0; i < nh && !info->repeated; i++)
        info->repeated = h[i].nlen == ne - s &&
                         !strncasecmp((const char *)d + h[i].name, (const char *)d + s, ne - s);
}

static int start_line(struct http_msg *m, bool request, const uint8_t *l, uint32_t n,
                      struct http_head_info *info)
{
    if (request) {
        put(m, HB_REQUEST_LINE, l, n);
        /* whitespace before the method: skipped, as libhtp (IIS allows it) */
        uint32_t m0 = 0;
        while (m0 < n && (is_ws(l[m0]) || l[m0] == '\v' || l[m0] == '\f'))
            m0++;
        info->leading_ws = m0 > 0;
        uint32_t a = m0;
        while (a < n && !is_ws(l[a]))
            a++;
        put(m, HB_METHOD, l + m0, a - m0);
        info->is_head = a - m0 == 4 && !memcmp(l + m0, "HEAD", 4);
        info->is_connect = a - m0 == 7 && !memcmp(l + m0, "CONNECT", 7);
        uint32_t b = a;
        while (b < n && is_ws(l[b]))
            info->method_delim |= l[b++] != ' ';
        /* the protocol is the last word when it looks like one; the URI is what is between */
        uint32_t e = n;
        while (e > b && is_ws(l[e - 1]))
            e--;
        uint32_t p = e;
        while (p > b && !is_ws(l[p - 1]))
            p--;
        uint32_t ue = e;
        if (p > b && e - p >= 5 && !memcmp(l + p, "HTTP/", 5)) {
            put(m, HB_PROTOCOL, l + p, e - p);
            ue = p;
            while (ue > b && is_ws(l[ue - 1]))
                ue--;
        }
        /* not a request line at all (binary after an upgrade, a desynchronised stream):
         * the method must be a token and a target must follow */
        if (a == m0 || ue <= b)
            return -1;
        for (uint32_t i = m0; i < a; i++)
            if (!http_is_tchar(l[i]))
                return -1;
        /* URI and protocol not split by a space, but by other whitespace */
        info->uri_delim = !memchr(l + b, ' ', e - b) && memchr(l + b, '\t', e - b);
        put(m, HB_URI_RAW, l + b, ue - b);
        uint8_t *norm = malloc(ue - b + 1);
        if (norm) {
            uint32_t nl = http_uri_normalize(l + b, ue - b, norm, ue - b);
            put(m, HB_URI, norm, nl);
            free(norm);
        }
        return 0;
    }
    /* as libhtp: spaces, the protocol (any word starting "http"), the status, the rest */
    if (!http_resp_line_is_http(l, n))
        return -1;
    put(m, HB_RESPONSE_LINE, l, n);
    uint32_t a = 0;
    while (a < n && (http_is_space(l[a]) || !l[a]))
        a++;
    while (a < n && !http_is_space(l[a]))
        a++;
    uint32_t b = a;
    while (b < n && http_is_space(l[b]))
        b++;
    uint32_t c = b;
    while (c < n && !http_is_space(l[c]))
        c++;
    put(m, HB_STAT_CODE, l + b, c - b);
    uint32_t p0 = 0;
    while (p0 < a && (http_is_space(l[p0]) || !l[p0]))
        p0++;
    int proto = http_protocol_number(l + p0, a - p0);
    info->proto_invalid = proto < 0;
    info->proto_old = proto < 11;
    bool ok;
    uint64_t st = parse_u64(l + b, c - b, &ok);
    info->status = ok && c - b == 3 ? (int)st : 0;
    info->status_invalid = !ok || st < 100 || st > 999;
    if (!info->status)
        info->malformed = true;
    while (c < n && http_is_space(l[c]))
        c++;
    put(m, HB_STAT_MSG, l + c, n - c);
    return 0;
}

/* ---- responses: framing read as libhtp reads it ---- */

/* Case-insensitive equality that skips NUL bytes on both sides ("gz\0ip" is "gzip"). */
static bool eq_nozero(const uint8_t *a, uint32_t an, const char *b)
{
    size_t bn = strlen(b), j = 0;
    /* NUL bytes only lengthen a: shorter, it cannot match; as long, it matches only without
     * any (most names are decided here, without the byte loop) */
    if (an <= bn)
        return an == bn && !strncasecmp((const char *)a, b, bn);
    for (uint32_t i = 0; i < an; i++) {
        if (!a[i])
            continue;
        if (j == bn || tolower(a[i]) != tolower((unsigned char)b[j]))
            return false;
        j++;
    }
    return j == bn;
}

/* Does v contain tok, case-insensitively, NUL bytes skipped? */
static bool has_nozero(const uint8_t *v, uint32_t n, const char *tok)
{
    size_t tl = strlen(tok);
    for (uint32_t i = 0; i < n; i++) {
        size_t j = 0;
        for (uint32_t k = i; k < n && j < tl; k++) {
            if (!v[k])
                continue;
            if (tolower(v[k]) != tok[j])
                break;
            j++;
        }
        if (j == tl)
            return true;
    }
    return false;
}

/* Content-Length as libhtp reads it: spaces, anything but digits, then the digits. */
static bool lenient_length(const uint8_t *v, uint32_t n, uint64_t *out)
{
    uint32_t i = 0;
    while (i < n && (v[i] < '0' || v[i] > '9'))
        i++;
    if (i == n)
        return false;
    uint64_t x = 0;
    for (; i < n && v[i] >= '0' && v[i] <= '9'; i++) {
        if (x > (UINT64_MAX - 9) / 10)
            return false;
        x = x * 10 + (uint64_t)(v[i] - '0');
    }
    *out = x;
    return true;
}

/* Content-Encoding: every listed coding (split at commas and spaces) in order; unknown
 * ones are kept as HC_NONE because they count against the layer limit. */
static void content_codings(const uint8_t *v, uint32_t n, struct http_head_info *info)
{
    info->ncodings = 0;
    info->ce_single = true;
    info->ce_abnormal_at = -1;
    if (eq_nozero(v, n, "gzip") || eq_nozero(v, n, "x-gzip"))
        info->codings[info->ncodings++] = HC_GZIP;
    else if (eq_nozero(v, n, "deflate") || eq_nozero(v, n, "x-deflate"))
        info->codings[info->ncodings++] = HC_DEFLATE;
    else if (eq_nozero(v, n, "lzma"))
        info->codings[info->ncodings++] = HC_LZMA;
    else if (!eq_nozero(v, n, "inflate") && !eq_nozero(v, n, "none")) {
        info->ce_single = false;
        for (uint32_t i = 0; i < n && info->ncodings < (int)sizeof info->codings;) {
            uint32_t e = i;
            while (e < n && v[e] != ',' && v[e] != ' ')
                e++;
            if (e > i) {
                uint8_t c = HC_NONE;
                const uint8_t *t = v + i;
                uint32_t tl = e - i;
#define IS(s) (tl == sizeof s - 1 && !memcmp(t, s, tl)) /* libhtp compares these exactly */
                bool abnormal;
                if (has_token(t, tl, "gzip")) {
                    c = HC_GZIP;
                    abnormal = !IS("gzip") && !IS("x-gzip");
                } else if (has_token(t, tl, "deflate")) {
                    c = HC_DEFLATE;
                    abnormal = !IS("deflate") && !IS("x-deflate");
                } else {
                    c = IS("lzma") ? HC_LZMA : HC_NONE;
                    abnormal = !IS("lzma") && !IS("inflate") && !IS("none"); /* unknown */
                }
#undef IS
                if (abnormal && info->ce_abnormal_at < 0)
                    info->ce_abnormal_at = info->ncodings;
                info->codings[info->ncodings++] = c;
            }
            i = e + 1;
        }
    }
}

/* The merged value of every header called name (libhtp joins repeats with ", "), built at
 * the end of the copy; *len its length. NULL when there is none. */
static const uint8_t *merged(struct http_msg *m, const uint8_t *d, const struct hdr *h, int nh,
                             const char *name, uint32_t *len)
{
    uint32_t start = m->copy.len;
    bool any = false;
    for (int i = 0; i < nh; i++) {
        if (!eq_nozero(d + h[i].name, h[i].nlen, name))
            continue;
        if (any)
            pbuf_add(&m->copy, ", ", 2, 0);
        any = true;
        /* the value lives in the copy, which may move as it grows: go through a bounce */
        uint8_t tmp[512];
        for (uint32_t o = 0; o < h[i].vlen; o += sizeof tmp) {
            uint32_t k = h[i].vlen - o < sizeof tmp ? h[i].vlen - o : (uint32_t)sizeof tmp;
            memcpy(tmp, m->copy.p + h[i].val + o, k);
            pbuf_add(&m->copy, tmp, k, 0);
        }
    }
    *len = m->copy.len - start;
    return any ? m->copy.p + start : NULL;
}

static void response_framing(struct http_msg *m, const uint8_t *d, const struct hdr *h, int nh,
                             struct http_head_info *info)
{
    uint32_t keep = m->copy.len, len;
    const uint8_t *te = merged(m, d, h, nh, "transfer-encoding", &len);
    info->has_te = te != NULL;
    info->chunked = te && has_nozero(te, len, "chunked");
    info->te_abnormal = info->chunked && (len != 7 || strncasecmp((const char *)te, "chunked", 7));
    m->copy.len = keep;
    for (int i = 0; i < nh; i++) {
        if (!eq_nozero(d + h[i].name, h[i].nlen, "content-length"))
            continue;
        bool repeated = info->has_cl;
        info->has_cl = true;
        uint64_t x;
        const uint8_t *v = m->copy.p + h[i].val;
        if (!info->has_length && lenient_length(v, h[i].vlen, &x)) {
            info->has_length = true;
            info->length = x;
        } else if (!info->has_length || !lenient_length(v, h[i].vlen, &x) ||
                   x != info->length) {
            info->malformed = true;
            info->cl_invalid |= !repeated; /* the first one has no digits */
            info->cl_ambiguous |= repeated; /* repeated with another or no number */
        }
    }
    const uint8_t *ce = merged(m, d, h, nh, "content-encoding", &len);
    if (ce)
        content_codings(ce, len, info);
    m->copy.len = keep;
}

static int response_head(struct http_msg *m, const uint8_t *d, uint32_t n, uint32_t avail,
                         struct http_head_info *info)
{
    uint32_t at = 0, le = 0;
    int r;
    while ((r = http_resp_line(d, n, at, &le)) >= 0 && le == at)
        at = (uint32_t)r; /* empty lines before the status line */
    if (r < 0) { /* a head cut at the limit inside its status line */
        le = n;
        r = (int)n;
    }
    if (start_line(m, false, d + at, le - at, info) != 0)
        return -1;
    uint32_t hstart = (uint32_t)r;
    /* (not zeroed: entries are read only up to the count written; zeroing 256 of each was
     * a tenth of parsing a head) */
    struct rh_header *rh = malloc(MAX_HEADERS * sizeof *rh);
    struct hdr *h = malloc(MAX_HEADERS * sizeof *h);
    if (!rh || !h) {
        free(rh);
        free(h);
        return -1;
    }
    struct rh_out o = {&m->copy, rh, 0, MAX_HEADERS};
    uint32_t pos = hstart;
    if (hstart < n)
        http_resp_headers(d, avail, &pos, &o);
    /* the first header line starts with whitespace: folding with nothing to fold into (its
     * name is read trimmed) */
    info->bad_folding = hstart < n && (d[hstart] == ' ' || d[hstart] == '\t');
    int nh = 0;
    for (int i = 0; i < o.nh; i++) {
        if (rh[i].no_colon) {
            info->malformed = info->missing_colon = true;
            continue;
        }
        note_name(d, h, nh, rh[i].ns, rh[i].ne, info);
        h[nh++] = (struct hdr){rh[i].ns, rh[i].ne - rh[i].ns, rh[i].val, rh[i].vlen};
    }
    if (o.nh == MAX_HEADERS)
        info->malformed = true;
    put(m, HB_RESPONSE_HEADER_RAW, d + hstart, n > hstart ? n - hstart : 0);
    header_buffer(m, d, h, nh, HB_RESPONSE_HEADER);
    single(m, d, h, nh, "Set-Cookie", HB_RESPONSE_COOKIE);
    single(m, d, h, nh, "Server", HB_SERVER);
    single(m, d, h, nh, "Location", HB_LOCATION);
    single(m, d, h, nh, "Content-Type", HB_RESPONSE_CONTENT_TYPE);
    response_framing(m, d, h, nh, info);
    free(rh);
    free(h);
    return 0;
}

/* The request's host names as libhtp checks them (Suricata's host events): the Host header
 * against the URI's host (an absolute target), both valid, and HTTP/1.1 needs one. */
static void host_checks(struct http_msg *m, struct http_head_info *info)
{
    struct http_hostport hh, uh;
    uint32_t ul = 0;
    const uint8_t *uri = m->sp[HB_URI_RAW].set
                             ? http_uri_host(bytes(m, HB_URI_RAW), m->sp[HB_URI_RAW].len, &ul)
                             : NULL;
    if (uri)
        info->hostu_invalid = !http_hostport(uri, ul, &uh);
    if (!m->sp[HB_HOST_RAW].set) {
        info->host_missing =
            http_protocol_number(bytes(m, HB_PROTOCOL), m->sp[HB_PROTOCOL].len) == 11;
        return;
    }
    info->hosth_invalid = !http_hostport(bytes(m, HB_HOST_RAW), m->sp[HB_HOST_RAW].len, &hh);
    info->host_ambiguous = uri && !http_host_same(&hh, &uh);
}

int http_head_parse(struct http_msg *m, bool request, const uint8_t *d, uint32_t n,
                    uint32_t avail, struct http_head_info *info)
{
    memset(info, 0, sizeof *info);
    info->ce_abnormal_at = -1;
    pbuf_reset(&m->copy);
    /* the copy ends up holding each value once, the raw head, the normalized header buffer,
     * the start line and the single-header buffers: about four heads. One allocation for it
     * (else some four doublings, each copying what came before, on a flow's first message) */
    (void)pbuf_reserve(&m->copy, (size_t)4 * n + 256);
    memset(m->sp, 0, sizeof m->sp);
    m->present = true;
    if (!request)
        return response_head(m, d, n, avail < n ? n : avail, info);
    uint32_t at = 0, s = 0, e = 0; /* no line at all: s == e, nothing to parse */
    while (next_line(d, n, &at, &s, &e) && s == e)
        ; /* empty lines before the start line */
    if (s == e || start_line(m, request, d + s, e - s, info) != 0)
        return -1;
    uint32_t hstart = at, lstart = s;
    struct hdr *h = malloc(MAX_HEADERS * sizeof *h); /* read up to nh only */
    if (!h)
        return -1;
    int nh = 0;
    bool ended = false;
    while (next_line(d, n, &at, &s, &e)) {
        if (s == e) {
            ended = true;
            break;
        }
        if (is_ws(d[s])) { /* obs-fold: continues the previous header's value */
            info->bad_folding |= !nh && !info->missing_colon; /* nothing to continue */
            while (s < e && is_ws(d[s]))
                s++;
            if (nh && s < e) {
                if (m->copy.len > h[nh - 1].val) /* "Name:\r\n value": no leading space */
                    pbuf_add(&m->copy, " ", 1, 0);
                pbuf_add(&m->copy, d + s, e - s, 0);
                h[nh - 1].vlen = m->copy.len - h[nh - 1].val;
            }
            continue;
        }
        const uint8_t *colon = memchr(d + s, ':', e - s);
        if (!colon) {
            info->malformed = info->missing_colon = true;
            continue;
        }
        if (nh == MAX_HEADERS) {
            info->malformed = true;
            continue;
        }
        uint32_t c = (uint32_t)(colon - d), ne = c;
        while (ne > s && is_ws(d[ne - 1]))
            ne--;
        note_name(d, h, nh, s, ne, info);
        uint32_t vs = c + 1, ve = e;
        while (vs < ve && is_ws(d[vs]))
            vs++;
        while (ve > vs && is_ws(d[ve - 1]))
            ve--;
        h[nh] = (struct hdr){s, ne - s, m->copy.len, ve - vs};
        pbuf_add(&m->copy, d + vs, ve - vs, 0);
        nh++;
    }
    /* trailing folded text may follow a value in the copy: trim each value's end again */
    for (int i = 0; i < nh; i++)
        while (h[i].vlen && is_ws(m->copy.p[h[i].val + h[i].vlen - 1]))
            h[i].vlen--;
    /* from here on a request (responses went to response_head) */
    put(m, HB_HEADER_RAW, d + hstart, (ended ? at : n) - hstart);
    header_buffer(m, d, h, nh, HB_HEADER);
    put(m, HB_START, d + lstart, (ended ? at : n) - lstart);
    single(m, d, h, nh, "Accept", HB_ACCEPT);
    single(m, d, h, nh, "Accept-Encoding", HB_ACCEPT_ENC);
    single(m, d, h, nh, "Accept-Language", HB_ACCEPT_LANG);
    single(m, d, h, nh, "Connection", HB_CONNECTION);
    single(m, d, h, nh, "Content-Length", HB_CONTENT_LEN);
    single(m, d, h, nh, "User-Agent", HB_USER_AGENT);
    single(m, d, h, nh, "Cookie", HB_COOKIE);
    single(m, d, h, nh, "Referer", HB_REFERER);
    single(m, d, h, nh, "Content-Type", HB_CONTENT_TYPE);
    single(m, d, h, nh, "Host", HB_HOST_RAW);
    /* http.host: from an absolute target first, else the Host header; no port, lower */
    uint32_t hl = 0;
    const uint8_t *src = NULL;
    if (m->sp[HB_URI_RAW].set)
        src = http_uri_host(bytes(m, HB_URI_RAW), m->sp[HB_URI_RAW].len, &hl);
    uint8_t host[256];
    if (!src && m->sp[HB_HOST_RAW].set) {
        src = bytes(m, HB_HOST_RAW);
        hl = m->sp[HB_HOST_RAW].len;
    }
    if (src) {
        uint32_t k = 0;
        for (uint32_t i = 0; i < hl && k < sizeof host; i++) {
            if (src[i] == ':' && memchr(src, ']', hl) == NULL)
                break; /* the port (an IPv6 literal keeps its colons) */
            if (src[i] == ',')
                break; /* a repeated Host: the first one */
            host[k++] = (uint8_t)(src[i] >= 'A' && src[i] <= 'Z' ? src[i] + 32 : src[i]);
        }
        while (k && host[k - 1] == '.')
            k--;
        put(m, HB_HOST, host, k);
    }
    /* framing */
    int ncl = 0;       /* Content-Length headers seen */
    bool cl_ok = true; /* ... all of them a number */
    for (int i = 0; i < nh; i++) {
        const uint8_t *nm = d + h[i].name, *v = m->copy.p + h[i].val;
        if (h[i].nlen == 17 && !strncasecmp((const char *)nm, "Transfer-Encoding", 17)) {
            if (has_token(v, h[i].vlen, "chunked"))
                info->chunked = true;
            else
                info->te_invalid = true; /* libhtp: "Invalid T-E value in request" */
        } else if (h[i].nlen == 13 && !strncasecmp((const char *)nm, "Authorization", 13)) {
            /* the schemes libhtp parses; any other is "unrecognized" */
            uint32_t a = 0;
            while (a < h[i].vlen && is_ws(v[a]))
                a++;
            uint32_t e = a;
            while (e < h[i].vlen && !is_ws(v[e]))
                e++;
            const char *known[] = {"basic", "digest", "bearer"};
            bool ok = false;
            for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
                ok |= e - a == strlen(known[k]) &&
                      !strncasecmp((const char *)v + a, known[k], e - a);
            info->auth_unrecognized |= !ok;
        }
        else if (h[i].nlen == 14 && !strncasecmp((const char *)nm, "Content-Length", 14)) {
            bool ok;
            uint64_t len = parse_u64(v, h[i].vlen, &ok);
            if (!ok || (info->has_length && len != info->length))
                info->malformed = true;
            if (ncl++ && (!ok || !cl_ok || len != info->length))
                info->cl_ambiguous = true;
            cl_ok &= ok;
            if (ok && !info->has_length) {
                info->has_length = true;
                info->length = len;
            }
        }
    }
    /* libhtp: chunked on a protocol below HTTP/1.1 is an invalid T-E too; a C-L without
     * digits (no T-E) is an invalid C-L */
    bool has_te = info->chunked || info->te_invalid;
    if (info->chunked &&
        http_protocol_number(bytes(m, HB_PROTOCOL), m->sp[HB_PROTOCOL].len) != 11)
        info->te_invalid = true;
    for (int i = 0; i < nh && !has_te; i++) {
        uint64_t x;
        if (h[i].nlen == 14 && !strncasecmp((const char *)d + h[i].name, "Content-Length", 14)) {
            info->cl_invalid = !lenient_length(m->copy.p + h[i].val, h[i].vlen, &x);
            break; /* (the first one: libhtp keeps it) */
        }
    }
    host_checks(m, info);
    /* a request body may be compressed too (libhtp undoes it) */
    uint32_t keep = m->copy.len, celen;
    const uint8_t *ce = merged(m, d, h, nh, "content-encoding", &celen);
    if (ce)
        content_codings(ce, celen, info);
    m->copy.len = keep;
    free(h);
    return 0;
}
