/* bt_int.h — what the BitTorrent DHT parser's files share: the bounded bencode reader
 * (bencode.c), a decoded KRPC message (one transaction per datagram, as Suricata makes one),
 * the flow's state, and its own numbering of events, anomalies and counters (rows of its
 * descriptor, bittorrent_dht.c). Internal to parsers/bittorrent_dht. */
#ifndef OSPREY_BT_INT_H
#define OSPREY_BT_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def bittorrent_dht_proto;

enum { BT_EV_TS, BT_EV_TC };
enum { BT_AE_MALFORMED };
enum { BT_C_TX, BT_C_MALFORMED, BT_C_TOO_DEEP, BT_C_SHED };

/* ---- bencode.c: a reader over one datagram, nothing copied ---- */
/* Nesting deeper than this is an error (Suricata decodes with a depth of 3: the message's
 * dictionary, a response's dictionary, its `values` list). */
#define BENC_MAX_DEPTH 3
enum benc_type { BENC_ERR, BENC_INT, BENC_STR, BENC_LIST, BENC_DICT, BENC_END };
struct benc {
    const uint8_t *p;
    size_t n, off;
    unsigned depth;
    bool too_deep;         /* the error was nesting past BENC_MAX_DEPTH */
};
struct benc_val {
    enum benc_type t;
    const uint8_t *s;      /* BENC_STR: its bytes (inside the datagram) */
    size_t len;
    int64_t i;             /* BENC_INT */
};
void benc_init(struct benc *b, const uint8_t *p, size_t n);
/* The next value: an integer or string whole; a list / dictionary opened (read its items
 * with benc_next until BENC_END); BENC_ERR on anything malformed or truncated. */
enum benc_type benc_next(struct benc *b, struct benc_val *v);
/* Skip the rest of the list / dictionary just opened (true), or false on an error. */
bool benc_skip(struct benc *b);

/* ---- a KRPC message (BEP 5) ---- */
#define BT_BYTES_MAX 64    /* ids, tokens, transaction ids, versions kept (longer: cut, counted) */
#define BT_NODES_MAX 32    /* nodes / nodes6 / values kept per response (more: counted) */
#define BT_MSG_MAX 256     /* an error's message kept */
struct bt_bytes { uint8_t b[BT_BYTES_MAX]; uint8_t len; bool set; };
struct bt_node { uint8_t id[20]; uint8_t ip[16]; uint8_t iplen; uint16_t port; };
struct bt_msg {
    char y;                            /* 'q', 'r' or 'e' */
    struct bt_bytes t, v, q;           /* transaction id, client version, query type */
    /* a query's arguments */
    struct bt_bytes a_id, target, info_hash, a_token;
    bool has_implied_port, has_port;
    uint8_t implied_port;
    uint16_t port;
    bool has_a, has_r, has_e;
    /* a response */
    struct bt_bytes r_id, r_token;
    struct bt_node nodes[BT_NODES_MAX], nodes6[BT_NODES_MAX], values[BT_NODES_MAX];
    uint8_t nnodes, nnodes6, nvalues;
    /* an error */
    uint16_t e_num;
    char e_msg[BT_MSG_MAX];
    uint16_t e_len;
    uint32_t shed;                     /* bytes or elements not kept (BT_*_MAX) */
};
/* Does the datagram start like a DHT message (Suricata's prefixes)? */
bool bt_is_dht(const uint8_t *d, size_t n);
/* Decode one message into m: false when it is malformed (*too_deep: by nesting). */
bool bt_decode(struct bt_msg *m, const uint8_t *d, size_t n, bool *too_deep);

struct bt_state {
    struct bt_msg cur;                 /* the latest message: EVE reads it */
    bool has_cur;
    uint64_t next_id;
    uint64_t cur_id;
};

/* probe.c */
enum probe_verdict bt_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool bt_eve(struct pflow *pf, struct osprey_jw *w);

#endif
