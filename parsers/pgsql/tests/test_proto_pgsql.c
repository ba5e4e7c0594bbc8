/* test_proto_pgsql.c — PostgreSQL's descriptor, bytes in, buffers out: a startup, MD5 login
 * and a query split byte by byte (pgsql.query, transactions, the EVE objects with rows
 * counted), an SSLRequest refused, max-tx finishing the oldest, invalid lengths and
 * malformed messages giving the side up, an over-long DataRow skipped, stream-depth, what
 * open transactions keep bounded per flow, the probe, a gap (the side read again from a chunk
 * that starts with a whole message of a type it sends). */
#include <stdlib.h>

#include "osprey_json_writer.h"
#include "pgsql_int.h"
#include "proto_harness.h"
#include "unit.h"

static size_t msg(uint8_t *out, char t, const void *body, size_t n)
{
    out[0] = (uint8_t)t;
    uint32_t l = (uint32_t)n + 4;
    out[1] = (uint8_t)(l >> 24), out[2] = (uint8_t)(l >> 16), out[3] = (uint8_t)(l >> 8);
    out[4] = (uint8_t)l;
    memcpy(out + 5, body, n);
    return n + 5;
}

static size_t startup(uint8_t *out)
{
    static const char params[] = "user\0bob\0database\0db\0";
    uint32_t l = 4 + 4 + sizeof params; /* the final empty name: params' own NUL */
    uint8_t h[8] = {(uint8_t)(l >> 24), (uint8_t)(l >> 16), (uint8_t)(l >> 8), (uint8_t)l,
                    0, 3, 0, 0};
    memcpy(out, h, 8);
    memcpy(out + 8, params, sizeof params);
    return l;
}

/* the EVE object of the transaction being finished: kept by a tx callback */
static char *last_eve;
static void on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    (void)ctx, (void)f, (void)p;
    struct ph *h = arg;
    h->txs++;
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    CHECK(pgsql_eve(&h->pf, &w));
    free(last_eve);
    last_eve = osprey_jw_finish(&w);
    if (last_eve && *last_eve)
        last_eve[strlen(last_eve) - 1] = 0;
}

static void init(struct ph *h)
{
    ph_init(h, "pgsql", 6, 40000, 5432);
    h->w.tx_fn = on_tx;
    h->w.tx_arg = h;
}

static void feed_bytewise(struct ph *h, int dir, const uint8_t *d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ph_feed(h, dir, d + i, 1);
}

static void session(void)
{
    struct ph h;
    init(&h);
    uint8_t b[512];
    size_t n = startup(b);
    feed_bytewise(&h, 0, b, n);
    CHECK(h.txs == 0);
    n = msg(b, 'R', "\0\0\0\5salt", 8);
    ph_feed(&h, 1, b, n);
    CHECK(h.txs == 1 && last_eve &&
          !strcmp(last_eve, "{\"pgsql\":{\"tx_id\":1,\"request\":{\"protocol_version\":\"3.0\","
                            "\"startup_parameters\":{\"user\":\"bob\",\"optional_parameters\":"
                            "[{\"database\":\"db\"}]}},\"response\":"
                            "{\"authentication_md5_password\":\"salt\"}}}"));
    n = msg(b, 'p', "md5abc", 7);
    ph_feed(&h, 0, b, n);
    n = msg(b, 'R', "\0\0\0\0", 4);
    n += msg(b + n, 'K', "\0\0\0\1\0\0\0\2", 8);
    n += msg(b + n, 'Z', "I", 1);
    ph_feed(&h, 1, b, n);
    CHECK(h.txs == 2 && !strcmp(last_eve, "{\"pgsql\":{\"tx_id\":2,\"request\":{"
                                          "\"password_redacted\":true},\"response\":{\"message\":"
                                          "\"authentication_ok\",\"process_id\":1,"
                                          "\"secret_key\":2}}}"));
    n = msg(b, 'Q', "select 42\0", 10);
    feed_bytewise(&h, 0, b, n);
    /* pgsql.query is the current transaction's (its event ran; read back as it is now) */
    struct pgsql_state *st = h.pf.state;
    st->cur = st->open[0];
    CHECK(ph_buf_is(&h, "pgsql.query", 0, 0, "select 42"));
    st->cur = NULL;
    n = msg(b, 'T', "\0\1", 2);
    n += msg(b + n, 'D', "\0\1\0\0\0\2" "42", 8);
    n += msg(b + n, 'D', "\0\2\377\377\377\377\0\0\0\3" "abc", 13);
    n += msg(b + n, 'C', "SELECT 2", 9);
    n += msg(b + n, 'Z', "I", 1);
    feed_bytewise(&h, 1, b, n);
    CHECK(h.txs == 3 && !strcmp(last_eve, "{\"pgsql\":{\"tx_id\":3,\"request\":{"
                                          "\"simple_query\":\"select 42\"},\"response\":{"
                                          "\"field_count\":1,\"data_rows\":2,\"data_size\":5,"
                                          "\"command_completed\":\"SELECT 2\"}}}"));
    CHECK(ph_count(&h, "pgsql_tx") == 3);
    n = msg(b, 'X', "", 0);
    ph_feed(&h, 0, b, n);
    CHECK(h.txs == 4 && strstr(last_eve, "terminate_message"));
    ph_free(&h);
}

static void ssl_refused_and_limits(void)
{
    struct ph h;
    init(&h);
    ((struct pgsql_cfg *)ph_cfg(&h))->max_tx = 2;
    uint8_t b[512];
    static const uint8_t ssl[8] = {0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f};
    ph_feed(&h, 0, ssl, 8);
    ph_feed(&h, 1, "N", 1);
    CHECK(h.txs == 1 && !strcmp(last_eve, "{\"pgsql\":{\"tx_id\":1,\"request\":{\"message\":"
                                          "\"SSL Request\"},\"response\":{\"ssl_accepted\":false}}}"));
    size_t n = startup(b); /* untyped again after the refusal */
    ph_feed(&h, 0, b, n);
    n = msg(b, 'R', "\0\0\0\0", 4);
    n += msg(b + n, 'Z', "I", 1);
    ph_feed(&h, 1, b, n);
    CHECK(h.txs == 2);
    for (int i = 0; i < 4; i++) { /* nobody answers: past max-tx the oldest is finished */
        n = msg(b, 'Q', "q\0", 2);
        ph_feed(&h, 0, b, n);
    }
    CHECK(h.txs == 4 && ph_count(&h, "pgsql_tx_shed") == 2);
    ph_end(&h); /* the flow's end reports what is open */
    CHECK(h.txs == 6);
    /* an over-long DataRow is skipped, not kept; the side goes on */
    uint8_t big[5] = {'D', 0x00, 0x20, 0x00, 0x10};
    ph_feed(&h, 1, big, 5);
    CHECK(ph_count(&h, "pgsql_msg_skipped") == 1);
    ph_free(&h);

    /* lengths: a typed message shorter than its length field, a ReadyForQuery of 2 bytes */
    init(&h);
    n = startup(b);
    ph_feed(&h, 0, b, n);
    uint8_t shortlen[5] = {'Q', 0, 0, 0, 3};
    ph_feed(&h, 0, shortlen, 5);
    CHECK(h.pf.dead[0] && ph_count(&h, "pgsql_malformed") == 1);
    n = msg(b, 'Z', "II", 2);
    ph_feed(&h, 1, b, n);
    CHECK(h.pf.dead[1] && ph_count(&h, "pgsql_malformed") == 2);
    ph_free(&h);

    /* stream-depth: the query past it is not read */
    init(&h);
    ((struct pgsql_cfg *)ph_cfg(&h))->stream_depth = 30;
    n = startup(b);
    n += msg(b + n, 'Q', "select 1\0", 9);
    ph_feed(&h, 0, b, n);
    CHECK(ph_count(&h, "pgsql_depth_bytes") > 0);
    struct pgsql_state *st = h.pf.state;
    CHECK(st->nopen == 1); /* the startup only */
    ph_free(&h);
}

/* queries nobody answers, 200 KiB each: the flow's open transactions keep at most
 * PG_FLOW_KEEP_MAX together; the rest is shed, counted, and those queries have no text */
static void keep_limit(void)
{
    struct ph h;
    init(&h);
    uint8_t b[64];
    size_t n = startup(b);
    ph_feed(&h, 0, b, n);
    size_t q = 200 * 1024;
    uint8_t *text = malloc(q), *big = malloc(q + 5);
    CHECK(text && big);
    memset(text, 'a', q);
    text[q - 1] = 0;
    n = msg(big, 'Q', text, q);
    free(text);
    for (int i = 0; i < 24; i++)
        ph_feed(&h, 0, big, n);
    struct pgsql_state *st = h.pf.state;
    CHECK(st->nopen == 25 && st->kept <= PG_FLOW_KEEP_MAX);
    CHECK(ph_count(&h, "pgsql_items_shed") >= 4);
    st->cur = st->open[24];
    uint32_t len;
    CHECK(!ph_buf(&h, "pgsql.query", 0, 0, &len));
    st->cur = st->open[1];
    CHECK(ph_buf(&h, "pgsql.query", 0, 0, &len) && len == q - 1);
    st->cur = NULL;
    ph_end(&h);
    CHECK(h.txs == 25 && st->kept == 0);
    free(big);
    ph_free(&h);
}

/* Bytes lost mid-query: the cut query is dropped, chunks that do not start with a whole
 * typed message are passed over (no invalid length), the next query is read and answered. */
static void gap(void)
{
    struct ph h;
    init(&h);
    uint8_t b[512];
    size_t n = startup(b);
    ph_feed(&h, 0, b, n);
    n = msg(b, 'R', "\0\0\0\0", 4);
    n += msg(b + n, 'Z', "I", 1);
    ph_feed(&h, 1, b, n);
    CHECK(h.txs == 1);
    n = msg(b, 'Q', "select secret from t\0", 21);
    ph_feed(&h, 0, b, 8);
    h.def->gap(&h.pf, &h.f, 0);
    ph_feed(&h, 0, b + 12, n - 12);        /* the query's tail */
    ph_feed(&h, 0, b, 8);                  /* a query not whole in its chunk */
    CHECK(!h.pf.dead[0] && ph_count(&h, "pgsql_malformed") == 0);
    n = msg(b, 'Q', "select 1\0", 9);
    ph_feed(&h, 0, b, n);
    struct pgsql_state *st = h.pf.state;
    CHECK(st->nopen == 1);
    st->cur = st->open[0];
    CHECK(ph_buf_is(&h, "pgsql.query", 0, 0, "select 1"));
    st->cur = NULL;
    /* the server's answer: a gap in it, then its next whole message resyncs */
    n = msg(b, 'T', "\0\1", 2);
    ph_feed(&h, 1, b, 3);
    h.def->gap(&h.pf, &h.f, 1);
    n = msg(b, 'C', "SELECT 1", 9);
    n += msg(b + n, 'Z', "I", 1);
    ph_feed(&h, 1, b, n);
    CHECK(h.txs == 2 && !h.pf.dead[1] && strstr(last_eve, "\"command_completed\":\"SELECT 1\""));
    ph_free(&h);
}

static void probe(void)
{
    struct mon_flow f = {.proto = 6, .cport = 40000, .sport = 5432};
    uint8_t b[64];
    size_t n = startup(b);
    CHECK(pgsql_probe(b, n, &f) == DET_YES);
    CHECK(pgsql_probe(b, 3, &f) == DET_NEED_MORE);
    static const uint8_t ssl[8] = {0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f};
    CHECK(pgsql_probe(ssl, 8, &f) == DET_YES);
    n = msg(b, 'Q', "x\0", 2);
    CHECK(pgsql_probe(b, n, &f) == DET_YES);
    CHECK(pgsql_probe((const uint8_t *)"GET / HTTP/1.1\r\n", 16, &f) == DET_NO);
    f.sport = 5433;
    n = startup(b);
    CHECK(pgsql_probe(b, n, &f) == DET_NO);
}

int main(void)
{
    session();
    ssl_refused_and_limits();
    keep_limit();
    gap();
    probe();
    free(last_eve);
    return unit_report("test_proto_pgsql");
}
