/* tls_int.h — what the TLS parser's files share: its flow state (the shared handshake reader's
 * buffers, ../tls_wire/tls_wire.h, and the record layer's), its own numbering of events,
 * anomalies and counters. Internal to parsers/tls. */
#ifndef OSPREY_TLS_INT_H
#define OSPREY_TLS_INT_H

#include "parsers_int.h"
#include "tls_wire.h"

extern const struct osprey_proto_def tls_proto;

/* rows of tls_proto.events / .anomalies / .counters */
enum { TLS_EV_CLIENT_HELLO, TLS_EV_SERVER_HELLO, TLS_EV_CERTIFICATE, TLS_EV_CLIENT_CERTIFICATE };
enum { TLS_AE_INVALID_RECORD_TYPE, TLS_AE_INVALID_RECORD_VERSION,
       TLS_AE_INVALID_HANDSHAKE_MESSAGE, TLS_AE_INVALID_CERTIFICATE,
       TLS_AE_CERTIFICATE_INVALID_LENGTH,
       /* records (record.c) */
       TLS_AE_INVALID_SSLV2_HEADER, TLS_AE_ERROR_MESSAGE, TLS_AE_INVALID_SSL_RECORD,
       TLS_AE_INVALID_ALERT, TLS_AE_INVALID_HEARTBEAT, TLS_AE_OVERFLOW_HEARTBEAT,
       TLS_AE_DATALEAK_HEARTBEAT, TLS_AE_TOO_MANY_RECORDS,
       /* hellos (hello.c, through tls_wire.hello_anom) */
       TLS_AE_HANDSHAKE_INVALID_LENGTH, TLS_AE_INVALID_SNI_TYPE, TLS_AE_INVALID_SNI_LENGTH,
       TLS_AE_MULTIPLE_SNI,
       /* the first certificate's DER (cert.c's TLS_CERT_* codes) */
       TLS_AE_CERT_INVALID_VERSION, TLS_AE_CERT_INVALID_SERIAL, TLS_AE_CERT_INVALID_ALGID,
       TLS_AE_CERT_INVALID_X509NAME, TLS_AE_CERT_INVALID_DATE, TLS_AE_CERT_INVALID_EXTENSIONS,
       TLS_AE_CERT_INVALID_DER };
enum { TLS_C_HANDSHAKES, TLS_C_MALFORMED, TLS_C_LIMIT };

/* record.c */
void tls_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
const uint8_t *tls_buffer_at(struct pflow *pf, enum tls_buf b, uint32_t i, uint32_t *len);
void tls_free(void *state);
/* probe.c */
enum probe_verdict detect_tls_client_hello(const uint8_t *d, size_t n);

#define TLS_HS_MAX 65536  /* bytes of one handshake message kept (certificate chains) */

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

/* A TLS flow's state: the handshake's buffers (the shared reader's, ../tls_wire) and the
 * record layer's own. */
/* app-layer.protocols.tls.encryption-handling (Suricata's): what the flow's payload gets once
 * encrypted application data flows */
enum tls_encryption_handling {
    TLS_ENC_DEFAULT, /* the TLS records are still read; content rules stop at the payload */
    TLS_ENC_BYPASS,  /* as default, and the records are no longer read either */
    TLS_ENC_FULL,    /* content rules go on reading the encrypted payload */
};
struct tls_cfg {
    uint32_t encryption_handling; /* enum tls_encryption_handling */
};

struct tls_state {
    struct tls_wire wire;   /* buffers, info, hello_anom: filled by the hellos (tls_wire_*)
                               and the certificate reader (cert.c) */
    /* heartbeats (RFC 6520) as Suricata follows them, over the flow */
    bool hb_inflight;       /* a heartbeat waits for the other side's */
    uint8_t hb_init_dir;    /* the side that sent it */
    uint16_t hb_record_len; /* an encrypted one's record length (0: none) */
    struct pbuf rec[2];     /* a record being reassembled, per direction */
    struct pbuf hs[2];      /* handshake bytes not yet a whole message, per direction */
    uint32_t skip[2];       /* bytes of an oversized handshake message still to skip */
    uint32_t rskip[2];      /* body bytes of a record nothing reads (application data,
                               encrypted handshake, alerts) still to pass over uncopied */
    bool encrypted[2];      /* after ChangeCipherSpec: handshake no longer readable */
    bool reported;          /* the tx callback ran */
};

/* cert.c: the Certificate message body: every certificate (TB_CERTS), the first one's
 * subject, issuer, serial, fingerprint, subjectAltNames; of the server's (client false) also
 * the chain length and the first one's validity (its fields: tls.cert_chain_len, tls.not_before …). 0, -1 when
 * malformed (TLS_CERT_*: -2 when a length is wrong — a certificate's runs past the message, or
 * a DER element's header is cut short — the others name the part of the first certificate
 * that does not decode), 1 for an empty client Certificate (no certificate to offer: nothing
 * changes). */
int tls_certificate(struct tls_wire *t, const uint8_t *d, size_t n, bool client);
/* The certificate's failure code (TLS_CERT_*) to its anomaly row. */
unsigned tls_cert_anomaly(int rc);

/* eve.c: its EVE object */
bool tls_eve(struct pflow *pf, struct osprey_jw *w);

#endif
