/* tls_int.h — what the TLS parser's files share. Internal to parsers/tls. */
#ifndef OSPREY_TLS_INT_H
#define OSPREY_TLS_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def tls_proto;

/* The parser's buffers (spans of the flow's copy); rows of tls_proto's buffer table (tls.c)
 * name them. The multi-buffers are contiguous, in TM_* order. */
enum tls_buf {
    TB_SNI, TB_JA3_STRING, TB_JA3_HASH, TB_JA4, TB_JA3S_STRING, TB_JA3S_HASH,
    TB_CERT_SUBJECT, TB_CERT_ISSUER, TB_CERT_SERIAL, TB_VERSION, TB_CERT_FINGERPRINT,
    TB_CERTS, TB_SAN, TB_CLIENT_ALPN, TB_SERVER_ALPN, /* multi */
    TB_CLIENT_RANDOM, TB_SERVER_RANDOM,
    TB__COUNT
};
static inline bool tls_buf_is_multi(enum tls_buf b) { return b >= TB_CERTS && b <= TB_SERVER_ALPN; }

/* rows of tls_proto.events / .anomalies / .counters */
enum { TLS_EV_CLIENT_HELLO, TLS_EV_SERVER_HELLO, TLS_EV_CERTIFICATE, TLS_EV_CLIENT_CERTIFICATE };
enum { TLS_AE_INVALID_RECORD_TYPE, TLS_AE_INVALID_RECORD_VERSION,
       TLS_AE_INVALID_HANDSHAKE_MESSAGE, TLS_AE_INVALID_CERTIFICATE,
       TLS_AE_CERTIFICATE_INVALID_LENGTH,
       /* records (record.c) */
       TLS_AE_INVALID_SSLV2_HEADER, TLS_AE_ERROR_MESSAGE, TLS_AE_INVALID_SSL_RECORD,
       TLS_AE_INVALID_ALERT, TLS_AE_INVALID_HEARTBEAT, TLS_AE_OVERFLOW_HEARTBEAT,
       TLS_AE_DATALEAK_HEARTBEAT, TLS_AE_TOO_MANY_RECORDS,
       /* hellos (hello.c, through tls_state.hello_anom) */
       TLS_AE_HANDSHAKE_INVALID_LENGTH, TLS_AE_INVALID_SNI_TYPE, TLS_AE_INVALID_SNI_LENGTH,
       TLS_AE_MULTIPLE_SNI,
       /* the first certificate's DER (cert.c's TLS_CERT_* codes) */
       TLS_AE_CERT_INVALID_VERSION, TLS_AE_CERT_INVALID_SERIAL, TLS_AE_CERT_INVALID_ALGID,
       TLS_AE_CERT_INVALID_X509NAME, TLS_AE_CERT_INVALID_DATE, TLS_AE_CERT_INVALID_EXTENSIONS,
       TLS_AE_CERT_INVALID_DER };
enum { TLS_C_HANDSHAKES, TLS_C_MALFORMED, TLS_C_LIMIT };

/* The handshake messages seen (tls.state's values, ssl_state). */
enum {
    TLS_SEEN_CLIENT_HELLO = 1 << 0, TLS_SEEN_SERVER_HELLO = 1 << 1,
    TLS_SEEN_CLIENT_KEYX = 1 << 2, TLS_SEEN_SERVER_KEYX = 1 << 3,
    TLS_SEEN_UNKNOWN = 1 << 4, /* a handshake message of another type */
};
/* What the handshake showed so far. Versions are wire values (0x0303 = TLS 1.2; 0x0002 =
 * SSLv2). */
struct tls_info {
    uint16_t client_version;  /* the ClientHello's (legacy) version; 0: none seen */
    uint16_t server_version;  /* the ServerHello's version, or its supported_versions choice */
    uint32_t state;           /* TLS_SEEN_* of the handshake messages seen */
    uint32_t last_state;      /* the latest one (ssl_state matches on it) */
    uint32_t cert_chain_len;  /* certificates in the server's Certificate message */
    bool has_validity;        /* the first certificate's validity, seconds since 1970 UTC */
    int64_t not_before, not_after;
};

/* record.c */
void tls_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
const uint8_t *tls_buffer_at(struct pflow *pf, enum tls_buf b, uint32_t i, uint32_t *len);
void tls_free(void *state);
/* probe.c */
enum probe_verdict detect_tls_client_hello(const uint8_t *d, size_t n);

#define TLS_HS_MAX 65536  /* bytes of one handshake message kept (certificate chains) */
#define TLS_MULTI_MAX 32  /* elements kept per multi-buffer (certificates, names, ALPNs) */

/* The multi-buffers, in the order of their enum tls_buf values. */
enum { TM_CERTS, TM_SAN, TM_CLIENT_ALPN, TM_SERVER_ALPN, TM__COUNT };

/* Every TLS buffer of the flow, kept in one copy. */
/* How a certificate failed to decode (tls_certificate's negative results), as Suricata's
 * X.509 reader names the part that failed: each raises its tls.certificate_invalid_* event. */
enum {
    TLS_CERT_INVALID = -1,     /* tls.invalid_certificate (another part, contents cut short) */
    TLS_CERT_LENGTH = -2,      /* tls.certificate_invalid_length */
    TLS_CERT_VERSION = -3,     /* the [0] version: no INTEGER, or above v3 */
    TLS_CERT_SERIAL = -4,      /* the serial number: no INTEGER */
    TLS_CERT_ALGID = -5,       /* the signature AlgorithmIdentifier: no SEQUENCE { OID … } */
    TLS_CERT_X509NAME = -6,    /* the issuer or subject: no Name */
    TLS_CERT_DATE = -7,        /* the validity: no two UTCTime / GeneralizedTime */
    TLS_CERT_EXTENSIONS = -8,  /* the [3] extensions: no SEQUENCE OF Extension */
    TLS_CERT_DER = -9,         /* the certificate or its tbsCertificate: no SEQUENCE */
};

/* tls_state.hello_anom: what the last hello read raised (the TLS flow reports them; QUIC
 * does not) */
enum {
    TLS_HA_INVALID_LENGTH = 1 << 0, TLS_HA_SNI_TYPE = 1 << 1, TLS_HA_SNI_LENGTH = 1 << 2,
    TLS_HA_MULTIPLE_SNI = 1 << 3,
};

struct tls_state {
    uint32_t hello_anom;    /* TLS_HA_* of the hello just read */
    /* heartbeats (RFC 6520) as Suricata follows them, over the flow */
    bool hb_inflight;       /* a heartbeat waits for the other side's */
    uint8_t hb_init_dir;    /* the side that sent it */
    uint16_t hb_record_len; /* an encrypted one's record length (0: none) */
    struct pbuf copy;
    struct span sp[TB__COUNT];
    struct pbuf rec[2];     /* a record being reassembled, per direction */
    struct pbuf hs[2];      /* handshake bytes not yet a whole message, per direction */
    uint32_t skip[2];       /* bytes of an oversized handshake message still to skip */
    uint32_t rskip[2];      /* body bytes of a record nothing reads (application data,
                               encrypted handshake, alerts) still to pass over uncopied */
    bool encrypted[2];      /* after ChangeCipherSpec: handshake no longer readable */
    bool reported;          /* the tx callback ran */
    struct span *el[TM__COUNT]; /* multi-buffer elements, in copy (malloc'd as they come:
                                   a flow without them pays nothing) */
    uint32_t nel[TM__COUNT], cap_el[TM__COUNT];
    struct tls_info info;
    /* QUIC (parsers/quic) reads its hellos with this folder's reader: its JA4 starts with
     * 'q', and it asks for each hello's extension types in order (its EVE record's
     * extensions: ext_types[0..ext_max), next_types of them written) */
    bool quic;
    uint16_t *ext_types;
    uint32_t ext_max, next_types;
};

void tls_put(struct tls_state *t, enum tls_buf b, const void *d, size_t n);
/* Append one element to multi-buffer b (TB_CERTS …); past TLS_MULTI_MAX it is dropped. */
void tls_put_el(struct tls_state *t, enum tls_buf b, const void *d, size_t n);
/* Forget multi-buffer b's elements (a new message replaces them). */
void tls_clear_el(struct tls_state *t, enum tls_buf b);

/* hello.c: a ClientHello / ServerHello body (after the 4-byte handshake header). 0, or -1
 * when malformed. */
int tls_client_hello(struct tls_state *t, const uint8_t *d, size_t n);
int tls_server_hello(struct tls_state *t, const uint8_t *d, size_t n);
const char *tls_version_name(uint16_t v);

/* cert.c: the Certificate message body: every certificate (TB_CERTS), the first one's
 * subject, issuer, serial, fingerprint, subjectAltNames; of the server's (client false) also
 * the chain length and the first one's validity (its fields: tls.cert_chain_len, tls.not_before …). 0, -1 when
 * malformed (TLS_CERT_*: -2 when a length is wrong — a certificate's runs past the message, or
 * a DER element's header is cut short — the others name the part of the first certificate
 * that does not decode), 1 for an empty client Certificate (no certificate to offer: nothing
 * changes). */
int tls_certificate(struct tls_state *t, const uint8_t *d, size_t n, bool client);
/* The certificate's failure code (TLS_CERT_*) to its anomaly row. */
unsigned tls_cert_anomaly(int rc);

/* hash.c: lower-case hex digests (libcrypto). out: 33 / 65 bytes with the NUL. */
int tls_md5_hex(const void *d, size_t n, char out[33]);
int tls_sha256_hex(const void *d, size_t n, char out[65]);
/* SHA-1 as "aa:bb:…" (59 characters + NUL): the certificate fingerprint as Suricata shows it */
int tls_sha1_colon_hex(const void *d, size_t n, char out[60]);

/* eve.c: its EVE object */
bool tls_eve(struct pflow *pf, struct osprey_jw *w);

#endif
