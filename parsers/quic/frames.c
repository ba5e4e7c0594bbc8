/* frames.c — what a readable packet carries. IETF QUIC (RFC 9000 §19): an Initial's PADDING,
 * PING, ACK, CRYPTO and CONNECTION_CLOSE frames (any other is an error there: quic.error_on_data);
 * CRYPTO data is placed at its offset in the direction's stream (QUIC_CRYPTO_MAX bytes: past
 * it quic.crypto_frag_too_long, counted), whatever the order frames and packets come in, and
 * once the stream's first handshake message is whole it is read by the shared TLS hello reader (../tls_wire)
 * (ClientHello: SNI, ALPN, JA3, JA4 with QUIC's 'q'; ServerHello: JA3S). Google QUIC (Q043–
 * Q046, in clear): STREAM frames on stream 1 carry tag-value messages (CHLO, REJ, SHLO …): the
 * SNI and UAID tags, and of a CHLO the CYU fingerprint ("<version>,<tag>-<tag>…" and its MD5);
 * ACK, PADDING and the other gQUIC frames are stepped over. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quic_int.h"

static void put(struct pbuf *b, bool *has, const uint8_t *d, size_t n)
{
    pbuf_reset(b);
    pbuf_add(b, d, n, QUIC_TEXT_MAX);
    *has = true;
}

/* ---- IETF: CRYPTO reassembly and the hello ---- */

static uint32_t prefix(const struct quic_dir *q) /* bytes received from offset 0 on */
{
    uint32_t i = 0;
    while (i < QUIC_CRYPTO_MAX && (q->have[i / 8] & (1u << (i % 8))))
        i++;
    return i;
}

static void hello(struct pflow *pf, struct quic_state *st, int dir)
{
    struct quic_dir *q = &st->d[dir];
    if (q->hello_done || !q->buf) /* (no CRYPTO yet: an ACK-only Initial) */
        return;
    uint32_t have = prefix(q);
    if (have < 4)
        return;
    uint32_t mlen = (uint32_t)q->buf[1] << 16 | (uint32_t)q->buf[2] << 8 | q->buf[3];
    if (4 + mlen > QUIC_CRYPTO_MAX) { /* it can never be whole here */
        if (!q->too_long) {
            q->too_long = true;
            st->tx.events |= 1u << QUIC_AE_CRYPTO_FRAG_TOO_LONG;
        }
        return;
    }
    if (4 + mlen > have)
        return;
    if (!st->tls && !(st->tls = calloc(1, sizeof *st->tls)))
        return;
    struct tls_wire *t = st->tls;
    t->quic = true;
    t->ext_types = st->ext_types;
    t->ext_max = QUIC_EXTS_MAX;
    t->next_types = 0;
    int rc = q->buf[0] == 1   ? tls_wire_client_hello(t, q->buf + 4, mlen)
             : q->buf[0] == 2 ? tls_wire_server_hello(t, q->buf + 4, mlen)
                              : -1;
    q->hello_done = true; /* (what follows in this direction is encrypted) */
    free(q->buf), free(q->have);
    q->buf = q->have = NULL;
    if (rc < 0) {
        pflow_count(pf, QUIC_C_MALFORMED, 1);
        return;
    }
    struct quic_tx *tx = &st->tx;
    tx->hello = true;
    tx->next = t->next_types;
    memcpy(tx->ext, st->ext_types, tx->next * sizeof *tx->ext);
    if (dir == 0 && t->sp[TB_SNI].set)
        put(&tx->sni, &tx->has_sni, t->copy.p + t->sp[TB_SNI].off, t->sp[TB_SNI].len);
}

static bool crypto(struct pflow *pf, struct quic_state *st, int dir, uint64_t off,
                   const uint8_t *d, size_t n)
{
    struct quic_dir *q = &st->d[dir];
    if (q->hello_done || !n)
        return true;
    if (!q->buf) {
        q->buf = calloc(1, QUIC_CRYPTO_MAX);
        q->have = calloc(1, QUIC_CRYPTO_MAX / 8);
        if (!q->buf || !q->have) {
            free(q->buf), free(q->have);
            q->buf = q->have = NULL;
            pflow_count(pf, QUIC_C_CRYPTO_SHED, n);
            return true;
        }
    }
    size_t k = off >= QUIC_CRYPTO_MAX ? 0 : n < QUIC_CRYPTO_MAX - off ? n : QUIC_CRYPTO_MAX - off;
    if (k < n) {
        pflow_count(pf, QUIC_C_CRYPTO_SHED, n - k);
        if (!q->too_long) {
            q->too_long = true;
            st->tx.events |= 1u << QUIC_AE_CRYPTO_FRAG_TOO_LONG;
        }
    }
    for (size_t i = 0; i < k; i++) { /* the first copy of a byte stays */
        size_t at = (size_t)off + i;
        if (!(q->have[at / 8] & (1u << (at % 8)))) {
            q->buf[at] = d[i];
            q->have[at / 8] |= (uint8_t)(1u << (at % 8));
        }
    }
    return true;
}

bool quic_frames(struct pflow *pf, struct quic_state *st, int dir, const uint8_t *d, size_t n)
{
    size_t at = 0;
    while (at < n) {
        uint64_t type, a, b, c, cnt;
        if (!quic_varint(d, n, &at, &type))
            return false;
        switch (type) {
        case 0x00: /* PADDING */
        case 0x01: /* PING */
            break;
        case 0x02:
        case 0x03: /* ACK: largest, delay, range count, first range, ranges, (ECN counts) */
            if (!quic_varint(d, n, &at, &a) || !quic_varint(d, n, &at, &b) ||
                !quic_varint(d, n, &at, &cnt) || !quic_varint(d, n, &at, &c))
                return false;
            for (uint64_t i = 0; i < cnt; i++)
                if (!quic_varint(d, n, &at, &a) || !quic_varint(d, n, &at, &b))
                    return false;
            for (int i = 0; type == 0x03 && i < 3; i++)
                if (!quic_varint(d, n, &at, &a))
                    return false;
            break;
        case 0x06: /* CRYPTO: offset, length, data */
            if (!quic_varint(d, n, &at, &a) || !quic_varint(d, n, &at, &b) || b > n - at ||
                a > ((uint64_t)1 << 62) - b)
                return false;
            crypto(pf, st, dir, a, d + at, (size_t)b);
            at += (size_t)b;
            break;
        case 0x1c:
        case 0x1d: /* CONNECTION_CLOSE: error, (frame type), reason */
            if (!quic_varint(d, n, &at, &a) || (type == 0x1c && !quic_varint(d, n, &at, &a)) ||
                !quic_varint(d, n, &at, &b) || b > n - at)
                return false;
            at += (size_t)b;
            break;
        default: /* not one an Initial may carry */
            return false;
        }
    }
    hello(pf, st, dir);
    return true;
}

/* ---- Google QUIC: tag-value messages in STREAM frames ---- */

/* A tag as CYU writes it: its four bytes without the NULs that pad it ("SNI\0" → "SNI"). */
static size_t tag_text(const uint8_t *t, char *out)
{
    size_t k = 0;
    for (size_t i = 0; i < 4; i++)
        if (t[i])
            out[k++] = (char)t[i];
    return k;
}

static void message(struct pflow *pf, struct quic_state *st, const uint8_t *d, size_t n)
{
    if (n < 8)
        return;
    uint32_t ntags = rd_le16(d + 4);
    bool chlo = !memcmp(d, "CHLO", 4);
    /* the values follow every tag entry of the message, the ones not read included */
    size_t idx = 8, vals = 8 + (size_t)ntags * 8;
    if (ntags > QUIC_TAGS_MAX) {
        pflow_count(pf, QUIC_C_TAGS_SHED, ntags - QUIC_TAGS_MAX);
        ntags = QUIC_TAGS_MAX;
    }
    struct quic_tx *tx = &st->tx;
    char text[16 + QUIC_TAGS_MAX * 5];
    size_t tl = 0;
    uint32_t v = tx->h.version; /* "Q046": 46 */
    if (chlo) {
        int num = ((v >> 16 & 0xff) - '0') * 100 + ((v >> 8 & 0xff) - '0') * 10 +
                  ((v & 0xff) - '0');
        tl = (size_t)snprintf(text, 16, "%d,", num);
    }
    uint32_t prev = 0;
    for (uint32_t i = 0; i < ntags && idx + 8 <= n; i++, idx += 8) {
        const uint8_t *tag = d + idx;
        uint32_t end = rd_le32(d + idx + 4);
        if (chlo) {
            if (i)
                text[tl++] = '-';
            tl += tag_text(tag, text + tl);
        }
        /* its value: from the previous end to its own, within the message */
        if (end >= prev && vals + end <= n) {
            const uint8_t *val = d + vals + prev;
            size_t vl = end - prev;
            if (!memcmp(tag, "SNI\0", 4))
                put(&tx->sni, &tx->has_sni, val, vl);
            else if (!memcmp(tag, "UAID", 4))
                put(&tx->ua, &tx->has_ua, val, vl);
        }
        prev = end;
    }
    if (chlo) {
        pbuf_reset(&tx->cyu);
        pbuf_add(&tx->cyu, text, tl, QUIC_TEXT_MAX);
        tx->has_cyu = tls_wire_md5_hex(text, tl, tx->cyu_hash) == 0;
    }
}

static const size_t GQ_LEN[4] = {1, 2, 4, 6}; /* gQUIC's 2-bit length codes */

static uint64_t be_n(const uint8_t *p, size_t k)
{
    uint64_t v = 0;
    for (size_t i = 0; i < k; i++)
        v = v << 8 | p[i];
    return v;
}

bool quic_gquic_frames(struct pflow *pf, struct quic_state *st, const uint8_t *d, size_t n)
{
    size_t at = 0;
    while (at < n) {
        uint8_t t = d[at++];
        if (t & 0x80) { /* STREAM: 1 f d ooo ss */
            size_t sl = (size_t)(t & 3) + 1, ol = (t >> 2) & 7;
            ol = ol ? ol + 1 : 0;
            if (n - at < sl + ol + ((t & 0x20) ? 2 : 0))
                return false;
            uint64_t sid = be_n(d + at, sl);
            at += sl + ol;
            size_t len = n - at;
            if (t & 0x20) {
                len = rd_be16(d + at);
                at += 2;
                if (len > n - at)
                    return false;
            }
            if (sid == 1) /* the crypto handshake stream */
                message(pf, st, d + at, len);
            at += len;
        } else if ((t & 0xc0) == 0x40) { /* ACK: 01 n ll mm */
            size_t ll = GQ_LEN[(t >> 2) & 3], mm = GQ_LEN[t & 3];
            if (n - at < ll + 2 + ((t & 0x20) ? 1 : 0))
                return false;
            at += ll + 2;
            size_t blocks = (t & 0x20) ? d[at++] : 0;
            if (n - at < mm + blocks * (1 + mm) + 1)
                return false;
            at += mm + blocks * (1 + mm);
            size_t ts = d[at++];
            if (ts && n - at < 5 + (ts - 1) * 3)
                return false;
            at += ts ? 5 + (ts - 1) * 3 : 0;
        } else if (t == 0x00) { /* PADDING: the rest */
            return true;
        } else if (t == 0x07) { /* PING */
        } else {
            /* RST_STREAM, CONNECTION_CLOSE, GOAWAY, WINDOW_UPDATE, BLOCKED, STOP_WAITING …:
             * nothing of them is read, and what follows cannot be found without their
             * lengths in every version: the packet's reading ends here */
            return true;
        }
    }
    return true;
}
