/* quic_int.h — what the QUIC parser's files share: a packet's header, the transaction in force
 * (one per long-header packet, as Suricata makes them), each direction's CRYPTO stream being
 * reassembled, the Initial keys, and its own numbering of events, anomalies, counters and
 * buffers (rows of its descriptor, quic.c). Internal to parsers/quic.
 *
 * The TLS handshake inside (a ClientHello / ServerHello in CRYPTO frames) is read by
 * the shared TLS hello reader (../tls_wire/tls_wire.h: SNI, ALPN, JA3, JA3S, JA4) TLS uses too,
 * not a second one and nothing of parsers/tls. */
#ifndef OSPREY_QUIC_INT_H
#define OSPREY_QUIC_INT_H

#include "parsers_int.h"
#include "tls_wire.h"

extern const struct osprey_proto_def quic_proto;

/* rows of quic_proto.events / .anomalies / .counters; buffer keys */
enum { QUIC_EV_TS, QUIC_EV_TC };
enum { QUIC_AE_FAILED_DECRYPT, QUIC_AE_ERROR_ON_DATA, QUIC_AE_ERROR_ON_HEADER,
       QUIC_AE_CRYPTO_FRAG_TOO_LONG };
enum { QUIC_C_PACKETS, QUIC_C_TXS, QUIC_C_DECRYPTED, QUIC_C_FAILED_DECRYPT, QUIC_C_MALFORMED,
       QUIC_C_CRYPTO_SHED, QUIC_C_TAGS_SHED };
enum quic_buf { QB_VERSION, QB_SNI, QB_UA, QB_CYU_HASH, QB_CYU_STRING, QB_JA3_HASH,
                QB_JA3_STRING, QB_JA4, QB_JA3S_HASH, QB_JA3S_STRING };

#define QUIC_CRYPTO_MAX 16384u /* bytes of a direction's CRYPTO stream reassembled (its hello;
                                  past it: quic.crypto_frag_too_long, counted) */
#define QUIC_TAGS_MAX 64u      /* gQUIC tags read per message (more: counted) */
#define QUIC_EXTS_MAX 64u      /* TLS extension types kept per hello */
#define QUIC_CID_MAX 20u       /* connection id bytes (RFC 9000: at most 20) */
#define QUIC_TEXT_MAX 1024u    /* bytes of an SNI / UA / CYU string kept */

enum quic_type { QT_INITIAL, QT_ZERO_RTT, QT_HANDSHAKE, QT_RETRY, QT_VN, QT_SHORT };

/* A packet's header as read (header.c). */
struct quic_hdr {
    uint8_t first;
    bool is_long;
    bool gquic;              /* Google QUIC Q043–Q046: its own lengths, no packet protection */
    enum quic_type type;
    uint32_t version;        /* 0: version negotiation, or a short header's none */
    uint8_t version_buf[4];
    bool has_version;
    uint8_t dcid[QUIC_CID_MAX], scid[QUIC_CID_MAX];
    uint8_t dcid_len, scid_len;
    size_t hlen;             /* bytes before the payload (IETF Initial: up to its packet
                                number; gQUIC: after packet number and message hash) */
    size_t length;           /* bytes of the payload (IETF Initial: packet number included) */
};

/* The transaction in force: one long-header packet (its header, what its frames carried). */
struct quic_tx {
    uint64_t id;
    int dir;                 /* 0 the client's */
    struct quic_hdr h;
    bool hello;              /* a TLS hello completed with this packet (the flow's tls_wire
                                has its fingerprints: JA3 / JA4 of the client's, JA3S of the
                                server's) */
    struct pbuf sni, ua;     /* gQUIC tags SNI / UAID, or the hello's server_name */
    bool has_sni, has_ua;
    bool has_cyu;            /* gQUIC CHLO: "<version>,<tag-tag-…>" and its MD5 */
    char cyu_hash[33];
    struct pbuf cyu;
    uint16_t ext[QUIC_EXTS_MAX];
    uint32_t next;
    uint32_t events;         /* QUIC_AE_* bits raised on it */
};

/* Packet protection of one direction (RFC 9001 §5): AEAD key and IV, header protection key. */
struct quic_keys {
    uint8_t key[16], iv[12], hp[16];
};

/* One direction's CRYPTO stream, from offset 0 (its hello), and whether the hello is in. */
struct quic_dir {
    uint8_t *buf;            /* QUIC_CRYPTO_MAX bytes, made with the first CRYPTO frame */
    uint8_t *have;           /* one bit per byte received */
    bool hello_done;         /* the hello was read: the rest of the direction is encrypted */
    bool too_long;           /* quic.crypto_frag_too_long was raised */
};

struct quic_state {
    struct quic_tx tx;
    uint64_t ntx;
    bool keys_set;           /* derived from the first Initial's DCID */
    struct quic_keys keys[2]; /* [0] the client's, [1] the server's */
    struct quic_dir d[2];
    struct tls_wire *tls;   /* the hellos, read by ../tls_wire (its spans: SNI, JA3 …) */
    uint16_t ext_types[QUIC_EXTS_MAX];
};

/* header.c: one packet's header from d[0..n); false when it is none (too short, a length past
 * the datagram). */
bool quic_header(const uint8_t *d, size_t n, struct quic_hdr *h);
/* The version as Suricata prints it ("Q046", "1", "6b3343cf"); out ≥ 9 bytes. */
void quic_version_text(uint32_t v, char *out, size_t len);
/* crypto.c: the Initial keys of a version from the client's first DCID (false: a version
 * without known Initial salt); a protected Initial packet p[0..hlen + length) decrypted into
 * out (its frames; *out_len bytes), the header's protection removed (false: it does not
 * authenticate). */
bool quic_initial_keys(uint32_t version, const uint8_t *dcid, size_t dcid_len,
                       struct quic_keys out[2]);
bool quic_decrypt(const struct quic_keys *k, const uint8_t *p, size_t hlen, size_t length,
                  uint8_t *out, size_t *out_len);
/* frames.c: an IETF packet's frames (CRYPTO reassembled into the direction's stream, its
 * hello read when whole); gQUIC's (STREAM frames carrying CHLO / REJ / SHLO tag messages).
 * false: a frame that does not decode. */
bool quic_frames(struct pflow *pf, struct quic_state *st, int dir, const uint8_t *d, size_t n);
bool quic_gquic_frames(struct pflow *pf, struct quic_state *st, const uint8_t *d, size_t n);
/* packet.c: the descriptor's parse_dgram, end and state_free; tx id */
void quic_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                      size_t n);
void quic_free(void *state);
uint32_t quic_tx_id(const struct pflow *pf);
/* probe.c */
enum probe_verdict quic_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c: its EVE object; Suricata's TLS extension names */
bool quic_eve(struct pflow *pf, struct osprey_jw *w);
const char *quic_ext_name(uint16_t type);
/* a QUIC variable-length integer (RFC 9000 §16); false past the end */
bool quic_varint(const uint8_t *d, size_t n, size_t *at, uint64_t *v);

#endif
