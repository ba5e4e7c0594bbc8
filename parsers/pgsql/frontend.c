/* frontend.c — PostgreSQL's frontend messages (protocol 3.0), each whole, into the
 * transactions' items as Suricata 8 reads them: the startup packet (protocol version, user
 * and parameters), SSLRequest, CancelRequest, a simple query ('Q'), passwords and SASL
 * messages by the authentication the server asked for, Terminate, and COPY FROM STDIN's
 * CopyData (counted and summed into the query's transaction, written at CopyDone / CopyFail:
 * the schema's copy_data_in). A message whose content does not read is malformed (the side is
 * given up, as Suricata's parser error); one whose length cannot be its type's is
 * pgsql.invalid_length. The extended query's messages (Parse, Bind, Execute …) and other
 * types are counted, not read: Suricata 8 reads none of them. */
#include <stdio.h>
#include <string.h>

#include "pgsql_int.h"

#define SSL_REQUEST 80877103u
#define CANCEL_REQUEST 80877102u

/* the transaction a request starts */
static struct pg_tx *req_tx(struct pflow *pf, struct mon_flow *f)
{
    struct pgsql_state *st = pf->state;
    st->last_done = NULL;
    struct pg_tx *tx = pg_tx_new(pf, f);
    if (tx)
        tx->has_req = true;
    return tx;
}

/* the request is complete: its event runs; without an answer to come it is finished */
static void req_done(struct pflow *pf, struct mon_flow *f, struct pg_tx *tx, bool no_answer)
{
    struct pgsql_state *st = pf->state;
    tx->req_done = true;
    st->cur = tx;
    pflow_raise(pf, f, 0, PG_EV_REQUEST);
    st->cur = NULL;
    if (no_answer)
        pg_tx_finish(pf, f, tx);
}

static void startup(struct pflow *pf, struct mon_flow *f, const uint8_t *b, uint32_t n)
{
    struct pgsql_state *st = pf->state;
    uint32_t code = rd_be32(b);
    if (code == SSL_REQUEST || code == CANCEL_REQUEST) {
        if (n != (code == SSL_REQUEST ? 4u : 12u)) {
            pg_bad(pf, f, 0, PG_AE_INVALID_LENGTH);
            return;
        }
        struct pg_tx *tx = req_tx(pf, f);
        if (!tx)
            return;
        if (code == SSL_REQUEST) {
            pg_item(pf, &tx->req, PI_STR, "message", "SSL Request", 11);
            st->phase = PG_SSL_WAIT;
            req_done(pf, f, tx, false);
            return;
        }
        pg_item(pf, &tx->req, PI_STR, "message", "cancel_request", 14);
        pg_item_int(pf, &tx->req, "process_id", rd_be32(b + 4));
        pg_item_int(pf, &tx->req, "secret_key", rd_be32(b + 8));
        req_done(pf, f, tx, true); /* the server answers none: the connection closes */
        return;
    }
    if (code >> 16 != 3) { /* only protocol 3.x is read (GSSENCRequest, 2.0: not) */
        pg_bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
        return;
    }
    /* parameters: name and value strings until an empty name; user is mandatory */
    uint32_t at = 4, user_at = 0;
    int64_t user_len = -1;
    for (;;) {
        uint32_t name_at = at;
        int64_t nl = pg_cstr(b, n, &at);
        if (nl < 0) {
            pg_bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
            return;
        }
        if (nl == 0)
            break;
        uint32_t v_at = at;
        int64_t vl = pg_cstr(b, n, &at);
        if (vl < 0) {
            pg_bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
            return;
        }
        if (nl == 4 && !memcmp(b + name_at, "user", 4))
            user_at = v_at, user_len = vl;
    }
    if (user_len < 0) {
        pg_bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
        return;
    }
    struct pg_tx *tx = req_tx(pf, f);
    if (!tx)
        return;
    char ver[16];
    int vl = snprintf(ver, sizeof ver, "%u.%u", code >> 16, code & 0xffff);
    pg_item(pf, &tx->req, PI_STR, "protocol_version", ver, (size_t)vl);
    pg_item(pf, &tx->req, PI_OPEN, "startup_parameters", NULL, 0);
    pg_item(pf, &tx->req, PI_STR, "user", b + user_at, (size_t)user_len);
    at = 4;
    for (;;) { /* the others, as sent (they read: checked above) */
        uint32_t name_at = at;
        int64_t nl = pg_cstr(b, n, &at);
        if (nl <= 0)
            break;
        uint32_t v_at = at;
        int64_t vlen = pg_cstr(b, n, &at);
        if (nl == 4 && !memcmp(b + name_at, "user", 4))
            continue;
        /* "name\0value" */
        uint8_t kv[512];
        size_t kn = (size_t)nl < 255 ? (size_t)nl : 255, vn = (size_t)vlen < 255 ? (size_t)vlen : 255;
        memcpy(kv, b + name_at, kn);
        kv[kn] = 0;
        memcpy(kv + kn + 1, b + v_at, vn);
        pg_item(pf, &tx->req, PI_PARAM, "optional_parameters", kv, kn + 1 + vn);
    }
    pg_item(pf, &tx->req, PI_CLOSE, "", NULL, 0);
    st->phase = PG_READY;
    req_done(pf, f, tx, false);
}

void pg_request(struct pflow *pf, struct mon_flow *f, uint8_t type, const uint8_t *b,
                uint32_t n)
{
    struct pgsql_state *st = pf->state;
    if (type == 0) {
        startup(pf, f, b, n);
        return;
    }
    struct pg_tx *tx;
    uint32_t at = 0;
    int64_t l;
    switch (type) {
    case 'Q': /* simple query: one string */
        if ((l = pg_cstr(b, n, &at)) < 0) {
            pg_bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
            return;
        }
        if (!(tx = req_tx(pf, f)))
            return;
        tx->query_off = tx->req.len + 2 + 12 + 4; /* where the item's value will be */
        pg_item(pf, &tx->req, PI_STR, "simple_query", b, (size_t)l);
        tx->has_query = tx->req.len >= tx->query_off + (uint32_t)l;
        tx->query_len = (uint32_t)l;
        req_done(pf, f, tx, false);
        return;
    case 'X': /* Terminate: no answer */
        if (n != 0) {
            pg_bad(pf, f, 0, PG_AE_INVALID_LENGTH);
            return;
        }
        if (!(tx = req_tx(pf, f)))
            return;
        pg_item(pf, &tx->req, PI_STR, "message", "terminate_message", 17);
        req_done(pf, f, tx, true);
        return;
    case 'p': /* what it holds depends on the authentication the server asked for */
        if (!(tx = req_tx(pf, f)))
            return;
        if (st->phase == PG_AUTH_SASL) { /* SASLInitialResponse: mechanism, length, data */
            int64_t ml = pg_cstr(b, n, &at);
            if (ml < 0 || at + 4 > n) {
                pg_bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
                return;
            }
            int32_t dl = (int32_t)rd_be32(b + at);
            at += 4;
            if (dl > 0 && (uint32_t)dl > n - at) {
                pg_bad(pf, f, 0, PG_AE_INVALID_LENGTH);
                return;
            }
            pg_item(pf, &tx->req, PI_STR, "sasl_authentication_mechanism", b, (size_t)ml);
            pg_item(pf, &tx->req, PI_STR, "sasl_param", b + at, dl > 0 ? (size_t)dl : 0);
        } else if (st->phase == PG_AUTH_SASL_CONTINUE) {
            pg_item(pf, &tx->req, PI_STR, "sasl_response", b, n);
        } else { /* a password (cleartext or MD5): not written, as Suricata by default */
            if (pg_cstr(b, n, &at) < 0) {
                pg_bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
                return;
            }
            pg_item(pf, &tx->req, PI_BOOL, "password_redacted", "\1", 1);
        }
        req_done(pf, f, tx, false);
        return;
    case 'd': /* CopyData of COPY FROM STDIN: the query's transaction counts it */
    case 'c': /* CopyDone */
    case 'f': /* CopyFail: an error message */
        tx = st->nopen ? st->open[st->nopen - 1] : NULL;
        if (!tx) {
            pflow_count(pf, PG_C_UNKNOWN, 1);
            return;
        }
        if (type == 'd') {
            tx->copy_in_msgs++, tx->copy_in_size += n;
            return;
        }
        if (type == 'f' && pg_cstr(b, n, &at) < 0) {
            pg_bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
            return;
        }
        if (type == 'c' && n != 0) {
            pg_bad(pf, f, 0, PG_AE_INVALID_LENGTH);
            return;
        }
        pg_item(pf, &tx->req, PI_OPEN, "copy_data_in", NULL, 0);
        pg_item_int(pf, &tx->req, "data_size", tx->copy_in_size);
        pg_item_int(pf, &tx->req, "msg_count", tx->copy_in_msgs);
        pg_item(pf, &tx->req, PI_CLOSE, "", NULL, 0);
        tx->copy_in_msgs = tx->copy_in_size = 0;
        return;
    default:
        pflow_count(pf, PG_C_UNKNOWN, 1);
        return;
    }
}
