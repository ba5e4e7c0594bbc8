/* crypto.c — QUIC Initial packet protection (RFC 9001 §5; v2: RFC 9369 §3.3), all through
 * libcrypto's EVP: the Initial secret is HKDF-Extract(the version's salt, the client's first
 * Destination Connection ID), each side's secret HKDF-Expand-Label("client in" / "server in"),
 * and from it the AEAD key, IV and header protection key ("quic key" / "quic iv" / "quic hp";
 * v2's labels "quicv2 …"). Header protection is removed with AES-128-ECB over a 16-byte sample
 * taken 4 bytes after the packet number's start; the payload is AES-128-GCM with the header as
 * associated data and the IV XOR the packet number as nonce. Only Initials are readable by a
 * passive observer: their keys depend on nothing secret. */
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <string.h>

#include "quic_int.h"

/* The Initial salt of a version (Suricata 8's list, and v2); NULL: none known. */
static const uint8_t *salt_of(uint32_t v, bool *v2)
{
    static const uint8_t V1[20] = {0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17,
                                   0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a};
    static const uint8_t V2S[20] = {0x0d, 0xed, 0xe3, 0xde, 0xf7, 0x00, 0xa6, 0xdb, 0x81, 0x93,
                                    0x81, 0xbe, 0x6e, 0x26, 0x9d, 0xcb, 0xf9, 0xbd, 0x2e, 0xd9};
    static const uint8_t D29[20] = {0xaf, 0xbf, 0xec, 0x28, 0x99, 0x93, 0xd2, 0x4c, 0x9e, 0x97,
                                    0x86, 0xf1, 0x9c, 0x61, 0x11, 0xe0, 0x43, 0x90, 0xa8, 0x99};
    static const uint8_t D23[20] = {0xc3, 0xee, 0xf7, 0x12, 0xc7, 0x2e, 0xbb, 0x5a, 0x11, 0xa7,
                                    0xd2, 0x43, 0x2b, 0xb4, 0x63, 0x65, 0xbe, 0xf9, 0xf5, 0x02};
    static const uint8_t Q050[20] = {0x50, 0x45, 0x74, 0xef, 0xd0, 0x66, 0xfe, 0x2f, 0x9d, 0x94,
                                     0x5c, 0xfc, 0xdb, 0xd3, 0xa7, 0xf0, 0xd3, 0xb5, 0x6b, 0x45};
    *v2 = v == 0x6b3343cfu;
    if (*v2)
        return V2S;
    if (v == 1 || v == 0xff000021u || v == 0xff000022u)
        return V1;
    if (v >= 0xff00001du && v <= 0xff000020u)
        return D29;
    if (v == 0xfaceb002u || (v >= 0xff000017u && v <= 0xff00001cu))
        return D23;
    if (v == 0x51303530u)
        return Q050;
    return NULL;
}

static EVP_PKEY_CTX *hkdf_ctx(int mode)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
    if (c && EVP_PKEY_derive_init(c) > 0 && EVP_PKEY_CTX_set_hkdf_md(c, EVP_sha256()) > 0 &&
        EVP_PKEY_CTX_set_hkdf_mode(c, mode) > 0)
        return c;
    EVP_PKEY_CTX_free(c);
    return NULL;
}

static bool extract(const uint8_t *salt, size_t sl, const uint8_t *ikm, size_t il,
                    uint8_t prk[32])
{
    EVP_PKEY_CTX *c = hkdf_ctx(EVP_PKEY_HKDEF_MODE_EXTRACT_ONLY);
    size_t len = 32;
    bool ok = c && EVP_PKEY_CTX_set1_hkdf_salt(c, salt, (int)sl) > 0 &&
              EVP_PKEY_CTX_set1_hkdf_key(c, ikm, (int)il) > 0 &&
              EVP_PKEY_derive(c, prk, &len) > 0 && len == 32;
    EVP_PKEY_CTX_free(c);
    return ok;
}

/* HKDF-Expand-Label (RFC 8446 §7.1) with an empty context. */
static bool expand_label(const uint8_t secret[32], const char *label, uint8_t *out, size_t olen)
{
    uint8_t info[2 + 1 + 6 + 32 + 1];
    size_t ll = strlen(label);
    if (ll > 32)
        return false;
    info[0] = (uint8_t)(olen >> 8), info[1] = (uint8_t)olen;
    info[2] = (uint8_t)(6 + ll);
    memcpy(info + 3, "tls13 ", 6);
    memcpy(info + 9, label, ll);
    info[9 + ll] = 0;
    EVP_PKEY_CTX *c = hkdf_ctx(EVP_PKEY_HKDEF_MODE_EXPAND_ONLY);
    size_t len = olen;
    bool ok = c && EVP_PKEY_CTX_set1_hkdf_key(c, secret, 32) > 0 &&
              EVP_PKEY_CTX_add1_hkdf_info(c, info, (int)(10 + ll)) > 0 &&
              EVP_PKEY_derive(c, out, &len) > 0 && len == olen;
    EVP_PKEY_CTX_free(c);
    return ok;
}

static bool side_keys(const uint8_t secret[32], bool v2, struct quic_keys *k)
{
    return expand_label(secret, v2 ? "quicv2 key" : "quic key", k->key, 16) &&
           expand_label(secret, v2 ? "quicv2 iv" : "quic iv", k->iv, 12) &&
           expand_label(secret, v2 ? "quicv2 hp" : "quic hp", k->hp, 16);
}

bool quic_initial_keys(uint32_t version, const uint8_t *dcid, size_t dcid_len,
                       struct quic_keys out[2])
{
    bool v2;
    const uint8_t *salt = salt_of(version, &v2);
    uint8_t prk[32], cs[32], ss[32];
    return salt && dcid_len && extract(salt, 20, dcid, dcid_len, prk) &&
           expand_label(prk, "client in", cs, 32) && expand_label(prk, "server in", ss, 32) &&
           side_keys(cs, v2, &out[0]) && side_keys(ss, v2, &out[1]);
}

/* AES-128-ECB of one block: the header protection mask. */
static bool hp_mask(const uint8_t hp[16], const uint8_t sample[16], uint8_t mask[16])
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int l = 0;
    bool ok = c && EVP_EncryptInit_ex(c, EVP_aes_128_ecb(), NULL, hp, NULL) > 0 &&
              EVP_CIPHER_CTX_set_padding(c, 0) > 0 &&
              EVP_EncryptUpdate(c, mask, &l, sample, 16) > 0 && l == 16;
    EVP_CIPHER_CTX_free(c);
    return ok;
}

bool quic_decrypt(const struct quic_keys *k, const uint8_t *p, size_t hlen, size_t length,
                  uint8_t *out, size_t *out_len)
{
    uint8_t mask[16];
    if (length < 4 + 16 || !hp_mask(k->hp, p + hlen + 4, mask))
        return false;
    uint8_t first = p[0] ^ (mask[0] & ((p[0] & 0x80) ? 0x0f : 0x1f));
    size_t pnl = (size_t)(first & 3) + 1;
    uint8_t pnb[4];
    uint64_t pn = 0;
    for (size_t i = 0; i < pnl; i++) {
        pnb[i] = p[hlen + i] ^ mask[1 + i];
        pn = pn << 8 | pnb[i];
    }
    uint8_t nonce[12];
    memcpy(nonce, k->iv, 12);
    for (int i = 0; i < 8; i++)
        nonce[4 + i] ^= (uint8_t)(pn >> (56 - 8 * i));
    const uint8_t *ct = p + hlen + pnl;
    size_t cl = length - pnl - 16; /* (length ≥ 20 > pnl + 16) */
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int l = 0, l2 = 0;
    /* the associated data is the unprotected header: given in three pieces */
    bool ok = c && EVP_DecryptInit_ex(c, EVP_aes_128_gcm(), NULL, NULL, NULL) > 0 &&
              EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) > 0 &&
              EVP_DecryptInit_ex(c, NULL, NULL, k->key, nonce) > 0 &&
              EVP_DecryptUpdate(c, NULL, &l, &first, 1) > 0 &&
              (hlen < 2 || EVP_DecryptUpdate(c, NULL, &l, p + 1, (int)(hlen - 1)) > 0) &&
              EVP_DecryptUpdate(c, NULL, &l, pnb, (int)pnl) > 0 &&
              EVP_DecryptUpdate(c, out, &l, ct, (int)cl) > 0 &&
              EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, 16, (void *)(ct + cl)) > 0 &&
              EVP_DecryptFinal_ex(c, out + l, &l2) > 0;
    EVP_CIPHER_CTX_free(c);
    if (ok)
        *out_len = (size_t)l + (size_t)l2;
    return ok;
}
