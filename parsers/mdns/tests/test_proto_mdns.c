/* test_proto_mdns.c — mDNS's descriptor, bytes in, buffers out: an announcement without
 * questions is a transaction (DNS's decoder, mDNS's rows), the mdns.* buffers, the EVE object
 * (TXT strings of one record together, PTR, flags), a query the other way, malformed
 * datagrams counted as mDNS's, the probe (5353, not a query to port 53), the name events
 * (a pointer loop, a cycle of pointers) under mDNS's names. */
#include <stdlib.h>

#include "mdns_int.h"
#include "osprey_json_writer.h"
#include "proto_harness.h"
#include "unit.h"

/* a response: no question; answers TXT "a.local" ("x=1", "y=2") and PTR "_s.local" -> a.local */
static const uint8_t ANNOUNCE[] = {
    0, 0, 0x84, 0, 0, 0, 0, 2, 0, 0, 0, 0,
    1, 'a', 5, 'l', 'o', 'c', 'a', 'l', 0, 0, 16, 0, 1, 0, 0, 0, 120, 0, 8,
    3, 'x', '=', '1', 3, 'y', '=', '2',
    2, '_', 's', 0xc0, 14, 0, 12, 0, 1, 0, 0, 0, 120, 0, 2, 0xc0, 12};
/* a query: _s.local PTR */
static const uint8_t QUERY[] = {0, 7, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
                                2, '_', 's', 5, 'l', 'o', 'c', 'a', 'l', 0, 0, 12, 0, 1};

static char *eve(struct ph *h)
{
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    CHECK(mdns_eve(&h->pf, &w));
    char *s = osprey_jw_finish(&w);
    if (s && *s)
        s[strlen(s) - 1] = 0;
    return s;
}

static void messages(void)
{
    struct ph h;
    ph_init(&h, "mdns", 17, 5353, 5353);
    ph_feed(&h, 0, ANNOUNCE, sizeof ANNOUNCE);
    CHECK(h.txs == 1);
    CHECK(ph_buf_is(&h, "mdns.answers.rrname", 0, 0, "a.local"));
    CHECK(ph_buf_is(&h, "mdns.answers.rrname", 0, 2, "_s.local"));
    CHECK(ph_nbuf(&h, "mdns.queries.rrname", 0) == 0);
    CHECK(ph_buf_is(&h, "mdns.response.rrname", 0, 0, "a.local"));
    char *s = eve(&h);
    CHECK(s && !strcmp(s, "{\"mdns\":{\"type\":\"response\",\"id\":0,\"flags\":[\"aa\"],"
                          "\"opcode\":0,\"rcode\":0,\"answers\":[{\"rrname\":\"a.local\","
                          "\"txt\":[\"x=1\",\"y=2\"]},{\"rrname\":\"_s.local\","
                          "\"ptr\":\"a.local\"}]}}"));
    free(s);
    ph_feed(&h, 1, QUERY, sizeof QUERY); /* a query the other way: no not_response */
    CHECK(h.txs == 2 && ph_buf_is(&h, "mdns.queries.rrname", 1, 0, "_s.local"));
    s = eve(&h);
    CHECK(s && !strcmp(s, "{\"mdns\":{\"type\":\"request\",\"id\":7,\"opcode\":0,\"rcode\":0,"
                          "\"queries\":[{\"rrname\":\"_s.local\",\"rrtype\":\"ptr\"}]}}"));
    free(s);
    ph_feed(&h, 0, QUERY, 5);
    CHECK(h.txs == 2 && ph_count(&h, "mdns_malformed") == 1 &&
          ph_count(&h, "mdns_messages") == 3 && ph_count(&h, "dns_messages") == 0);
    ph_free(&h);
}

static void probe(void)
{
    struct mon_flow f = {.proto = 17, .cport = 5353, .sport = 5353};
    CHECK(mdns_probe(ANNOUNCE, sizeof ANNOUNCE, &f) == DET_YES);
    CHECK(mdns_probe(QUERY, sizeof QUERY, &f) == DET_YES);
    CHECK(mdns_probe(QUERY, 11, &f) == DET_NO);
    f.sport = 53; /* a resolver's query from 5353: DNS's */
    CHECK(mdns_probe(QUERY, sizeof QUERY, &f) == DET_NO);
    f.sport = 5354, f.cport = 40000;
    CHECK(mdns_probe(QUERY, sizeof QUERY, &f) == DET_NO);
    uint8_t none[12] = {0}; /* no record at all */
    f.sport = 5353;
    CHECK(mdns_probe(none, sizeof none, &f) == DET_NO);
}

/* Names as DNS's decoder reads them, raised under mDNS's names: a pointer to itself after a
 * pointer (mdns.infinite_loop), a cycle of pointers (mdns.too_many_labels). */
static bool raised(const struct ph *h, const char *name)
{
    int e = osprey_app_event_find(name);
    for (int i = 0; i < PFLOW_TX_ANOMALIES; i++)
        if (e >= 0 && h->pf.tx_anom[i].anomaly == e + 1)
            return true;
    return false;
}

static void name_events(void)
{
    /* a query for "x" then a pointer to 20, past the question, where a pointer points at
     * itself */
    static const uint8_t LOOP[] = {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
                                   1, 'x', 0xc0, 20, 0, 12, 0, 1, 0xc0, 20};
    struct ph h;
    ph_init(&h, "mdns", 17, 5353, 5353);
    ph_feed(&h, 0, LOOP, sizeof LOOP);
    CHECK(raised(&h, "mdns.infinite_loop") && !raised(&h, "mdns.malformed_data"));
    CHECK(ph_buf_is(&h, "mdns.queries.rrname", 0, 0, "x"));
    ph_free(&h);
    /* a question whose name points into a two-pointer cycle */
    static const uint8_t CYCLE[] = {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
                                    0xc0, 18, 0, 12, 0, 1, 0xc0, 20, 0xc0, 18};
    ph_init(&h, "mdns", 17, 5353, 5353);
    ph_feed(&h, 0, CYCLE, sizeof CYCLE);
    CHECK(raised(&h, "mdns.too_many_labels") && raised(&h, "mdns.name_too_long"));
    CHECK(!raised(&h, "mdns.infinite_loop") && !raised(&h, "mdns.malformed_data"));
    ph_free(&h);
}

int main(void)
{
    name_events();
    messages();
    probe();
    return unit_report("test_proto_mdns");
}
