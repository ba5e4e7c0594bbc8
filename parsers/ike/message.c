/* message.c — one IKE message: the ISAKMP header (RFC 2408 §3.1, RFC 7296 §3.1: SPIs, next
 * payload, version, exchange type, flags, message id, length) and the payload chain. IKEv1
 * (RFC 2408 §3.2-3.16): SA (DOI, proposals, transforms and their attributes), key exchange,
 * nonce, vendor ids; an encrypted message (flags bit 0) is not read past its header. IKEv2
 * (RFC 7296 §3.3-3.10): SA proposals' transforms, the notify types; the encrypted payload (SK)
 * ends the chain. Suricata's weak-crypto checks run on IKEv2 SA proposals. Everything is
 * bounded: the datagram is copied (IKE_MSG_MAX) and every list has a limit (counted shed). */
#include <stdlib.h>
#include <string.h>

#include "ike_int.h"

void ike_msg_free(struct ike_msg *m)
{
    free(m->body);
    memset(m, 0, sizeof *m);
}

static void flag(struct ike_msg *m, unsigned e)
{
    m->events |= 1u << e;
}

/* ---- IKEv1 ---- */
static void v1_attributes(struct ike_msg *m, struct ike_v1_transform *t, uint32_t at,
                          uint32_t end)
{
    const uint8_t *b = m->body;
    while (at + 4 <= end) {
        uint16_t ty = rd_be16(b + at), lv = rd_be16(b + at + 2);
        struct ike_attr a = {.type = ty & 0x7fff};
        at += 4;
        if (ty & 0x8000) { /* basic: the value is the second half */
            a.numeric = true;
            a.value = lv;
        } else {
            if (lv > end - at) {
                m->errors++;
                flag(m, IKE_AE_MALFORMED_DATA);
                return;
            }
            a.bytes = (struct span){at, lv, true};
            if (lv == 4) {
                a.numeric = true;
                a.value = rd_be32(b + at);
            }
            at += lv;
        }
        if (t->nattr < IKE_ATTRS_MAX)
            t->attr[t->nattr++] = a;
        else
            m->shed++;
    }
}

/* An SA payload's data [at, end): DOI, situation, then proposal payloads, each with its
 * transform payloads (their own generic headers). */
static void v1_sa(struct ike_msg *m, uint32_t at, uint32_t end)
{
    const uint8_t *b = m->body;
    if (end - at < 4)
        goto bad;
    m->has_doi = true;
    m->doi = rd_be32(b + at);
    if (m->doi != 1) /* only IPsec's DOI is read further (as Suricata) */
        return;
    at += 8; /* DOI, situation */
    while (at + 8 <= end) { /* proposals: generic header, #, protocol, SPI size, transforms */
        uint16_t plen = rd_be16(b + at + 2);
        if (plen < 8 || plen > end - at)
            goto bad;
        uint32_t pend = at + plen, t = at + 8 + b[at + 6];
        while (t + 8 <= pend) { /* transforms: generic header, #, id, reserved, attributes */
            uint16_t tlen = rd_be16(b + t + 2);
            if (tlen < 8 || tlen > pend - t)
                goto bad;
            if (m->nv1t < IKE_TRANSFORMS_MAX)
                v1_attributes(m, &m->v1t[m->nv1t++], t + 8, t + tlen);
            else
                m->shed++;
            t += tlen;
        }
        at = pend;
    }
    return;
bad:
    m->errors++;
    flag(m, IKE_AE_MALFORMED_DATA);
}

static void v1_payload(struct ike_msg *m, uint8_t type, uint32_t at, uint32_t end)
{
    switch (type) {
    case 1: /* SA */
        v1_sa(m, at, end);
        break;
    case 4: /* key exchange */
        m->ke = (struct span){at, end - at, true};
        break;
    case 10: /* nonce */
        m->nonce = (struct span){at, end - at, true};
        break;
    case 13: /* vendor id */
        if (m->nvendor < IKE_VENDORS_MAX)
            m->vendor[m->nvendor++] = (struct span){at, end - at, true};
        else
            m->shed++;
        break;
    default:
        break;
    }
}

/* ---- IKEv2 ---- */
static bool aead(uint16_t enc)
{
    /* AES-CCM 14-16, AES-GCM 18-20, ChaCha20-Poly1305 28 (RFC 4309, 4106, 7634) */
    return (enc >= 14 && enc <= 16) || (enc >= 18 && enc <= 20) || enc == 28;
}

/* Suricata's checks on one proposal's transforms (what it calls weak, RFC 8247) */
static void v2_check(struct ike_msg *m, uint32_t first, uint8_t protocol)
{
    bool dh = false, auth = false, is_aead = false;
    for (uint32_t i = first; i < m->nv2t; i++) {
        uint16_t id = m->v2t[i].id;
        switch (m->v2t[i].type) {
        case 1: /* ENCR: DES, 3DES, RC5, IDEA, CAST, Blowfish, 3IDEA, DES-IV32/64, NULL */
            if ((id >= 1 && id <= 9) || id == 11)
                flag(m, IKE_AE_WEAK_CRYPTO_ENC);
            is_aead |= aead(id);
            break;
        case 2: /* PRF: HMAC-MD5, HMAC-SHA1 */
            if (id == 1 || id == 2)
                flag(m, IKE_AE_WEAK_CRYPTO_PRF);
            break;
        case 3: /* INTEG: NONE is checked below; MD5, SHA1-96, DES-MAC, KPDK-MD5, XCBC, … */
            if (id >= 1 && id <= 7)
                flag(m, IKE_AE_WEAK_CRYPTO_AUTH);
            auth |= id != 0;
            break;
        case 4: /* DH: none; MODP 768, 1024, 1536, 1024 with 160-bit prime */
            dh = true;
            if (id == 0)
                flag(m, IKE_AE_WEAK_CRYPTO_NO_DH);
            else if (id == 1 || id == 2 || id == 5 || id == 22)
                flag(m, IKE_AE_WEAK_CRYPTO_DH);
            break;
        default:
            break;
        }
    }
    if (!dh)
        flag(m, IKE_AE_WEAK_CRYPTO_NO_DH);
    if (protocol == 2) /* AH: no encryption */
        flag(m, IKE_AE_NO_ENCRYPTION);
    if (!auth && !is_aead)
        flag(m, IKE_AE_WEAK_CRYPTO_NO_AUTH);
}

static void v2_sa(struct ike_msg *m, uint32_t at, uint32_t end)
{
    const uint8_t *b = m->body;
    while (at + 8 <= end) { /* proposal substructure: last, reserved, length, #, protocol,
                               SPI size, transforms */
        uint16_t plen = rd_be16(b + at + 2);
        if (plen < 8 || plen > end - at || 8u + b[at + 6] > plen) {
            m->errors++;
            flag(m, IKE_AE_INVALID_PROPOSAL);
            return;
        }
        uint8_t protocol = b[at + 5];
        uint32_t pend = at + plen, t = at + 8 + b[at + 6], first = m->nv2t;
        while (t + 8 <= pend) { /* transform: last, reserved, length, type, reserved, id */
            uint16_t tlen = rd_be16(b + t + 2);
            if (tlen < 8 || tlen > pend - t) {
                m->errors++;
                flag(m, IKE_AE_INVALID_PROPOSAL);
                return;
            }
            if (m->nv2t < IKE_TRANSFORMS_MAX)
                m->v2t[m->nv2t++] = (struct ike_v2_transform){b[t + 4], rd_be16(b + t + 6)};
            else
                m->shed++;
            t += tlen;
        }
        if (protocol < 1 || protocol > 3)
            flag(m, IKE_AE_UNKNOWN_PROPOSAL);
        else
            v2_check(m, first, protocol);
        at = pend;
    }
}

static void v2_payload(struct ike_msg *m, uint8_t type, uint32_t at, uint32_t end)
{
    if (type == 33) { /* SA */
        v2_sa(m, at, end);
    } else if (type == 41 && end - at >= 4) { /* notify: protocol, SPI size, type */
        if (m->nnotify < IKE_NOTIFY_MAX)
            m->notify[m->nnotify++] = rd_be16(m->body + at + 2);
        else
            m->shed++;
    }
}

bool ike_decode(struct ike_msg *m, const uint8_t *d, uint32_t n)
{
    memset(m, 0, sizeof *m);
    if (n < IKE_HDR_LEN || n > IKE_MSG_MAX)
        return false;
    uint8_t maj = d[17] >> 4;
    if (maj != 1 && maj != 2)
        return false;
    if (!(m->body = malloc(n)))
        return false;
    memcpy(m->body, d, n);
    m->len = n;
    m->maj = maj;
    m->min = d[17] & 0xf;
    m->exch = d[18];
    m->flags = d[19];
    m->msg_id = rd_be32(d + 20);
    uint32_t len = rd_be32(d + 24), end = len < n ? len : n;
    if (len != n) { /* the header's length is not the datagram's */
        m->errors++;
        flag(m, len > n ? IKE_AE_MALFORMED_DATA : IKE_AE_PAYLOAD_EXTRA_DATA);
    }
    uint8_t next = d[16];
    uint32_t at = IKE_HDR_LEN;
    if (maj == 1 && (m->flags & 1)) { /* encrypted: the payloads are not readable */
        m->encrypted = true;
        return true;
    }
    while (next) {
        if (m->npayload < IKE_PAYLOADS_MAX)
            m->payload[m->npayload++] = next;
        else
            m->shed++;
        if (at + 4 > end) {
            m->errors++;
            flag(m, IKE_AE_MALFORMED_DATA);
            return true;
        }
        uint16_t plen = rd_be16(d + at + 2);
        if (plen < 4 || plen > end - at) {
            m->errors++;
            flag(m, IKE_AE_MALFORMED_DATA);
            return true;
        }
        uint8_t type = next;
        next = d[at];
        if (maj == 1)
            v1_payload(m, type, at + 4, at + plen);
        else
            v2_payload(m, type, at + 4, at + plen);
        at += plen;
        if (maj == 2 && (type == 46 || type == 53)) /* SK / SKF: the rest is encrypted */
            return true;
    }
    if (maj == 2 && m->npayload < IKE_PAYLOADS_MAX)
        m->payload[m->npayload++] = 0; /* the chain's end, listed as Suricata lists it */
    if (at < end) {
        m->errors++;
        flag(m, IKE_AE_PAYLOAD_EXTRA_DATA);
    }
    return true;
}

int ike_offset(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (!f || !(f->sport == 4500 || f->cport == 4500))
        return 0;
    if (n < 4 || rd_be32(d) != 0) /* ESP (an SPI), or a NAT-keepalive (one 0xff byte) */
        return -1;
    return 4;
}
