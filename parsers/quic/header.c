/* header.c — a QUIC packet's header, every form Suricata 8 reads: IETF long headers (v1 RFC
 * 9000 §17.2, v2 RFC 9369 with its own type numbers, the drafts), version negotiation, short
 * headers (nothing past the first byte is readable: their connection id's length is not on
 * the wire), Google QUIC's long headers (Q043–Q046: connection id lengths in one byte's two
 * nibbles, a 4-byte packet number and a 12-byte message hash before the frames, in clear) and
 * its older public header (flags for connection id, nonce and version). A long header other
 * than an Initial is not read past its connection ids: its payload is the rest (Suricata's
 * reading too; only Initials carry what rules and records use). */
#include <stdio.h>
#include <string.h>

#include "quic_int.h"

#define V2 0x6b3343cfu
#define Q046 0x51303436u

bool quic_varint(const uint8_t *d, size_t n, size_t *at, uint64_t *v)
{
    if (*at >= n)
        return false;
    size_t k = (size_t)1 << (d[*at] >> 6); /* 1, 2, 4 or 8 bytes */
    if (k > n - *at)
        return false;
    uint64_t x = d[*at] & 0x3f;
    for (size_t i = 1; i < k; i++)
        x = x << 8 | d[*at + i];
    *at += k;
    *v = x;
    return true;
}

static bool is_gquic(uint32_t v)
{
    return v >= 0x51303433u && v <= Q046; /* Q043 … Q046 */
}

void quic_version_text(uint32_t v, char *out, size_t len)
{
    if (v == 0x51303339u || is_gquic(v)) /* the gQUIC versions Suricata names */
        snprintf(out, len, "%c%c%c%c", (char)(v >> 24), (char)(v >> 16), (char)(v >> 8),
                 (char)v);
    else
        snprintf(out, len, "%x", v);
}

/* The old gQUIC public header (first byte without the long-header and fixed bits). */
static bool public_header(const uint8_t *d, size_t n, struct quic_hdr *h)
{
    size_t at = 1;
    uint8_t fl = h->first;
    if (fl & 0x08) { /* an 8-byte connection id */
        if (n - at < 8)
            return false;
        memcpy(h->dcid, d + at, 8);
        h->dcid_len = 8;
        at += 8;
    } else if (fl & 0x04) { /* a 32-byte diversification nonce */
        if (n - at < 32)
            return false;
        at += 32;
    }
    if (fl & 0x01) {
        if (n - at < 4)
            return false;
        memcpy(h->version_buf, d + at, 4);
        h->version = rd_be32(d + at);
        h->has_version = true;
        at += 4;
    }
    size_t skip = 1u + ((fl & 0x30u) >> 4) + ((fl & 0x08) ? 12u : 0u); /* number, hash */
    if (n - at < skip)
        return false;
    at += skip;
    h->gquic = true;
    h->type = (fl & 0x01) ? QT_INITIAL : QT_SHORT;
    h->hlen = at;
    h->length = n - at;
    return true;
}

static enum quic_type long_type(uint8_t first, uint32_t v, bool *ok)
{
    *ok = true;
    if (is_gquic(v) && v != Q046) { /* before Q046, a type byte of its own */
        switch (first & 0x7f) {
        case 0x7f: return QT_INITIAL;
        case 0x7e: return QT_RETRY;
        case 0x7d: return QT_HANDSHAKE;
        case 0x7c: return QT_ZERO_RTT;
        default: *ok = false; return QT_SHORT;
        }
    }
    unsigned t = (first & 0x30u) >> 4;
    static const enum quic_type V1T[4] = {QT_INITIAL, QT_ZERO_RTT, QT_HANDSHAKE, QT_RETRY};
    static const enum quic_type V2T[4] = {QT_RETRY, QT_INITIAL, QT_ZERO_RTT, QT_HANDSHAKE};
    return v == V2 ? V2T[t] : V1T[t];
}

static bool cid(const uint8_t *d, size_t n, size_t *at, uint8_t len, uint8_t *out, uint8_t *olen)
{
    if (len > QUIC_CID_MAX || len > n - *at)
        return false;
    memcpy(out, d + *at, len);
    *olen = len;
    *at += len;
    return true;
}

bool quic_header(const uint8_t *d, size_t n, struct quic_hdr *h)
{
    memset(h, 0, sizeof *h);
    if (n < 1)
        return false;
    h->first = d[0];
    h->is_long = (d[0] & 0x80) != 0;
    if (!h->is_long && !(d[0] & 0x40))
        return public_header(d, n, h);
    if (!h->is_long) {
        h->type = QT_SHORT;
        h->hlen = 1;
        h->length = n - 1;
        return true;
    }
    if (n < 5)
        return false;
    memcpy(h->version_buf, d + 1, 4);
    h->version = rd_be32(d + 1);
    h->has_version = true;
    bool ok = true;
    h->type = h->version == 0 ? QT_VN : long_type(d[0], h->version, &ok);
    if (!ok)
        return false;
    h->gquic = is_gquic(h->version);
    size_t at = 5;
    if (h->gquic) { /* DCIL and SCIL in one byte: 0, or 3 more than the nibble */
        if (at >= n)
            return false;
        uint8_t dl = d[at] >> 4, sl = d[at] & 0x0f;
        at++;
        if (!cid(d, n, &at, (uint8_t)(dl ? dl + 3 : 0), h->dcid, &h->dcid_len) ||
            !cid(d, n, &at, (uint8_t)(sl ? sl + 3 : 0), h->scid, &h->scid_len))
            return false;
    } else {
        if (at >= n)
            return false;
        uint8_t dl = d[at++];
        if (!cid(d, n, &at, dl, h->dcid, &h->dcid_len) || at >= n)
            return false;
        uint8_t sl = d[at++];
        if (!cid(d, n, &at, sl, h->scid, &h->scid_len))
            return false;
    }
    if (h->type == QT_INITIAL && h->gquic) {
        if (n - at < 4 + 12) /* packet number, message authentication hash */
            return false;
        at += 16;
    } else if (h->type == QT_INITIAL) {
        uint64_t tl, len;
        if (!quic_varint(d, n, &at, &tl) || tl > n - at)
            return false;
        at += (size_t)tl; /* the token */
        if (!quic_varint(d, n, &at, &len) || len > n - at)
            return false;
        h->hlen = at;
        h->length = (size_t)len;
        return true;
    }
    h->hlen = at;
    h->length = n - at;
    return true;
}
