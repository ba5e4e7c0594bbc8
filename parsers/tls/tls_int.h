/* tls_int.h — what the TLS parser's files share. Internal to parsers/tls. */
#ifndef OSPREY_TLS_INT_H
#define OSPREY_TLS_INT_H

#include "parsers_int.h"

#define TLS_HS_MAX 65536  /* bytes of one handshake message kept (certificate chains) */
#define TLS_MULTI_MAX 32  /* elements kept per multi-buffer (certificates, names, ALPNs) */

/* The multi-buffers, in the order of their enum osprey_buf values. */
enum { TM_CERTS, TM_SAN, TM_CLIENT_ALPN, TM_SERVER_ALPN, TM__COUNT };

/* Every TLS buffer of the flow, kept in one copy. */
struct tls_state {
    struct pbuf copy;
    struct span sp[OB__COUNT];
    struct pbuf rec[2];     /* a record being reassembled, per direction */
    struct pbuf hs[2];      /* handshake bytes not yet a whole message, per direction */
    uint32_t skip[2];       /* bytes of an oversized handshake message still to skip */
    bool encrypted[2];      /* after ChangeCipherSpec: handshake no longer readable */
    bool reported;          /* the tx callback ran */
    bool client_started;    /* the client's first record is in: only it may be SSLv2-framed */
    struct span *el[TM__COUNT]; /* multi-buffer elements, in copy (malloc'd as they come:
                                   a flow without them pays nothing) */
    uint32_t nel[TM__COUNT], cap_el[TM__COUNT];
    struct osprey_tls_info info;
};

void tls_put(struct tls_state *t, enum osprey_buf b, const void *d, size_t n);
/* Append one element to multi-buffer b (OB_TLS_CERTS …); past TLS_MULTI_MAX it is dropped. */
void tls_put_el(struct tls_state *t, enum osprey_buf b, const void *d, size_t n);
/* Forget multi-buffer b's elements (a new message replaces them). */
void tls_clear_el(struct tls_state *t, enum osprey_buf b);

/* hello.c: a ClientHello / ServerHello body (after the 4-byte handshake header). 0, or -1
 * when malformed. */
int tls_client_hello(struct tls_state *t, const uint8_t *d, size_t n);
int tls_server_hello(struct tls_state *t, const uint8_t *d, size_t n);
const char *tls_version_name(uint16_t v);

/* cert.c: the Certificate message body: every certificate (OB_TLS_CERTS), the first one's
 * subject, issuer, serial, fingerprint, subjectAltNames; of the server's (client false) also
 * the chain length and the first one's validity (osprey_parsers_tls_info). 0, -1 when
 * malformed, -2 when a length is wrong (a certificate's runs past the message, or a DER
 * element's header is cut short), 1 for an empty client Certificate (no certificate to offer: nothing changes). */
int tls_certificate(struct tls_state *t, const uint8_t *d, size_t n, bool client);

/* hash.c: lower-case hex digests (libcrypto). out: 33 / 65 bytes with the NUL. */
int tls_md5_hex(const void *d, size_t n, char out[33]);
int tls_sha256_hex(const void *d, size_t n, char out[65]);
/* SHA-1 as "aa:bb:…" (59 characters + NUL): the certificate fingerprint as Suricata shows it */
int tls_sha1_colon_hex(const void *d, size_t n, char out[60]);

#endif
