/* ike_int.h — what the IKE parser's files share: a decoded ISAKMP / IKEv2 message (one
 * transaction per datagram, as Suricata makes one), the flow's state (what IKEv1 gathers
 * over its messages: each side's key exchange and nonce, the server's chosen transform), and
 * its own numbering of events, anomalies, counters, buffers and fields (rows of its
 * descriptor, ike.c). Internal to parsers/ike. */
#ifndef OSPREY_IKE_INT_H
#define OSPREY_IKE_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def ike_proto;

enum { IKE_EV_REQUEST, IKE_EV_RESPONSE };
/* Suricata's IKE events (app-layer-event ike.<name>, or ikev2.<name>) */
enum {
    IKE_AE_MALFORMED_DATA, IKE_AE_NO_ENCRYPTION, IKE_AE_WEAK_CRYPTO_ENC,
    IKE_AE_WEAK_CRYPTO_PRF, IKE_AE_WEAK_CRYPTO_DH, IKE_AE_WEAK_CRYPTO_AUTH,
    IKE_AE_WEAK_CRYPTO_NO_DH, IKE_AE_WEAK_CRYPTO_NO_AUTH, IKE_AE_INVALID_PROPOSAL,
    IKE_AE_UNKNOWN_PROPOSAL, IKE_AE_PAYLOAD_EXTRA_DATA, IKE_AE_MULTIPLE_SERVER_PROPOSAL,
    IKE_AE__COUNT
};
enum { IKE_C_TX, IKE_C_MALFORMED, IKE_C_SHED };
enum { IB_TX, IB_INIT_SPI, IB_RESP_SPI, IB_VENDOR, IB_KE, IB_NONCE };
enum { IF_EXCHTYPE, IF_KE_LEN, IF_NONCE_LEN, IF_ATTR /* + attribute type: ike_attr_field */ };

#define IKE_HDR_LEN 28
#define IKE_MSG_MAX 65535        /* a datagram's bytes kept (the copy spans point into) */
#define IKE_PAYLOADS_MAX 32      /* payload types kept per message (the record's list) */
#define IKE_VENDORS_MAX 16
#define IKE_TRANSFORMS_MAX 32    /* IKEv1 transforms / IKEv2 transforms per message */
#define IKE_ATTRS_MAX 16         /* attributes of an IKEv1 transform */
#define IKE_NOTIFY_MAX 16
#define IKE_KEEP_MAX 1024        /* bytes of a key exchange / nonce the flow keeps (IKEv1) */

/* An IKEv1 SA attribute (RFC 2409 Appendix A): its type, its value when it is a number (a
 * basic attribute, or a variable one of 4 bytes), else the span of its bytes. */
struct ike_attr {
    uint16_t type;
    bool numeric;
    uint32_t value;
    struct span bytes;
};
struct ike_v1_transform {
    struct ike_attr attr[IKE_ATTRS_MAX];
    uint8_t nattr;
};
/* An IKEv2 transform (RFC 7296 §3.3.2): type 1 ENCR, 2 PRF, 3 INTEG, 4 DH, 5 ESN, and id */
struct ike_v2_transform {
    uint8_t type;
    uint16_t id;
};

struct ike_msg {
    uint8_t *body;               /* the message's copy (from the IKE header) */
    uint32_t len;
    uint8_t maj, min, exch, flags;
    uint32_t msg_id;
    uint8_t payload[IKE_PAYLOADS_MAX]; /* payload types in chain order (IKEv2: and the 0
                                          that ends it) */
    uint32_t npayload;
    /* IKEv1 */
    bool encrypted;              /* the encryption flag: what follows the header is not read */
    bool has_doi;
    uint32_t doi;
    struct span ke, nonce;       /* the key exchange / nonce payload's data */
    struct span vendor[IKE_VENDORS_MAX];
    uint32_t nvendor;
    struct ike_v1_transform v1t[IKE_TRANSFORMS_MAX];
    uint32_t nv1t;
    /* IKEv2 */
    struct ike_v2_transform v2t[IKE_TRANSFORMS_MAX];
    uint32_t nv2t;
    uint16_t notify[IKE_NOTIFY_MAX];
    uint32_t nnotify;
    uint32_t errors;             /* what did not decode (the record's ikev2.errors) */
    uint32_t events;             /* anomalies seen (bits of IKE_AE_*) */
    uint32_t shed;               /* rows past their limits */
    uint8_t dir;
    uint64_t id;
};

/* What IKEv1 keeps of each side over the flow (the record's ikev1.client / .server). */
struct ike_side {
    struct pbuf ke, nonce;       /* raw bytes, at most IKE_KEEP_MAX */
    struct ike_v1_transform chosen; /* the server's first transform (its choice) */
    uint32_t ntransforms;
};

struct ike_state {
    struct ike_msg cur;          /* the latest message: rules and EVE read it */
    bool has_cur;
    bool has_doi;
    uint32_t doi;
    struct ike_side side[2];     /* 0: the client's, 1: the server's */
    uint64_t next_id;
};

/* message.c: decode one IKE message d[0..n) (the non-ESP marker already skipped; copied into
 * m); false when it is no IKE message (the header). What does not decode after a good header
 * is counted in m->errors and flagged (IKE_AE_MALFORMED_DATA). */
bool ike_decode(struct ike_msg *m, const uint8_t *d, uint32_t n);
void ike_msg_free(struct ike_msg *m);
/* Where the IKE header starts in a datagram to/from port 4500 (after the 4-byte non-ESP
 * marker), 0 otherwise; -1 when it is ESP or a keepalive. */
int ike_offset(const uint8_t *d, size_t n, const struct mon_flow *f);
/* names.c: the names Suricata writes and its keywords read */
const char *ike_v1_payload_name(uint8_t t);  /* NULL: unknown */
const char *ike_v2_payload_name(uint8_t t);  /* NULL: unknown */
const char *ike_attr_name(uint16_t type);    /* "alg_enc" …, "unknown" */
int ike_attr_find(const char *name);         /* its type, -1 */
const char *ike_attr_value_name(uint16_t type, uint32_t v);
const char *ike_v2_notify_name(uint16_t t);  /* NULL: unknown */
/* probe.c */
enum probe_verdict ike_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool ike_eve(struct pflow *pf, struct osprey_jw *w);

#endif
