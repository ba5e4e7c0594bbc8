/* test_proto_bittorrent_dht.c — the BitTorrent DHT's descriptor, bytes in, records out: the
 * bencode reader alone (integers, strings, nesting, its depth limit, bad input), KRPC queries,
 * responses with compact nodes and errors into EVE objects, malformed messages (counted: too
 * deep among them), what is kept bounded (shed counted), the probe. */
#include <stdlib.h>

#include "bt_int.h"
#include "osprey_json_writer.h"
#include "proto_harness.h"
#include "unit.h"

static char *eve(struct ph *h)
{
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    CHECK(bt_eve(&h->pf, &w));
    char *s = osprey_jw_finish(&w);
    if (s && *s)
        s[strlen(s) - 1] = 0;
    return s;
}

static void bencode(void)
{
    struct benc b;
    struct benc_val v;
    const char *s = "li-42e3:abcd1:xeee";
    benc_init(&b, (const uint8_t *)s, strlen(s));
    CHECK(benc_next(&b, &v) == BENC_LIST);
    CHECK(benc_next(&b, &v) == BENC_INT && v.i == -42);
    CHECK(benc_next(&b, &v) == BENC_STR && v.len == 3 && !memcmp(v.s, "abc", 3));
    CHECK(benc_next(&b, &v) == BENC_DICT);
    CHECK(benc_skip(&b) && b.depth == 1);
    CHECK(benc_next(&b, &v) == BENC_END && b.depth == 0);
    CHECK(benc_next(&b, &v) == BENC_ERR); /* 'e' outside any container */
    static const char *const bad[] = {"i-0e", "i01e", "5:abc", "i12", "x", "3abc",
                                      "i12345678901234567890e", "llll",
                                      "i9999999999999999999e", "9999999999999999999:x"};
    for (size_t i = 0; i < PROTO_N(bad); i++) {
        benc_init(&b, (const uint8_t *)bad[i], strlen(bad[i]));
        enum benc_type t;
        while ((t = benc_next(&b, &v)) == BENC_LIST)
            ;
        CHECK(t == BENC_ERR);
    }
    /* the largest int64 is read whole */
    benc_init(&b, (const uint8_t *)"i9223372036854775807e", 21);
    CHECK(benc_next(&b, &v) == BENC_INT && v.i == INT64_MAX);
    benc_init(&b, (const uint8_t *)"llll", 4);
    while (benc_next(&b, &v) == BENC_LIST)
        ;
    CHECK(b.too_deep && b.depth == BENC_MAX_DEPTH);
}

#define ID "abcdefghij0123456789"
static void messages(void)
{
    struct ph h;
    ph_init(&h, "bittorrent-dht", 17, 6881, 51413);
    const char *q = "d1:ad2:id20:" ID "6:target20:" ID "e1:q9:find_node1:t2:aa1:y1:qe";
    ph_feed(&h, 0, q, strlen(q));
    CHECK(h.txs == 1);
    char *s = eve(&h);
    CHECK(s && !strcmp(s, "{\"bittorrent_dht\":{\"transaction_id\":\"6161\",\"request_type\":"
                          "\"find_node\",\"request\":{\"id\":\"6162636465666768696a30313233343536"
                          "373839\",\"target\":\"6162636465666768696a30313233343536373839\"}}}"));
    free(s);
    /* a response with one compact node (and 3 stray bytes, ignored) */
    char r[128];
    int n = snprintf(r, sizeof r, "d1:rd2:id20:" ID "5:nodes29:" ID "%c%c%c%c%c%cxyze1:t2:aa1:y1:re",
                     10, 0, 0, 1, 0x1a, 0xe1);
    ph_feed(&h, 1, r, (size_t)n);
    CHECK(h.txs == 2);
    s = eve(&h);
    CHECK(s && strstr(s, "\"nodes\":[{\"id\":\"6162636465666768696a30313233343536373839\","
                         "\"ip\":\"10.0.0.1\",\"port\":6881}]"));
    free(s);
    const char *e = "d1:eli203e14:Protocol Errore1:t2:bb1:y1:ee";
    ph_feed(&h, 1, e, strlen(e));
    s = eve(&h);
    CHECK(h.txs == 3 && s && !strcmp(s, "{\"bittorrent_dht\":{\"transaction_id\":\"6262\","
                                        "\"error\":{\"num\":203,\"msg\":\"Protocol Error\"}}}"));
    free(s);
    /* malformed: too deep, a missing id, the error's code out of range */
    const char *deep = "d1:rd2:id20:" ID "6:valuesllleeee1:t2:aa1:y1:re";
    const char *noid = "d1:ad6:target20:" ID "e1:q9:find_node1:t2:aa1:y1:qe";
    const char *big = "d1:eli70000e1:xe1:t2:bb1:y1:ee";
    ph_feed(&h, 1, deep, strlen(deep));
    ph_feed(&h, 0, noid, strlen(noid));
    ph_feed(&h, 1, big, strlen(big));
    CHECK(h.txs == 3 && ph_count(&h, "bittorrent_dht_malformed") == 3 &&
          ph_count(&h, "bittorrent_dht_too_deep") == 1);
    CHECK(!bt_eve(&h.pf, NULL)); /* no record for a malformed one */
    /* not DHT at all: not looked at */
    ph_feed(&h, 0, "hello", 5);
    CHECK(ph_count(&h, "bittorrent_dht_malformed") == 3);
    /* a transaction id longer than kept: cut, counted */
    char lt[200];
    n = snprintf(lt, sizeof lt, "d1:ad2:id20:" ID "e1:q4:ping1:t80:%080d1:y1:qe", 7);
    ph_feed(&h, 0, lt, (size_t)n);
    CHECK(h.txs == 4 && ph_count(&h, "bittorrent_dht_shed") == 80 - BT_BYTES_MAX);
    ph_free(&h);
}

static void probe(void)
{
    const char *q = "d1:ad2:id20:" ID "e1:q4:ping1:t2:aa1:y1:qe";
    CHECK(bt_probe((const uint8_t *)q, strlen(q), NULL) == DET_YES);
    CHECK(bt_probe((const uint8_t *)q, 11, NULL) == DET_NO);
    CHECK(bt_probe((const uint8_t *)"d1:rd2:id20:", 12, NULL) == DET_NO);
}

int main(void)
{
    bencode();
    messages();
    probe();
    return unit_report("test_proto_bittorrent_dht");
}
