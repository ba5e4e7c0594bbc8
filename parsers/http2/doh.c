/* doh.c — DNS over HTTP/2 (RFC 8484): a stream side's DNS message decoded by the shared DNS
 * decoder (../dns_wire: dns_wire_decode, no flow) — a request's or response's
 * DATA whose content-type is application/dns-message, or a GET's "dns" query parameter
 * (base64url, no padding). Its question and answer names are then the stream's dns.query /
 * dns.queries.rrname / dns.answers.rrname (buffers.c). At most one UDP message (65,535).
 * The first one that decodes makes the flow doh2 (doh2.c, pflow_classify). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dns_wire.h"
#include "http2_int.h"

static int b64url(uint8_t c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '-' ? 62 : c == '_' ? 63 : -1;
}

/* base64url d[0..n) into out (cap bytes); its length, or -1 when it is not base64url */
static long unb64url(const uint8_t *d, size_t n, uint8_t *out, size_t cap)
{
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        if (d[i] == '=')
            break; /* padding is not sent, but tolerated */
        int v = b64url(d[i]);
        if (v < 0)
            return -1;
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (o == cap)
                return -1;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    return (long)o;
}

/* the GET's "dns" parameter in :path, NULL when none */
static const uint8_t *dns_param(const struct h2_side *sd, size_t *n)
{
    uint32_t pl, ml;
    const uint8_t *p = h2_header(sd, ":path", &pl), *m = h2_header(sd, ":method", &ml);
    if (!p || !m || ml != 3 || memcmp(m, "GET", 3))
        return NULL;
    const uint8_t *q = memchr(p, '?', pl);
    while (q && q < p + pl) {
        q++;
        const uint8_t *end = memchr(q, '&', (size_t)(p + pl - q));
        if (!end)
            end = p + pl;
        if (end - q > 4 && !memcmp(q, "dns=", 4)) {
            *n = (size_t)(end - q - 4);
            return q + 4;
        }
        q = end;
    }
    return NULL;
}

void h2_doh(struct pflow *pf, struct h2_stream *s, int side)
{
    struct h2_side *sd = &s->s[side];
    uint32_t tl;
    const uint8_t *ct = h2_header(sd, "content-type", &tl);
    bool dns_body = ct && tl >= 23 && !strncasecmp((const char *)ct, "application/dns-message", 23);
    const uint8_t *msg = NULL;
    size_t n = 0;
    uint8_t *tmp = NULL;
    if (dns_body && sd->body.len && sd->body.len <= H2_DNS_MAX) {
        msg = sd->body.p;
        n = sd->body.len;
    } else if (side == 0) {
        size_t pn;
        const uint8_t *p = dns_param(sd, &pn);
        if (!p || pn > 2 * H2_DNS_MAX || !(tmp = malloc(H2_DNS_MAX)))
            return;
        long k = unb64url(p, pn, tmp, H2_DNS_MAX);
        msg = tmp;
        n = k > 0 ? (size_t)k : 0;
    }
    if (msg && n) {
        if (!sd->doh)
            sd->doh = calloc(1, sizeof *sd->doh);
        if (sd->doh && dns_wire_decode(sd->doh, msg, n) != DNS_WIRE_OK && !sd->doh->has_query) {
            h2_doh_free(sd); /* not a DNS message: no names */
        }
        /* the flow carries DNS: Suricata's doh2 from here (doh2.c) */
        int doh2 = sd->doh && !pf->named ? osprey_app_proto_find("doh2") : -1;
        if (doh2 > OSPREY_APP_PROTO_FAILED)
            pflow_classify(pf, (uint16_t)doh2);
    }
    free(tmp);
}

void h2_doh_free(struct h2_side *sd)
{
    dns_wire_free(sd->doh);
    sd->doh = NULL;
}

const uint8_t *h2_doh_name(const struct h2_side *sd, bool answers, uint32_t i, uint32_t *len)
{
    return sd->doh ? dns_wire_list_at(sd->doh, answers ? DNS_L_ANSWERS : DNS_L_QUERIES, i, len) : NULL;
}
