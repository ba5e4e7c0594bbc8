/* tls_wire.h — the TLS handshake messages TLS (parsers/tls) and QUIC (parsers/quic) both read:
 * a ClientHello / ServerHello read into the handshake's buffers (SNI, versions, randoms, ALPN,
 * JA3 / JA3S / JA4), the buffers themselves (one bounded copy, spans into it, the multi
 * buffers' elements), what the handshake showed (struct tls_info) and the digests the
 * fingerprints use. The whole interface of parsers/tls_wire; TLS's record layer, certificate
 * reader, descriptor and EVE object stay in parsers/tls. */
#ifndef OSPREY_TLS_WIRE_H
#define OSPREY_TLS_WIRE_H

#include "parsers_int.h"

/* The handshake's buffers (spans of one copy); TLS's descriptor rows (../tls/tls.c) and
 * QUIC's getter name them. The multi-buffers are contiguous, in TM_* order. */
enum tls_buf {
    TB_SNI, TB_JA3_STRING, TB_JA3_HASH, TB_JA4, TB_JA3S_STRING, TB_JA3S_HASH,
    TB_CERT_SUBJECT, TB_CERT_ISSUER, TB_CERT_SERIAL, TB_VERSION, TB_CERT_FINGERPRINT,
    TB_CERTS, TB_SAN, TB_CLIENT_ALPN, TB_SERVER_ALPN, /* multi */
    TB_CLIENT_RANDOM, TB_SERVER_RANDOM,
    TB__COUNT
};
static inline bool tls_buf_is_multi(enum tls_buf b) { return b >= TB_CERTS && b <= TB_SERVER_ALPN; }
/* The multi-buffers, in the order of their enum tls_buf values. */
enum { TM_CERTS, TM_SAN, TM_CLIENT_ALPN, TM_SERVER_ALPN, TM__COUNT };
#define TLS_MULTI_MAX 32  /* elements kept per multi-buffer (certificates, names, ALPNs) */

/* The handshake messages seen (tls.state's values, ssl_state). */
enum {
    TLS_SEEN_CLIENT_HELLO = 1 << 0, TLS_SEEN_SERVER_HELLO = 1 << 1,
    TLS_SEEN_CLIENT_KEYX = 1 << 2, TLS_SEEN_SERVER_KEYX = 1 << 3,
    TLS_SEEN_UNKNOWN = 1 << 4, /* a handshake message of another type */
};
/* What the handshake showed so far. Versions are wire values (0x0303 = TLS 1.2; 0x0002 =
 * SSLv2). The hellos set the versions; the rest is TLS's record layer's and certificate
 * reader's. */
struct tls_info {
    uint16_t client_version;  /* the ClientHello's (legacy) version; 0: none seen */
    uint16_t server_version;  /* the ServerHello's version, or its supported_versions choice */
    uint32_t state;           /* TLS_SEEN_* of the handshake messages seen */
    uint32_t last_state;      /* the latest one (ssl_state matches on it) */
    uint32_t cert_chain_len;  /* certificates in the server's Certificate message */
    bool early_data;          /* the ClientHello offered 0-RTT data (early_data extension) */
    bool has_validity;        /* the first certificate's validity, seconds since 1970 UTC */
    int64_t not_before, not_after;
};

/* tls_wire.hello_anom: what the last hello read raised (the TLS flow reports them; QUIC
 * does not) */
enum {
    TLS_HA_INVALID_LENGTH = 1 << 0, TLS_HA_SNI_TYPE = 1 << 1, TLS_HA_SNI_LENGTH = 1 << 2,
    TLS_HA_MULTIPLE_SNI = 1 << 3,
};

/* A handshake's buffers, kept in one copy (TLS's flow state begins with one; QUIC keeps one
 * per flow for its hellos). */
struct tls_wire {
    uint32_t hello_anom;    /* TLS_HA_* of the hello just read */
    struct pbuf copy;
    struct span sp[TB__COUNT];
    struct span *el[TM__COUNT]; /* multi-buffer elements, in copy (malloc'd as they come:
                                   a flow without them pays nothing) */
    uint32_t nel[TM__COUNT], cap_el[TM__COUNT];
    struct tls_info info;
    /* QUIC reads its hellos here: its JA4 starts with 'q', and it asks for each hello's
     * extension types in order (its EVE record's extensions: ext_types[0..ext_max),
     * next_types of them written) */
    bool quic;
    uint16_t *ext_types;
    uint32_t ext_max, next_types;
};

/* view.c: buffer b set to d[0..n) (copied; past 1 MiB of copy it is left unset) */
void tls_wire_put(struct tls_wire *t, enum tls_buf b, const void *d, size_t n);
/* Append one element to multi-buffer b (TB_CERTS …); past TLS_MULTI_MAX it is dropped. */
void tls_wire_put_el(struct tls_wire *t, enum tls_buf b, const void *d, size_t n);
/* Forget multi-buffer b's elements (a new message replaces them). */
void tls_wire_clear_el(struct tls_wire *t, enum tls_buf b);
/* Element i of buffer b (i 0 for a single one); NULL when absent (t NULL too). */
const uint8_t *tls_wire_at(const struct tls_wire *t, enum tls_buf b, uint32_t i, uint32_t *len);
/* Free what t holds (not t: TLS's state embeds it); tls_wire_free frees a malloc'd one too
 * (NULL is fine). */
void tls_wire_release(struct tls_wire *t);
void tls_wire_free(struct tls_wire *t);

/* hello.c: a ClientHello / ServerHello body (after the 4-byte handshake header) into t's
 * buffers and info. 0, or -1 when malformed (hello_anom says what Suricata raises). */
int tls_wire_client_hello(struct tls_wire *t, const uint8_t *d, size_t n);
int tls_wire_server_hello(struct tls_wire *t, const uint8_t *d, size_t n);
/* A version's name as Suricata writes it ("TLS 1.2", "SSLv3" …). */
const char *tls_wire_version_name(uint16_t v);

/* hash.c: lower-case hex digests (libcrypto). out: 33 / 65 bytes with the NUL. */
int tls_wire_md5_hex(const void *d, size_t n, char out[33]);
int tls_wire_sha256_hex(const void *d, size_t n, char out[65]);
/* SHA-1 as "aa:bb:…" (59 characters + NUL): the certificate fingerprint as Suricata shows it */
int tls_wire_sha1_colon_hex(const void *d, size_t n, char out[60]);

#endif
