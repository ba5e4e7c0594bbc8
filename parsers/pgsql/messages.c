/* messages.c — PostgreSQL's frontend and backend messages (protocol 3.0), each whole, into
 * the transactions' items as Suricata 8 reads them: the startup packet (protocol version,
 * user and parameters), SSLRequest and the one-byte answer, CancelRequest, a simple query
 * ('Q'), passwords and SASL messages by the authentication asked, Terminate; the
 * authentication requests, ParameterStatus, BackendKeyData, RowDescription (its field count),
 * DataRows (counted and summed, written at CommandComplete), CommandComplete, ErrorResponse and
 * NoticeResponse (their fields), ReadyForQuery (a response's end), and COPY's: CopyIn- /
 * CopyOutResponse (their column counts), the CopyData of either side counted and summed,
 * written at CopyDone / CopyFail (the schema's copy_data_in / copy_data_out, in the query's
 * transaction). A message whose content
 * does not read is malformed (the side is given up, as Suricata's parser error); one whose
 * length cannot be its type's is pgsql.invalid_length. The extended query's messages (Parse,
 * Bind, Execute …) and other types are counted, not read: Suricata 8 reads none of them. */
#include <string.h>

#include "pgsql_int.h"

#define SSL_REQUEST 80877103u
#define CANCEL_REQUEST 80877102u

/* a NUL-terminated string at *at in b[0..n): its length, *at moved past the NUL; -1 none */
static int64_t cstr(const uint8_t *b, uint32_t n, uint32_t *at)
{
    const uint8_t *z = *at < n ? memchr(b + *at, 0, n - *at) : NULL;
    if (!z)
        return -1;
    int64_t l = z - (b + *at);
    *at += (uint32_t)l + 1;
    return l;
}

static void bad(struct pflow *pf, struct mon_flow *f, int dir, unsigned ae)
{
    pflow_count(pf, PG_C_MALFORMED, 1);
    pflow_anomaly(pf, f, dir, ae);
    pf->dead[dir] = true;
}

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
            bad(pf, f, 0, PG_AE_INVALID_LENGTH);
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
        bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
        return;
    }
    /* parameters: name and value strings until an empty name; user is mandatory */
    uint32_t at = 4, user_at = 0;
    int64_t user_len = -1;
    for (;;) {
        uint32_t name_at = at;
        int64_t nl = cstr(b, n, &at);
        if (nl < 0) {
            bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
            return;
        }
        if (nl == 0)
            break;
        uint32_t v_at = at;
        int64_t vl = cstr(b, n, &at);
        if (vl < 0) {
            bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
            return;
        }
        if (nl == 4 && !memcmp(b + name_at, "user", 4))
            user_at = v_at, user_len = vl;
    }
    if (user_len < 0) {
        bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
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
        int64_t nl = cstr(b, n, &at);
        if (nl <= 0)
            break;
        uint32_t v_at = at;
        int64_t vlen = cstr(b, n, &at);
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
        if ((l = cstr(b, n, &at)) < 0) {
            bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
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
            bad(pf, f, 0, PG_AE_INVALID_LENGTH);
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
            int64_t ml = cstr(b, n, &at);
            if (ml < 0 || at + 4 > n) {
                bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
                return;
            }
            int32_t dl = (int32_t)rd_be32(b + at);
            at += 4;
            if (dl > 0 && (uint32_t)dl > n - at) {
                bad(pf, f, 0, PG_AE_INVALID_LENGTH);
                return;
            }
            pg_item(pf, &tx->req, PI_STR, "sasl_authentication_mechanism", b, (size_t)ml);
            pg_item(pf, &tx->req, PI_STR, "sasl_param", b + at, dl > 0 ? (size_t)dl : 0);
        } else if (st->phase == PG_AUTH_SASL_CONTINUE) {
            pg_item(pf, &tx->req, PI_STR, "sasl_response", b, n);
        } else { /* a password (cleartext or MD5): not written, as Suricata by default */
            if (cstr(b, n, &at) < 0) {
                bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
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
        if (type == 'f' && cstr(b, n, &at) < 0) {
            bad(pf, f, 0, PG_AE_MALFORMED_REQUEST);
            return;
        }
        if (type == 'c' && n != 0) {
            bad(pf, f, 0, PG_AE_INVALID_LENGTH);
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

/* ---- the server's messages ---- */

/* the transaction a response belongs to: the newest open one, the one completed earlier in
 * this chunk, or (the first response of the flow) a new one */
static struct pg_tx *resp_tx(struct pflow *pf, struct mon_flow *f)
{
    struct pgsql_state *st = pf->state;
    if (st->last_done)
        return st->last_done;
    for (uint32_t i = st->nopen; i-- > 0;)
        if (!st->open[i]->resp_done)
            return st->open[i];
    if (st->next_id == 0)
        return pg_tx_new(pf, f);
    pflow_count(pf, PG_C_UNKNOWN, 1); /* a response to nothing open: not kept */
    return NULL;
}

static void resp_done(struct pflow *pf, struct pg_tx *tx)
{
    struct pgsql_state *st = pf->state;
    tx->resp_done = true;
    st->last_done = tx;
}

/* ErrorResponse / NoticeResponse fields: the ones Suricata's EVE schema names */
static bool fields(struct pflow *pf, struct pg_tx *tx, const uint8_t *b, uint32_t n)
{
    static const struct { char t; const char *key; } F[] = {
        {'S', "severity_localizable"}, {'V', "severity_non_localizable"}, {'C', "code"},
        {'M', "message"}, {'F', "file"}, {'L', "line"}, {'R', "routine"}};
    uint32_t at = 0;
    while (at < n && b[at]) {
        char t = (char)b[at++];
        uint32_t v = at;
        int64_t l = cstr(b, n, &at);
        if (l < 0)
            return false;
        for (size_t i = 0; i < PROTO_N(F); i++)
            if (F[i].t == t && tx)
                pg_item(pf, &tx->resp, PI_STR, F[i].key, b + v, (size_t)l);
    }
    return at < n; /* the terminating zero */
}

static void auth(struct pflow *pf, struct mon_flow *f, struct pg_tx *tx, const uint8_t *b,
                 uint32_t n)
{
    struct pgsql_state *st = pf->state;
    if (n < 4) {
        bad(pf, f, 1, PG_AE_INVALID_LENGTH);
        return;
    }
    uint32_t sub = rd_be32(b);
    uint32_t want = sub == 5 ? 8 : sub == 0 || sub == 3 ? 4 : 0; /* fixed sizes; 0: any */
    if (want && n != want) {
        bad(pf, f, 1, PG_AE_INVALID_LENGTH);
        return;
    }
    switch (sub) {
    case 0:
        pg_item(pf, &tx->resp, PI_STR, "message", "authentication_ok", 17);
        st->phase = PG_READY;
        return;
    case 3:
    case 5:
        if (sub == 3)
            pg_item(pf, &tx->resp, PI_STR, "message", "authentication_cleartext_password", 33);
        else
            pg_item(pf, &tx->resp, PI_STR, "authentication_md5_password", b + 4, 4);
        st->phase = PG_AUTH_PASSWORD;
        resp_done(pf, tx);
        return;
    case 10: { /* SASL: the mechanisms, each a string, then an empty one */
        uint32_t at = 4;
        int64_t l;
        while ((l = cstr(b, n, &at)) > 0)
            ;
        if (l < 0) {
            bad(pf, f, 1, PG_AE_MALFORMED_RESPONSE);
            return;
        }
        pg_item(pf, &tx->resp, PI_STR, "message", "authentication_sasl", 19);
        st->phase = PG_AUTH_SASL;
        resp_done(pf, tx);
        return;
    }
    case 11:
        pg_item(pf, &tx->resp, PI_STR, "message", "authentication_sasl_continue", 28);
        st->phase = PG_AUTH_SASL_CONTINUE;
        resp_done(pf, tx);
        return;
    case 12:
        pg_item(pf, &tx->resp, PI_STR, "authentication_sasl_final", b + 4, n - 4);
        resp_done(pf, tx);
        return;
    case 2: case 6: case 7: case 8: case 9: /* Kerberos, SCM, GSS, SSPI: not read on */
        pflow_count(pf, PG_C_UNKNOWN, 1);
        return;
    default:
        bad(pf, f, 1, PG_AE_MALFORMED_RESPONSE);
    }
}

void pg_response(struct pflow *pf, struct mon_flow *f, uint8_t type, const uint8_t *b,
                 uint32_t n)
{
    struct pgsql_state *st = pf->state;
    if (st->phase == PG_SSL_WAIT) { /* the answer to an SSLRequest: one byte */
        struct pg_tx *tx = resp_tx(pf, f);
        if (type != 'S' && type != 'N') {
            bad(pf, f, 1, PG_AE_MALFORMED_RESPONSE);
            return;
        }
        if (tx) {
            pg_item(pf, &tx->resp, PI_BOOL, "ssl_accepted", type == 'S' ? "\1" : "\0", 1);
            resp_done(pf, tx);
        }
        st->phase = PG_STARTUP;
        st->to_tls = type == 'S';
        return;
    }
    /* fixed lengths (the body's) of the types that have one */
    if ((type == 'K' && n != 8) || (type == 'Z' && n != 1) || (type == 'T' && n < 2) ||
        (type == 'D' && n < 2)) {
        bad(pf, f, 1, PG_AE_INVALID_LENGTH);
        return;
    }
    if ((type == 'G' || type == 'H') && (n < 3 || n != 3u + 2u * rd_be16(b + 1))) {
        bad(pf, f, 1, PG_AE_INVALID_LENGTH); /* format, columns, a format code each */
        return;
    }
    if ((type == 'c' && n != 0)) {
        bad(pf, f, 1, PG_AE_INVALID_LENGTH);
        return;
    }
    if (!strchr("RSKZTDCENGHdc", type) || !type) {
        pflow_count(pf, PG_C_UNKNOWN, 1);
        return;
    }
    struct pg_tx *tx = resp_tx(pf, f);
    if (!tx)
        return;
    uint32_t at = 0;
    switch (type) {
    case 'R':
        auth(pf, f, tx, b, n);
        return;
    case 'S': { /* ParameterStatus: name, value */
        int64_t nl = cstr(b, n, &at);
        uint32_t v = at;
        int64_t vl = nl < 0 ? -1 : cstr(b, n, &at);
        if (vl < 0) {
            bad(pf, f, 1, PG_AE_MALFORMED_RESPONSE);
            return;
        }
        uint8_t kv[512];
        size_t kn = (size_t)nl < 255 ? (size_t)nl : 255, vn = (size_t)vl < 255 ? (size_t)vl : 255;
        memcpy(kv, b, kn);
        kv[kn] = 0;
        memcpy(kv + kn + 1, b + v, vn);
        pg_item(pf, &tx->resp, PI_PARAM, "parameter_status", kv, kn + 1 + vn);
        return;
    }
    case 'K':
        pg_item_int(pf, &tx->resp, "process_id", rd_be32(b));
        pg_item_int(pf, &tx->resp, "secret_key", rd_be32(b + 4));
        return;
    case 'Z':
        resp_done(pf, tx);
        st->phase = PG_READY;
        return;
    case 'T':
        pg_item_int(pf, &tx->resp, "field_count", rd_be16(b));
        return;
    case 'D': { /* DataRow: counted; its size is the sum of its columns' values */
        uint32_t cols = rd_be16(b);
        at = 2;
        uint64_t size = 0;
        for (uint32_t c = 0; c < cols; c++) {
            if (at + 4 > n) {
                bad(pf, f, 1, PG_AE_MALFORMED_RESPONSE);
                return;
            }
            int32_t l = (int32_t)rd_be32(b + at);
            at += 4;
            if (l > 0) {
                if ((uint32_t)l > n - at) {
                    bad(pf, f, 1, PG_AE_INVALID_LENGTH);
                    return;
                }
                at += (uint32_t)l, size += (uint32_t)l;
            }
        }
        tx->rows++, tx->data_size += size;
        return;
    }
    case 'C': { /* CommandComplete: the rows summed before it */
        int64_t l = cstr(b, n, &at);
        if (l < 0) {
            bad(pf, f, 1, PG_AE_MALFORMED_RESPONSE);
            return;
        }
        if (tx->rows) {
            pg_item_int(pf, &tx->resp, "data_rows", tx->rows);
            pg_item_int(pf, &tx->resp, "data_size", tx->data_size);
            tx->rows = tx->data_size = 0;
        }
        pg_item(pf, &tx->resp, PI_STR, "command_completed", b, (size_t)l);
        return;
    }
    case 'G': /* CopyInResponse / CopyOutResponse: the columns the copy has */
    case 'H':
        pg_item(pf, &tx->resp, PI_OPEN, type == 'G' ? "copy_in_response" : "copy_out_response",
                NULL, 0);
        pg_item_int(pf, &tx->resp, "columns", rd_be16(b + 1));
        pg_item(pf, &tx->resp, PI_CLOSE, "", NULL, 0);
        return;
    case 'd': /* CopyData of COPY TO STDOUT: a row each, as servers send them */
        tx->copy_out_rows++, tx->copy_out_size += n;
        return;
    case 'c':
        pg_item(pf, &tx->resp, PI_OPEN, "copy_data_out", NULL, 0);
        pg_item_int(pf, &tx->resp, "data_size", tx->copy_out_size);
        pg_item_int(pf, &tx->resp, "row_count", tx->copy_out_rows);
        pg_item(pf, &tx->resp, PI_CLOSE, "", NULL, 0);
        tx->copy_out_rows = tx->copy_out_size = 0;
        return;
    case 'E':
    case 'N':
        if (!fields(pf, tx, b, n))
            bad(pf, f, 1, PG_AE_MALFORMED_RESPONSE);
        return;
    }
}
