/* pgsql_int.h — what the PostgreSQL parser's files share: its settings, a transaction (a
 * request and the responses it gets, as Suricata 8 groups them), the flow's state, and its own
 * numbering of events, anomalies and counters (rows of its descriptor, pgsql.c). Internal to
 * parsers/pgsql. */
#ifndef OSPREY_PGSQL_INT_H
#define OSPREY_PGSQL_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def pgsql_proto;

enum { PG_EV_REQUEST, PG_EV_RESPONSE };
enum { PG_AE_TOO_MANY_TX, PG_AE_MALFORMED_REQUEST, PG_AE_MALFORMED_RESPONSE,
       PG_AE_INVALID_LENGTH };
enum { PG_C_TX, PG_C_MALFORMED, PG_C_SKIPPED, PG_C_SHED, PG_C_UNKNOWN, PG_C_TX_SHED,
       PG_C_DEPTH, PG_C_TLS };

/* app-layer.protocols.pgsql.* (the slot pflow_cfg reads) */
struct pgsql_cfg {
    uint32_t max_tx;        /* open transactions per flow; past it the oldest is finished */
    uint32_t stream_depth;  /* bytes parsed per direction, 0: all (Suricata's default) */
};

#define PG_MSG_MAX (1u << 20)   /* a message read whole; a longer one is skipped (counted) */
#define PG_ITEMS_MAX (1u << 18) /* what a transaction keeps per side for EVE and pgsql.query */
#define PG_FLOW_KEEP_MAX (1u << 22) /* what all of a flow's open transactions keep together */

/* What a transaction keeps of each side, in order, for its EVE object: items
 * [kind][key length][key][value length (4, big-endian)][value]. */
enum pg_item { PI_STR, PI_INT, PI_BOOL, PI_PARAM /* value "name\0value": an array of
                objects under key */, PI_OPEN /* an object named key */, PI_CLOSE };

struct pg_tx {
    uint64_t id;             /* from 1, as Suricata's pgsql tx_id */
    struct pbuf req, resp;   /* items (enum pg_item) */
    uint32_t query_off, query_len; /* pgsql.query: the simple query's text in req */
    bool has_req, has_query, req_done, resp_done;
    uint64_t rows, data_size; /* DataRows of the response, summed at CommandComplete */
    uint64_t copy_in_msgs, copy_in_size;   /* the client's CopyData (COPY FROM STDIN) */
    uint64_t copy_out_rows, copy_out_size; /* the server's CopyData (COPY TO STDOUT) */
};

/* Where the conversation is (what the next message of either side is read as). */
enum pg_phase { PG_STARTUP /* the client's untyped messages (startup, SSL, cancel) */,
                PG_SSL_WAIT /* an SSLRequest sent: the server answers one byte */,
                PG_AUTH_PASSWORD, PG_AUTH_SASL, PG_AUTH_SASL_CONTINUE, PG_READY };

struct pgsql_state {
    enum pg_phase phase;
    struct pg_tx **open;     /* open transactions, oldest first */
    uint32_t nopen, cap;
    struct pg_tx *cur;       /* the transaction rules and EVE read now */
    struct pg_tx *last_done; /* the last response completed in this chunk: more responses in
                                the same chunk join it (Suricata logs after the chunk) */
    uint64_t next_id;
    uint32_t skip[2];        /* bytes of an over-long message still to pass */
    uint8_t skip_type[2];
    uint64_t bytes[2];       /* bytes parsed per direction (stream-depth) */
    uint32_t kept;           /* item bytes the open transactions hold (PG_FLOW_KEEP_MAX) */
    bool to_tls;             /* the server accepted SSL: the flow becomes TLS */
    bool gap[2];             /* bytes of that side were lost: wait for a whole message */
};

/* stream.c */
void pgsql_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void pgsql_gap(struct pflow *pf, struct mon_flow *f, int dir);
void pgsql_end(struct pflow *pf, struct mon_flow *f);
void pgsql_free(void *state);
/* messages.c: a NUL-terminated string at *at in b[0..n) (its length, *at moved past the NUL;
 * -1: none); a message that does not read (counted, anomaly ae, the side given up) */
int64_t pg_cstr(const uint8_t *b, uint32_t n, uint32_t *at);
void pg_bad(struct pflow *pf, struct mon_flow *f, int dir, unsigned ae);
/* frontend.c, backend.c: one whole message of the client (type 0: untyped) or the server */
void pg_request(struct pflow *pf, struct mon_flow *f, uint8_t type, const uint8_t *b,
                uint32_t n);
void pg_response(struct pflow *pf, struct mon_flow *f, uint8_t type, const uint8_t *b,
                 uint32_t n);
/* tx.c */
struct pg_tx *pg_tx_new(struct pflow *pf, struct mon_flow *f);
void pg_tx_finish(struct pflow *pf, struct mon_flow *f, struct pg_tx *tx);
void pg_tx_free(struct pg_tx *tx);
void pg_item(struct pflow *pf, struct pbuf *b, enum pg_item kind, const char *key,
             const void *v, size_t n);
void pg_item_int(struct pflow *pf, struct pbuf *b, const char *key, uint64_t v);
/* probe.c */
enum probe_verdict pgsql_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool pgsql_eve(struct pflow *pf, struct osprey_jw *w);

#endif
