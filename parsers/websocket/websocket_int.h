/* websocket_int.h — what the WebSocket parser's files share: its settings, its state (one
 * frame reader and one message per direction) and its own numbering of events, buffers,
 * fields, anomalies and counters (rows of its descriptor, websocket.c). Internal to
 * parsers/websocket. */
#ifndef OSPREY_WEBSOCKET_INT_H
#define OSPREY_WEBSOCKET_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def websocket_proto;

/* rows of websocket_proto.events / .counters / .anomalies; buffer and field keys */
enum { WS_EV_FRAME_TO_SERVER, WS_EV_FRAME_TO_CLIENT };
enum {
    WS_C_FRAMES,          /* frames read (each one a transaction) */
    WS_C_PAYLOAD_SHED,    /* payload bytes past max-payload-size, not kept */
    WS_C_INFLATE_FAILED,  /* compressed messages that did not inflate */
    WS_C_INFLATE_SHED,    /* inflated bytes past max-payload-size, not kept */
};
enum { WS_AE_SKIP_END_OF_PAYLOAD, WS_AE_REASSEMBLY_LIMIT_REACHED };
enum { WSB_PAYLOAD };
enum { WSF_OPCODE, WSF_MASK, WSF_FLAGS };

/* the first header byte's bits (RFC 6455 §5.2; RSV1 is permessage-deflate's, RFC 7692) */
#define WS_FIN 0x80
#define WS_RSV1 0x40
#define WS_OPCODE_MASK 0x0f
#define WS_OP_CONTINUATION 0

/* settings: app-layer.protocols.websocket.max-payload-size (Suricata's key and default) */
struct websocket_cfg {
    uint32_t max_payload;
};
#define WS_MAX_PAYLOAD_DEFAULT 0xffff

/* The frame being read in one direction. */
struct ws_reader {
    uint8_t hdr[14];          /* the header so far (2 to 14 bytes) */
    uint8_t hlen;
    bool in_payload;          /* the header is complete: payload bytes come */
    uint64_t len, got;        /* the payload's length, bytes of it read */
    uint8_t key[4];
    bool masked;
    bool shed;                /* payload bytes past the limit were skipped */
    struct pbuf payload;      /* this frame's unmasked payload, at most max_payload kept */
};

/* A data message being assembled from its fragments (a FIN-less text / binary frame and the
 * continuations after it; control frames may come between them, RFC 6455 §5.4). */
struct ws_message {
    bool open;                /* a fragment without FIN came */
    bool compressed;          /* its first frame had RSV1 (permessage-deflate) */
    uint8_t opcode;
    struct pbuf data;         /* its payload so far (still compressed), at most max_payload */
    bool cut;                 /* bytes were dropped at the limit */
};

/* The last frame read in one direction: what the buffers, fields and EVE record show. */
struct ws_pdu {
    bool set;
    uint8_t flags;            /* the first header byte's four upper bits */
    uint8_t opcode;
    bool masked;
    uint32_t mask;            /* the key, big-endian, when masked */
    struct pbuf payload;      /* unmasked; a message's last frame: the whole message, inflated */
};

struct ws_side {
    struct ws_reader rd;
    struct ws_message msg;
    struct ws_pdu pdu;
    void *z;                  /* permessage-deflate's inflater (z_stream), made on first use:
                                 the window carries over messages (context takeover) */
    bool z_failed;
};

struct websocket_state {
    struct ws_side side[2];   /* by direction: 0 the client's, 1 the server's */
    int cur;                  /* the direction of the frame in force (the transaction) */
    uint32_t frames;          /* transactions so far (the tx id is frames - 1) */
};

/* frames.c */
void websocket_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void websocket_free(void *state);
/* inflate.c: inflate one complete message's n bytes in d (a raw deflate stream continuing
 * the direction's window) into out, at most max bytes kept; *cut when more came out. False
 * when the stream is broken (the inflater is then given up). */
bool ws_inflate(struct ws_side *s, const uint8_t *d, size_t n, struct pbuf *out, uint32_t max,
                bool *cut);
void ws_inflate_free(struct ws_side *s);
/* eve.c: its EVE object */
bool websocket_eve(struct pflow *pf, struct osprey_jw *w);
/* Suricata's name of an opcode, NULL for one it does not name */
const char *ws_opcode_name(uint8_t op);

#endif
