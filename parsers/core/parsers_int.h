/* parsers_int.h — what the parsers' files share: the per-flow state, byte buffers, the
 * worker, and each protocol's entry points. Internal to parsers/. */
#ifndef OSPREY_PARSERS_INT_H
#define OSPREY_PARSERS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "osprey_parsers.h"

/* ---- bounded byte buffers (bytes.c) ---- */
struct pbuf {
    uint8_t *p;
    uint32_t len, cap;
};
/* Append n bytes, never past max (0 = no limit beyond 4 GiB). Returns the bytes appended
 * (< n when the limit cut it or memory ran out). */
uint32_t pbuf_add(struct pbuf *b, const void *d, size_t n, uint32_t max);
void pbuf_consume(struct pbuf *b, uint32_t n);  /* drop n bytes from the front */
void pbuf_free(struct pbuf *b);
static inline void pbuf_reset(struct pbuf *b) { b->len = 0; }

/* A span of a pbuf: where one buffer lies in a message's copy. set=false: absent. */
struct span {
    uint32_t off, len;
    bool set;
};

/* ---- the engine-level object and the worker ---- */
struct osprey_parsers {
    struct osprey_parsers_cfg cfg;
    struct osprey_parser_events ev;
    mon_event_t app_root;   /* PKT_IN UDE: parses UDP, and is the parent of every app event */
    mon_event_t tcp_data;   /* CONN_NEW_DATA UDE: parses TCP streams */
    mon_event_t tcp_end;    /* CONN_END UDE: finishes what the end of a flow completes */
    int slot;
};

struct osprey_parsers_worker {
    const struct osprey_parsers *p;
    struct mon_ctx *ctx;
    struct mon_sock *sock;
    struct osprey_parsers_stats st;
    osprey_tx_fn tx_fn;
    void *tx_arg;
};

/* ---- per-flow state (flow.c) ---- */
struct http_state;
struct dns_state;
struct tls_state;

/* Directions: 0 = to server (received by MON_SIDE_SVR), 1 = to client. */
#define DIR_OF_SIDE(side) ((side) == MON_SIDE_SVR ? 0 : 1)
#define SIDE_OF_DIR(dir) ((dir) == 0 ? MON_SIDE_SVR : MON_SIDE_CLI)

struct pflow {
    struct osprey_parsers_worker *w;
    uint8_t proto;          /* enum osprey_app_proto */
    bool dead[2];           /* a direction given up on (gap, malformed beyond repair) */
    bool started[2];
    struct pbuf in[2];      /* bytes read but not parsed yet, per direction (bounded) */
    uint64_t off[2];        /* next stream offset to read (mon_ppeek), per direction */
    uint64_t seen[2];       /* bytes read per direction */
    struct http_state *http;
    struct dns_state *dns;
    struct tls_state *tls;
    int16_t anomaly;        /* enum osprey_app_event being raised now, -1: none */
};

struct pflow *pflow_get(struct mon_ctx *ctx, const struct mon_flow *f);
struct pflow *pflow_make(struct osprey_parsers_worker *w, struct mon_flow *f);
void pflow_free_slot(struct mon_ctx *ctx, struct mon_flow *f, void *val, void *arg);
/* Run an app event (its subtree, now) for this flow with direction dir's side. */
void pflow_run(struct pflow *pf, struct mon_flow *f, int dir, mon_event_t ev);
/* The protocol is decided: count it and run app_detected. */
void pflow_decide(struct pflow *pf, struct mon_flow *f, int dir, enum osprey_app_proto p);
void pflow_tx_done(struct pflow *pf, struct mon_flow *f, enum osprey_app_proto p);
/* An application-layer event seen in direction dir: run app_anomaly with it current. */
void pflow_anomaly(struct pflow *pf, struct mon_flow *f, int dir, enum osprey_app_event e);

/* Which protocol a buffer belongs to; HTTP: whether it is the response's. */
enum osprey_app_proto buf_proto(enum osprey_buf b);
bool buf_is_response(enum osprey_buf b);

/* ---- protocol detection (detect.c) ---- */
enum detect_verdict { DET_NEED_MORE, DET_NO, DET_YES };
enum detect_verdict detect_http_request(const uint8_t *d, size_t n);
enum detect_verdict detect_http_response(const uint8_t *d, size_t n);
enum detect_verdict detect_tls_client_hello(const uint8_t *d, size_t n);
/* DNS message sanity (header, first question decodes). tcp: with the 2-byte length. */
enum detect_verdict detect_dns(const uint8_t *d, size_t n, bool tcp);
/* Stricter, for UDP off port 53: one question, a standard query or response. */
enum detect_verdict detect_dns_strict(const uint8_t *d, size_t n);

/* ---- HTTP (http/) ---- */
void http_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void http_end(struct pflow *pf, struct mon_flow *f);
/* Bytes of direction dir were lost: abandon the message in progress, find the next head. */
void http_gap(struct pflow *pf, struct mon_flow *f, int dir);
const uint8_t *http_buffer(struct pflow *pf, enum osprey_buf b, uint32_t *len);
int http_status(const struct pflow *pf);
uint64_t http_response_wire_len(const struct pflow *pf);
uint32_t http_tx_id(const struct pflow *pf);
void http_free(struct http_state *h);

/* ---- DNS (dns/) ---- */
#define DNS_NAME_MAX 255     /* bytes of a dotted name (RFC 1035: 255 octets on the wire) */
#define DNS_MAX_POINTERS 16  /* compression pointers followed in one name: loops end here */
/* Read the (possibly compressed) name at off in msg[0..n): dotted into out (cap bytes, no
 * NUL), *next = the offset just past the name where it starts. 0, or -1 when malformed
 * (out of bounds, a bad label type, too long, too many pointers: a loop). */
int dns_name_read(const uint8_t *msg, size_t n, size_t off, uint8_t *out, uint32_t cap,
                  uint32_t *outlen, size_t *next);
/* One whole DNS message (UDP datagram, or a TCP message without its length). */
void dns_message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void dns_tcp_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
const uint8_t *dns_buffer(struct pflow *pf, enum osprey_buf b, uint32_t *len);
uint32_t dns_tx_id(const struct pflow *pf);
bool dns_info(struct pflow *pf, struct osprey_dns_info *out);
void dns_free(struct dns_state *d);

/* ---- TLS (tls/) ---- */
void tls_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
const uint8_t *tls_buffer(struct pflow *pf, enum osprey_buf b, uint32_t *len);
const uint8_t *tls_buffer_at(struct pflow *pf, enum osprey_buf b, uint32_t i, uint32_t *len);
bool tls_info(struct pflow *pf, struct osprey_tls_info *out);
void tls_free(struct tls_state *t);

#endif
