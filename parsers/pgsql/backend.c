/* backend.c — PostgreSQL's backend messages, each whole, into the transactions' items as
 * Suricata 8 reads them: the one-byte SSL answer, the authentication requests,
 * ParameterStatus, BackendKeyData, RowDescription (its field count), DataRows (counted and
 * summed, written at CommandComplete), CommandComplete, ErrorResponse / NoticeResponse (their
 * fields), ReadyForQuery (a response's end), and COPY's CopyIn- / CopyOutResponse (their
 * column counts) and COPY TO STDOUT's CopyData (counted and summed, written at CopyDone: the
 * schema's copy_data_out). Responses join the newest open transaction (resp_tx). */
#include <string.h>

#include "pgsql_int.h"

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
        int64_t l = pg_cstr(b, n, &at);
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
        pg_bad(pf, f, 1, PG_AE_INVALID_LENGTH);
        return;
    }
    uint32_t sub = rd_be32(b);
    uint32_t want = sub == 5 ? 8 : sub == 0 || sub == 3 ? 4 : 0; /* fixed sizes; 0: any */
    if (want && n != want) {
        pg_bad(pf, f, 1, PG_AE_INVALID_LENGTH);
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
        while ((l = pg_cstr(b, n, &at)) > 0)
            ;
        if (l < 0) {
            pg_bad(pf, f, 1, PG_AE_MALFORMED_RESPONSE);
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
        pg_bad(pf, f, 1, PG_AE_MALFORMED_RESPONSE);
    }
}

void pg_response(struct pflow *pf, struct mon_flow *f, uint8_t type, const uint8_t *b,
                 uint32_t n)
{
    struct pgsql_state *st = pf->state;
    if (st->phase == PG_SSL_WAIT) { /* the answer to an SSLRequest: one byte */
        struct pg_tx *tx = resp_tx(pf, f);
        if (type != 'S' && type != 'N') {
            pg_bad(pf, f, 1, PG_AE_MALFORMED_RESPONSE);
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
        pg_bad(pf, f, 1, PG_AE_INVALID_LENGTH);
        return;
    }
    if ((type == 'G' || type == 'H') && (n < 3 || n != 3u + 2u * rd_be16(b + 1))) {
        pg_bad(pf, f, 1, PG_AE_INVALID_LENGTH); /* format, columns, a format code each */
        return;
    }
    if ((type == 'c' && n != 0)) {
        pg_bad(pf, f, 1, PG_AE_INVALID_LENGTH);
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
        int64_t nl = pg_cstr(b, n, &at);
        uint32_t v = at;
        int64_t vl = nl < 0 ? -1 : pg_cstr(b, n, &at);
        if (vl < 0) {
            pg_bad(pf, f, 1, PG_AE_MALFORMED_RESPONSE);
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
                pg_bad(pf, f, 1, PG_AE_MALFORMED_RESPONSE);
                return;
            }
            int32_t l = (int32_t)rd_be32(b + at);
            at += 4;
            if (l > 0) {
                if ((uint32_t)l > n - at) {
                    pg_bad(pf, f, 1, PG_AE_INVALID_LENGTH);
                    return;
                }
                at += (uint32_t)l, size += (uint32_t)l;
            }
        }
        tx->rows++, tx->data_size += size;
        return;
    }
    case 'C': { /* CommandComplete: the rows summed before it */
        int64_t l = pg_cstr(b, n, &at);
        if (l < 0) {
            pg_bad(pf, f, 1, PG_AE_MALFORMED_RESPONSE);
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
            pg_bad(pf, f, 1, PG_AE_MALFORMED_RESPONSE);
        return;
    }
}
