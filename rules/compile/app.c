/* app.c — application-layer buffers for the compiler: which parser buffer and event a rule
 * buffer means, which header protocols are application protocols, and the buffers as the
 * units see them (through the rule's transforms).
 *
 * Direction matters for the HTTP buffers Suricata shares between requests and responses:
 * http.header, http.header.raw, http.cookie, http.content_type and file_data inspect the
 * response in a rule that inspects to the client (flow:to_client / from_server), the request
 * in a to_server rule, and both in a rule that names no direction (compiled twice, once per
 * side, as Suricata registers such a buffer's inspection in both directions). Request buffers stay valid under the response events of the same transaction
 * (osprey_parsers.h), so a to_client rule on http.uri runs when the response arrives. */
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "detect_int.h"
#include "osprey_parsers.h"
#include "pkt_units.h"
#include "registry.h"
#include "xform_args.h"

struct buf_map {
    uint16_t rule_buf;
    uint8_t ob, base;            /* request side (or the only one) */
    int16_t ob_resp;             /* response side, -1: same as the request side */
};

static const struct buf_map MAP[] = {
    {BUF_HTTP_METHOD, OB_HTTP_METHOD, DB_HTTP_REQUEST, -1},
    {BUF_HTTP_URI, OB_HTTP_URI, DB_HTTP_REQUEST, -1},
    {BUF_HTTP_URI_RAW, OB_HTTP_URI_RAW, DB_HTTP_REQUEST, -1},
    {BUF_HTTP_REQUEST_LINE, OB_HTTP_REQUEST_LINE, DB_HTTP_REQUEST, -1},
    {BUF_HTTP_PROTOCOL, OB_HTTP_PROTOCOL, DB_HTTP_REQUEST, -1},
    {BUF_HTTP_HEADER, DOB_REQ_HEADER, DB_HTTP_REQUEST, DOB_RESP_HEADER},
    {BUF_HTTP_HEADER_RAW, OB_HTTP_HEADER_RAW, DB_HTTP_REQUEST, OB_HTTP_RESPONSE_HEADER_RAW},
    {BUF_HTTP_COOKIE, OB_HTTP_COOKIE, DB_HTTP_REQUEST, OB_HTTP_RESPONSE_COOKIE},
    {BUF_HTTP_USER_AGENT, OB_HTTP_USER_AGENT, DB_HTTP_REQUEST, -1},
    {BUF_HTTP_HOST, OB_HTTP_HOST, DB_HTTP_REQUEST, -1},
    {BUF_HTTP_HOST_RAW, OB_HTTP_HOST_RAW, DB_HTTP_REQUEST, -1},
    {BUF_HTTP_REFERER, OB_HTTP_REFERER, DB_HTTP_REQUEST, -1},
    {BUF_HTTP_CONTENT_TYPE, OB_HTTP_CONTENT_TYPE, DB_HTTP_REQUEST,
     OB_HTTP_RESPONSE_CONTENT_TYPE},
    {BUF_HTTP_REQUEST_BODY, OB_HTTP_REQUEST_BODY, DB_HTTP_REQUEST_BODY, -1},
    {BUF_HTTP_STAT_CODE, OB_HTTP_STAT_CODE, DB_HTTP_RESPONSE, -1},
    {BUF_HTTP_STAT_MSG, OB_HTTP_STAT_MSG, DB_HTTP_RESPONSE, -1},
    {BUF_HTTP_RESPONSE_LINE, OB_HTTP_RESPONSE_LINE, DB_HTTP_RESPONSE, -1},
    {BUF_HTTP_RESPONSE_BODY, OB_HTTP_RESPONSE_BODY, DB_HTTP_RESPONSE_BODY, -1},
    {BUF_FILE_DATA, OB_HTTP_REQUEST_BODY, DB_HTTP_REQUEST_BODY, OB_HTTP_RESPONSE_BODY},
    /* every question's name, in requests only (a multi-buffer, as Suricata 7+) */
    {BUF_DNS_QUERY, DOB_DNS_QUERIES_RRNAME, DB_DNS_QUERY, -1},
    /* Suricata 8's DNS lists: in requests and responses alike (dns_query / dns_response) */
    {BUF_DNS_QUERIES_RRNAME, DOB_DNS_QUERIES_RRNAME, DB_DNS_QUERY, DOB_DNS_QUERIES_RRNAME},
    {BUF_DNS_QUERY_NAME, DOB_DNS_QUERIES_RRNAME, DB_DNS_QUERY, DOB_DNS_QUERIES_RRNAME},
    {BUF_DNS_ANSWER_NAME, DOB_DNS_ANSWERS_RRNAME, DB_DNS_QUERY, DOB_DNS_ANSWERS_RRNAME},
    {BUF_DNS_ANSWERS_RRNAME, DOB_DNS_ANSWERS_RRNAME, DB_DNS_QUERY, DOB_DNS_ANSWERS_RRNAME},
    {BUF_DNS_AUTHORITIES_RRNAME, DOB_DNS_AUTHORITIES_RRNAME, DB_DNS_QUERY,
     DOB_DNS_AUTHORITIES_RRNAME},
    {BUF_DNS_ADDITIONALS_RRNAME, DOB_DNS_ADDITIONALS_RRNAME, DB_DNS_QUERY,
     DOB_DNS_ADDITIONALS_RRNAME},
    {BUF_DNS_RESPONSE_RRNAME, DOB_DNS_RESPONSE_RRNAME, DB_DNS_RESPONSE, -1},
    {BUF_TLS_SNI, OB_TLS_SNI, DB_TLS_CLIENT_HELLO, -1},
    {BUF_JA3_HASH, OB_TLS_JA3_HASH, DB_TLS_CLIENT_HELLO, -1},
    {BUF_JA3_STRING, OB_TLS_JA3_STRING, DB_TLS_CLIENT_HELLO, -1},
    {BUF_JA4_HASH, OB_TLS_JA4, DB_TLS_CLIENT_HELLO, -1},
    {BUF_JA3S_HASH, OB_TLS_JA3S_HASH, DB_TLS_SERVER_HELLO, -1},
    {BUF_JA3S_STRING, OB_TLS_JA3S_STRING, DB_TLS_SERVER_HELLO, -1},
    /* both sides: the client's in a to_server rule, the server's in a to_client one (the
     * certificate buffers: the client's certificate under mutual authentication) */
    {BUF_TLS_CERT_SUBJECT, OB_TLS_CERT_SUBJECT, DB_TLS_CLIENT_CERTIFICATE, OB_TLS_CERT_SUBJECT},
    {BUF_TLS_CERT_ISSUER, OB_TLS_CERT_ISSUER, DB_TLS_CLIENT_CERTIFICATE, OB_TLS_CERT_ISSUER},
    {BUF_TLS_CERT_SERIAL, OB_TLS_CERT_SERIAL, DB_TLS_CLIENT_CERTIFICATE, OB_TLS_CERT_SERIAL},
    {BUF_TLS_CERT_FINGERPRINT, OB_TLS_CERT_FINGERPRINT, DB_TLS_CLIENT_CERTIFICATE,
     OB_TLS_CERT_FINGERPRINT},
    {BUF_TLS_CERTS, OB_TLS_CERTS, DB_TLS_CLIENT_CERTIFICATE, OB_TLS_CERTS},
    {BUF_TLS_SUBJECTALTNAME, OB_TLS_SAN, DB_TLS_CLIENT_CERTIFICATE, OB_TLS_SAN},
    {BUF_TLS_ALPN, OB_TLS_CLIENT_ALPN, DB_TLS_CLIENT_HELLO, OB_TLS_SERVER_ALPN},
    {BUF_TLS_RANDOM, OB_TLS_CLIENT_RANDOM, DB_TLS_CLIENT_HELLO, OB_TLS_SERVER_RANDOM},
    {BUF_TLS_RANDOM_TIME, DOB_TLS_CLIENT_RANDOM_TIME, DB_TLS_CLIENT_HELLO,
     DOB_TLS_SERVER_RANDOM_TIME},
    {BUF_TLS_RANDOM_BYTES, DOB_TLS_CLIENT_RANDOM_BYTES, DB_TLS_CLIENT_HELLO,
     DOB_TLS_SERVER_RANDOM_BYTES},
    /* derived from the headers here */
    {BUF_HTTP_HEADER_NAMES, DOB_REQ_HEADER_NAMES, DB_HTTP_REQUEST, DOB_RESP_HEADER_NAMES},
    {BUF_HTTP_START, DOB_REQ_START, DB_HTTP_REQUEST, DOB_RESP_START},
    {BUF_HTTP_CONTENT_LEN, DOB_REQ_CONTENT_LEN, DB_HTTP_REQUEST, DOB_RESP_CONTENT_LEN},
    {BUF_HTTP_CONNECTION, DOB_REQ_CONNECTION, DB_HTTP_REQUEST, DOB_RESP_CONNECTION},
    {BUF_HTTP_ACCEPT, DOB_ACCEPT, DB_HTTP_REQUEST, -1},
    {BUF_HTTP_ACCEPT_ENC, DOB_ACCEPT_ENC, DB_HTTP_REQUEST, -1},
    {BUF_HTTP_ACCEPT_LANG, DOB_ACCEPT_LANG, DB_HTTP_REQUEST, -1},
    {BUF_HTTP_LOCATION, DOB_LOCATION, DB_HTTP_RESPONSE, -1},
    {BUF_HTTP_SERVER, DOB_SERVER, DB_HTTP_RESPONSE, -1},
    /* Suricata's HTTP/1 frames: the whole message, once it is complete */
    {BUF_FRAME_HTTP1_REQUEST, DOB_REQ_FRAME, DB_HTTP_REQUEST_DONE, -1},
    {BUF_FRAME_HTTP1_RESPONSE, DOB_RESP_FRAME, DB_HTTP_RESPONSE_DONE, -1},
    {BUF_FRAME_DNS_PDU, OB_DNS_PDU, DB_DNS_QUERY, OB_DNS_PDU}, /* each message, both ways */
    /* multi-buffers (multibuf.c): one element per header */
    {BUF_HTTP_REQUEST_HEADER, DOB_REQ_HEADER_LINES, DB_HTTP_REQUEST, -1},
    {BUF_HTTP_RESPONSE_HEADER, DOB_RESP_HEADER_LINES, DB_HTTP_RESPONSE, -1},
};

/* The response-side base of a buffer read in a to_client rule. */
static uint8_t response_base(uint8_t base, uint8_t ob)
{
    if (base == DB_DNS_QUERY)
        return DB_DNS_RESPONSE;
    if (ob == OB_TLS_CERT_SUBJECT || ob == OB_TLS_CERT_ISSUER || ob == OB_TLS_CERT_SERIAL ||
        ob == OB_TLS_CERT_FINGERPRINT || ob == OB_TLS_CERTS || ob == OB_TLS_SAN)
        return DB_TLS_CERTIFICATE;
    if (ob == OB_TLS_SERVER_ALPN || ob == OB_TLS_SERVER_RANDOM ||
        ob == DOB_TLS_SERVER_RANDOM_TIME || ob == DOB_TLS_SERVER_RANDOM_BYTES)
        return DB_TLS_SERVER_HELLO;
    return ob == OB_HTTP_RESPONSE_BODY ? DB_HTTP_RESPONSE_BODY : DB_HTTP_RESPONSE;
}

bool det_app_multi(uint8_t ob)
{
    switch (ob) {
    case DOB_REQ_HEADER_LINES:
    case DOB_RESP_HEADER_LINES:
    case DOB_DNS_QUERIES_RRNAME:
    case DOB_DNS_ANSWERS_RRNAME:
    case DOB_DNS_AUTHORITIES_RRNAME:
    case DOB_DNS_ADDITIONALS_RRNAME:
    case DOB_DNS_RESPONSE_RRNAME:
        return true; /* derived (multibuf.c) */
    default:
        return ob < DET_OB_DERIVED && osprey_buf_is_multi((enum osprey_buf)ob);
    }
}

int det_app_tls_side(unsigned rule_buffer)
{
    for (size_t i = 0; i < sizeof MAP / sizeof MAP[0]; i++)
        if (MAP[i].rule_buf == rule_buffer && MAP[i].ob_resp < 0) {
            switch (MAP[i].base) {
            case DB_TLS_CLIENT_HELLO:
                return 1;
            case DB_TLS_SERVER_HELLO:
            case DB_TLS_CERTIFICATE:
            case DB_TLS_CLIENT_CERTIFICATE:
                return 2;
            default:
                return 0;
            }
        }
    return 0;
}

/* tls.random_time / tls.random_bytes: a slice of the hello's random (no copy). */
static const uint8_t *random_part(struct mon_ctx *ctx, struct mon_flow *f, uint8_t ob,
                                  uint32_t *len)
{
    bool server = ob == DOB_TLS_SERVER_RANDOM_TIME || ob == DOB_TLS_SERVER_RANDOM_BYTES;
    bool time = ob == DOB_TLS_CLIENT_RANDOM_TIME || ob == DOB_TLS_SERVER_RANDOM_TIME;
    uint32_t n = 0;
    const uint8_t *r = osprey_parsers_buffer(
        ctx, f, server ? OB_TLS_SERVER_RANDOM : OB_TLS_CLIENT_RANDOM, &n);
    if (!r || n != 32)
        return NULL;
    *len = time ? 4 : 28;
    return time ? r : r + 4;
}

unsigned det_app_match_buffer(const char *keyword)
{
    if (!strcmp(keyword, "urilen"))
        return BUF_HTTP_URI;
    if (!strcmp(keyword, "dns.opcode") || !strcmp(keyword, "dns.rcode") ||
        !strcmp(keyword, "dns.rrtype"))
        return BUF_DNS_QUERIES_RRNAME; /* any DNS message, request or response */
    return BUF_COUNT;
}


/* ---- buffers derived from the parsers' headers ----
 * The headers come as "Name: value\r\n" lines (normalized: folded lines joined). */

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

/* Append n bytes to the derived area (slot 2 + which), growing it. false: out of memory. */
static bool put(struct osprey_detect_worker *w, int slot, uint32_t *at, const void *p, size_t n)
{
    if (*at + n > w->xcap[slot]) {
        uint32_t cap = w->xcap[slot] ? w->xcap[slot] : 256;
        while (cap < *at + n)
            cap *= 2;
        uint8_t *b = realloc(w->xbuf[slot], cap);
        if (!b)
            return false;
        w->xbuf[slot] = b;
        w->xcap[slot] = cap;
    }
    memcpy(w->xbuf[slot] + *at, p, n);
    *at += (uint32_t)n;
    return true;
}

/* Suricata's http.header leaves out the cookies (they have http.cookie): the parser's
 * normalized headers without the Cookie (request) or Set-Cookie (response) lines. */
static const uint8_t *without_cookies(struct osprey_detect_worker *w, int slot,
                                      const uint8_t *h, uint32_t n, const char *drop,
                                      uint32_t *len)
{
    uint32_t at = 0;
    for (uint32_t i = 0; i < n;) {
        const uint8_t *line = h + i, *eol = memchr(line, '\n', n - i);
        uint32_t ll = eol ? (uint32_t)(eol - line) + 1 : n - i;
        i += ll;
        const uint8_t *colon = memchr(line, ':', ll);
        if (colon && name_is(line, (size_t)(colon - line), drop))
            continue;
        if (!put(w, slot, &at, line, ll))
            return NULL;
    }
    *len = at;
    return at ? w->xbuf[slot] : (const uint8_t *)"";
}

/* Suricata's http.header_names: "\r\n" then each name followed by "\r\n", then "\r\n";
 * or the values of one header (several joined by ", "). */
static const uint8_t *from_headers(struct osprey_detect_worker *w, int slot, const uint8_t *h,
                                   uint32_t n, const char *want, uint32_t *len)
{
    uint32_t at = 0;
    bool any = false, ok = true;
    if (!want)
        ok = put(w, slot, &at, "\r\n", 2);
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
            ok = put(w, slot, &at, line, nl) && put(w, slot, &at, "\r\n", 2);
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
        ok = (!any || put(w, slot, &at, ", ", 2)) && put(w, slot, &at, v, (size_t)(ve - v));
        any = true;
    }
    if (ok && !want)
        ok = put(w, slot, &at, "\r\n", 2);
    if (!ok || !any)
        return NULL; /* no such header (or out of memory): the buffer is absent */
    *len = at;
    return w->xbuf[slot] ? w->xbuf[slot] : (const uint8_t *)"";
}

static const uint8_t *derived(struct osprey_detect_worker *w, struct mon_ctx *ctx,
                              struct mon_flow *f, uint8_t ob, int slot, uint32_t *len)
{
    static const char *const ONE[] = {
        [DOB_REQ_CONTENT_LEN - DET_OB_DERIVED] = "content-length",
        [DOB_RESP_CONTENT_LEN - DET_OB_DERIVED] = "content-length",
        [DOB_REQ_CONNECTION - DET_OB_DERIVED] = "connection",
        [DOB_RESP_CONNECTION - DET_OB_DERIVED] = "connection",
        [DOB_ACCEPT - DET_OB_DERIVED] = "accept",
        [DOB_ACCEPT_ENC - DET_OB_DERIVED] = "accept-encoding",
        [DOB_ACCEPT_LANG - DET_OB_DERIVED] = "accept-language",
        [DOB_LOCATION - DET_OB_DERIVED] = "location",
        [DOB_SERVER - DET_OB_DERIVED] = "server",
    };
    switch (ob) {
    case DOB_TLS_CLIENT_RANDOM_TIME:
    case DOB_TLS_SERVER_RANDOM_TIME:
    case DOB_TLS_CLIENT_RANDOM_BYTES:
    case DOB_TLS_SERVER_RANDOM_BYTES:
        return random_part(ctx, f, ob, len);
    default:
        break;
    }
    if (ob == DOB_REQ_HEADER || ob == DOB_RESP_HEADER) {
        bool r = ob == DOB_RESP_HEADER;
        uint32_t hn = 0;
        const uint8_t *h =
            osprey_parsers_buffer(ctx, f, r ? OB_HTTP_RESPONSE_HEADER : OB_HTTP_HEADER, &hn);
        return h ? without_cookies(w, slot, h, hn, r ? "set-cookie" : "cookie", len) : NULL;
    }
    bool resp = ob == DOB_RESP_HEADER_NAMES || ob == DOB_RESP_START ||
                ob == DOB_RESP_CONTENT_LEN || ob == DOB_RESP_CONNECTION || ob == DOB_LOCATION ||
                ob == DOB_SERVER;
    uint32_t n = 0;
    bool frame = ob == DOB_REQ_FRAME || ob == DOB_RESP_FRAME;
    resp |= ob == DOB_RESP_FRAME;
    if (ob == DOB_REQ_START || ob == DOB_RESP_START || frame) {
        /* the start line, CRLF, then the headers as sent (with their empty line); a frame
         * then has the body (as decoded: dechunked, decompressed) */
        uint32_t sl = 0;
        const uint8_t *s = osprey_parsers_buffer(
            ctx, f, resp ? OB_HTTP_RESPONSE_LINE : OB_HTTP_REQUEST_LINE, &sl);
        const uint8_t *h = osprey_parsers_buffer(
            ctx, f, resp ? OB_HTTP_RESPONSE_HEADER_RAW : OB_HTTP_HEADER_RAW, &n);
        uint32_t at = 0;
        if (!s || !put(w, slot, &at, s, sl) || !put(w, slot, &at, "\r\n", 2) ||
            (h && !put(w, slot, &at, h, n)))
            return NULL;
        uint32_t bn = 0;
        const uint8_t *b = frame ? osprey_parsers_buffer(
                                       ctx, f, resp ? OB_HTTP_RESPONSE_BODY : OB_HTTP_REQUEST_BODY,
                                       &bn)
                                 : NULL;
        if (b && !put(w, slot, &at, b, bn))
            return NULL;
        *len = at;
        return w->xbuf[slot];
    }
    enum osprey_buf src = ob == DOB_REQ_HEADER_NAMES ? OB_HTTP_HEADER_RAW
                        : ob == DOB_RESP_HEADER_NAMES ? OB_HTTP_RESPONSE_HEADER_RAW
                        : resp ? OB_HTTP_RESPONSE_HEADER : OB_HTTP_HEADER;
    const uint8_t *h = osprey_parsers_buffer(ctx, f, src, &n);
    if (!h)
        return NULL;
    bool names = ob == DOB_REQ_HEADER_NAMES || ob == DOB_RESP_HEADER_NAMES;
    return from_headers(w, slot, h, n, names ? NULL : ONE[ob - DET_OB_DERIVED], len);
}

int det_app_buffer_of(unsigned rule_buffer, bool to_client, uint8_t *ob, uint8_t *base)
{
    for (size_t i = 0; i < sizeof MAP / sizeof MAP[0]; i++) {
        if (MAP[i].rule_buf != rule_buffer)
            continue;
        *ob = MAP[i].ob;
        *base = MAP[i].base;
        if (to_client && MAP[i].ob_resp >= 0) {
            *ob = (uint8_t)MAP[i].ob_resp;
            *base = response_base(*base, *ob);
        } else if (to_client && (*base == DB_HTTP_REQUEST || *base == DB_HTTP_REQUEST_BODY ||
                                 *base == DB_HTTP_REQUEST_DONE)) {
            *base = DB_HTTP_RESPONSE; /* request buffers, inspected when the response comes */
        }
        return 0;
    }
    return -1;
}

bool det_app_opt_to_client(const struct osprey_rule *r, uint32_t i, bool to_client)
{
    if (r->dir != OSPREY_DIR_TX)
        return to_client;
    switch (r->opts[i].side) {
    case OSPREY_SIDE_TO_SERVER:
        return false;
    case OSPREY_SIDE_TO_CLIENT:
        return true;
    default:
        /* a buffer both messages have means the request's unless its argument says
         * to_client; the others are one side's and are read when the response comes */
        return !det_app_buffer_two_sided(r->opts[i].buffer);
    }
}

bool det_app_buffer_two_sided(unsigned rule_buffer)
{
    for (size_t i = 0; i < sizeof MAP / sizeof MAP[0]; i++)
        if (MAP[i].rule_buf == rule_buffer)
            return MAP[i].ob_resp >= 0;
    return false;
}

uint8_t det_app_proto_of(const char *proto, uint8_t *l4)
{
    *l4 = 6;
    if (!strcmp(proto, "http") || !strcmp(proto, "http1"))
        return OSPREY_APP_HTTP;
    if (!strcmp(proto, "tls") || !strcmp(proto, "ssl"))
        return OSPREY_APP_TLS;
    if (!strcmp(proto, "dns")) {
        *l4 = 0; /* over UDP and TCP */
        return OSPREY_APP_DNS;
    }
    return 0;
}

static const char *const XFORMS[] = {"to_lowercase", "to_uppercase", "strip_whitespace",
                                     "compress_whitespace", "dotprefix", "url_decode",
                                     "header_lowercase", "strip_pseudo_headers", "to_md5",
                                     "to_sha1", "to_sha256", NULL};

bool det_xform_supported(const char *keyword)
{
    for (size_t i = 0; XFORMS[i]; i++)
        if (!strcmp(XFORMS[i], keyword))
            return true;
    return xstep_has_own(keyword);
}

/* Room for one transform step in the worker's slot (grows, never shrinks). */
static uint8_t *room(struct osprey_detect_worker *w, int slot, uint32_t need)
{
    if (need <= w->xcap[slot])
        return w->xbuf[slot];
    uint8_t *b = realloc(w->xbuf[slot], need);
    if (!b)
        return NULL;
    w->xbuf[slot] = b;
    w->xcap[slot] = need;
    return b;
}

const uint8_t *det_app_buffer(struct osprey_detect_worker *w, struct mon_ctx *ctx,
                              struct mon_flow *f, uint8_t base, uint8_t ob,
                              const struct det_xform *xf, int slot, uint32_t *len,
                              uint64_t *origin)
{
    return det_app_buffer_at(w, ctx, f, base, ob, xf, slot, 0, len, origin);
}

const uint8_t *det_app_buffer_at(struct osprey_detect_worker *w, struct mon_ctx *ctx,
                                 struct mon_flow *f, uint8_t base, uint8_t ob,
                                 const struct det_xform *xf, int slot, uint32_t i,
                                 uint32_t *len, uint64_t *origin)
{
    *len = 0;
    *origin = 0;
    if (!f)
        return NULL;
    uint32_t n = 0;
    const uint8_t *b;
    if (i > 0 && !det_app_multi(ob))
        return NULL;
    if (ob == DET_OB_RAW) {
        int side = det_to_server(0, base) ? MON_SIDE_SVR : MON_SIDE_CLI; /* the receiver */
        b = det_buffer(ctx, f, side, f->proto == 6 ? DK_STREAM : DK_PKT, &n, origin);
    } else if (ob >= DET_OB_DERIVED && det_app_multi(ob)) {
        b = det_multi_derived(w, ctx, f, ob, slot, i, &n);
    } else if (ob >= DET_OB_DERIVED) {
        b = i == 0 ? derived(w, ctx, f, ob, 2 + slot, &n) : NULL;
    } else {
        b = osprey_parsers_buffer_at(ctx, f, (enum osprey_buf)ob, i, &n);
    }
    return b ? det_app_xform(w, xf, slot, b, n, len) : NULL;
}

const uint8_t *det_app_xform(struct osprey_detect_worker *w, const struct det_xform *xf,
                             int slot, const uint8_t *b, uint32_t n, uint32_t *len)
{
    if (!xf)
        return *len = n, b;
    /* each step reads the previous result: two halves of the slot, used alternately; no
     * step outputs more than max(its input, a digest) + 1 bytes (xstep_out_max for the
     * inflating ones), so one allocation does */
    uint32_t half = n + XFORM_DIGEST_MAX + 2 * xf->n + 2;
    for (uint32_t i = 0; i < xf->n; i++)
        if (xf->step[i].name && xstep_out_max(&xf->step[i], 0) > half)
            half = xstep_out_max(&xf->step[i], 0) + XFORM_DIGEST_MAX + 2 * xf->n + 2;
    uint8_t *area = room(w, slot, 2 * half);
    if (!area)
        return NULL; /* out of memory: the buffer is missing, nothing matches */
    for (uint32_t i = 0; i < xf->n; i++) {
        uint8_t *out = area + (i % 2 ? half : 0);
        n = xf->step[i].name ? xstep_apply(&xf->step[i], b, n, out, w->md)
                             : xform_apply(opt_def_by_id(xf->kw[i])->name, b, n, out);
        b = out;
    }
    *len = n;
    return b;
}

const char *det_ob_name(uint8_t ob)
{
    static const char *const D[DOB__END - DET_OB_DERIVED] = {
        [DOB_REQ_HEADER_NAMES - DET_OB_DERIVED] = "http.header_names",
        [DOB_RESP_HEADER_NAMES - DET_OB_DERIVED] = "http.header_names (response)",
        [DOB_REQ_START - DET_OB_DERIVED] = "http.start",
        [DOB_RESP_START - DET_OB_DERIVED] = "http.start (response)",
        [DOB_REQ_CONTENT_LEN - DET_OB_DERIVED] = "http.content_len",
        [DOB_RESP_CONTENT_LEN - DET_OB_DERIVED] = "http.content_len (response)",
        [DOB_REQ_CONNECTION - DET_OB_DERIVED] = "http.connection",
        [DOB_RESP_CONNECTION - DET_OB_DERIVED] = "http.connection (response)",
        [DOB_ACCEPT - DET_OB_DERIVED] = "http.accept",
        [DOB_ACCEPT_ENC - DET_OB_DERIVED] = "http.accept_enc",
        [DOB_ACCEPT_LANG - DET_OB_DERIVED] = "http.accept_lang",
        [DOB_LOCATION - DET_OB_DERIVED] = "http.location",
        [DOB_SERVER - DET_OB_DERIVED] = "http.server",
        [DOB_REQ_HEADER - DET_OB_DERIVED] = "http.header",
        [DOB_RESP_HEADER - DET_OB_DERIVED] = "http.header (response)",
        [DOB_REQ_FRAME - DET_OB_DERIVED] = "frame:http1.request",
        [DOB_RESP_FRAME - DET_OB_DERIVED] = "frame:http1.response",
        [DOB_TLS_CLIENT_RANDOM_TIME - DET_OB_DERIVED] = "tls.random_time",
        [DOB_TLS_SERVER_RANDOM_TIME - DET_OB_DERIVED] = "tls.random_time (server)",
        [DOB_TLS_CLIENT_RANDOM_BYTES - DET_OB_DERIVED] = "tls.random_bytes",
        [DOB_TLS_SERVER_RANDOM_BYTES - DET_OB_DERIVED] = "tls.random_bytes (server)",
        [DOB_REQ_HEADER_LINES - DET_OB_DERIVED] = "http.request_header",
        [DOB_RESP_HEADER_LINES - DET_OB_DERIVED] = "http.response_header",
        [DOB_DNS_QUERIES_RRNAME - DET_OB_DERIVED] = "dns.query",
        [DOB_DNS_ANSWERS_RRNAME - DET_OB_DERIVED] = "dns.answers.rrname",
        [DOB_DNS_AUTHORITIES_RRNAME - DET_OB_DERIVED] = "dns.authorities.rrname",
        [DOB_DNS_ADDITIONALS_RRNAME - DET_OB_DERIVED] = "dns.additionals.rrname",
        [DOB_DNS_RESPONSE_RRNAME - DET_OB_DERIVED] = "dns.response.rrname"};
    _Static_assert((int)DOB__END <= (int)DET_OB_HDR, "derived buffers below the packet headers'");
    if (ob == DET_OB_RAW)
        return "payload";
    if (ob >= DET_OB_DERIVED && ob < DOB__END && D[ob - DET_OB_DERIVED])
        return D[ob - DET_OB_DERIVED];
    const char *n = ob < DET_OB_DERIVED ? osprey_buf_name((enum osprey_buf)ob) : NULL;
    return n ? n : "?";
}

const char *det_base_name(uint8_t base)
{
    static const char *const N[DB__COUNT] = {
        [DB_PKT] = "packet",
        [DB_STREAM] = "stream",
        [DB_HTTP_REQUEST] = "http_request",
        [DB_HTTP_REQUEST_BODY] = "http_request_body",
        [DB_HTTP_REQUEST_DONE] = "http_request_done",
        [DB_HTTP_RESPONSE] = "http_response",
        [DB_HTTP_RESPONSE_BODY] = "http_response_body",
        [DB_HTTP_RESPONSE_DONE] = "http_response_done",
        [DB_DNS_QUERY] = "dns_query",
        [DB_DNS_RESPONSE] = "dns_response",
        [DB_TLS_CLIENT_HELLO] = "tls_client_hello",
        [DB_TLS_SERVER_HELLO] = "tls_server_hello",
        [DB_TLS_CERTIFICATE] = "tls_certificate",
        [DB_TLS_CLIENT_CERTIFICATE] = "tls_client_certificate",
        [DB_DECODE] = "decode_event",
        [DB_APP_EVENT] = "app_anomaly",
        [DB_PKT_RCV] = "packet_rcv"};
    _Static_assert(DB__COUNT == 17, "a name per base");
    return base < DB__COUNT ? N[base] : "?";
}

static bool same_val(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

const struct det_xform *det_xform_intern(struct osprey_detect *d, const uint16_t *kw,
                                         const char *const *val, const void *const *arg,
                                         uint32_t n)
{
    for (uint32_t i = 0; i < d->nxfs; i++) {
        const struct det_xform *x = d->xfs[i];
        bool same = x->n == n && !memcmp(x->kw, kw, n * sizeof *kw);
        for (uint32_t k = 0; same && k < n; k++)
            same = same_val(x->val[k], val[k]);
        if (same)
            return x;
    }
    struct det_xform **v = realloc(d->xfs, (d->nxfs + 1) * sizeof *v);
    if (!v)
        return NULL;
    d->xfs = v;
    struct det_xform *x = calloc(1, sizeof *x + n * (sizeof *kw + sizeof *x->val));
    struct det_xstep *st = calloc(n ? n : 1, sizeof *st);
    if (!x || !st) {
        free(x);
        free(st);
        return NULL;
    }
    x->val = (const char **)(x + 1);
    uint16_t *ids = (uint16_t *)(x->val + n);
    memcpy(ids, kw, n * sizeof *kw);
    memcpy(x->val, val, n * sizeof *val);
    x->n = n;
    x->kw = ids;
    x->step = st;
    for (uint32_t k = 0; k < n; k++) {
        const char *name = opt_def_by_id(kw[k])->name;
        if (xstep_has_own(name) && xstep_prepare(&st[k], name, arg[k]) < 0) {
            det_xform_free(x);
            return NULL;
        }
    }
    d->xfs[d->nxfs++] = x;
    return x;
}

void det_xform_free(struct det_xform *x)
{
    if (!x)
        return;
    for (uint32_t k = 0; x->step && k < x->n; k++)
        xstep_free(&x->step[k]);
    free(x->step);
    free(x);
}
