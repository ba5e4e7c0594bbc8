/* test_proto_dns.c — DNS's descriptor, bytes in, buffers out: the record lists (dns.query,
 * dns.answers.rrname, dns.response.rrname …) element by element, the message frame, the
 * fields (opcode, rcode, record types), over UDP and TCP, and the port-hinted probes. */
#include "proto_harness.h"
#include "unit.h"

/* A query for two names (www.a.test A, b.test AAAA), id 0x1234, recursion desired. */
static const uint8_t QUERY[] = {
    0x12, 0x34, 0x01, 0x00, 0, 2, 0, 0, 0, 0, 0, 0,
    3, 'w', 'w', 'w', 1, 'a', 4, 't', 'e', 's', 't', 0, 0, 1, 0, 1,
    1, 'b', 4, 't', 'e', 's', 't', 0, 0, 28, 0, 1,
};

/* Its response: the first question, a CNAME to c.test (compressed owner), an A for c.test,
 * rcode NXDOMAIN (3), opcode 0. */
static const uint8_t RESPONSE[] = {
    0x12, 0x34, 0x81, 0x83, 0, 1, 0, 2, 0, 0, 0, 0,
    3, 'w', 'w', 'w', 1, 'a', 4, 't', 'e', 's', 't', 0, 0, 1, 0, 1,
    0xc0, 12, 0, 5, 0, 1, 0, 0, 0, 60, 0, 8, 1, 'c', 4, 't', 'e', 's', 't', 0,
    1, 'c', 4, 't', 'e', 's', 't', 0, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 10, 0, 0, 1,
};

static void test_udp(void)
{
    struct ph h;
    ph_init(&h, "dns", 17, 5000, 53);
    ph_feed(&h, 0, QUERY, sizeof QUERY);
    CHECK_EQ_U(ph_nbuf(&h, "dns.query", 0), 2);
    CHECK(ph_buf_is(&h, "dns.query", 0, 0, "www.a.test"));
    CHECK(ph_buf_is(&h, "dns.queries.rrname", 0, 1, "b.test"));
    CHECK_EQ_U(ph_nbuf(&h, "dns.answers.rrname", 0), 0);
    CHECK_EQ_U(ph_nbuf(&h, "dns.response.rrname", 1), 0); /* a query has none */
    uint32_t n;
    CHECK(ph_buf(&h, "frame:dns.pdu", 0, 0, &n) && n == sizeof QUERY);
    int64_t v;
    CHECK(ph_field(&h, "dns.rrtype", 0, &v) && v == 1);
    CHECK(ph_field(&h, "dns.rrtype", 1, &v) && v == 28);
    CHECK(!ph_field(&h, "dns.rrtype", 2, &v));
    CHECK(ph_field(&h, "dns.opcode", 0, &v) && v == 0);
    CHECK(ph_field(&h, "dns.id", 0, &v) && v == 0x1234);
    /* records: the first question's name alone */
    int b = osprey_buffer_find_record("dns.query", 0);
    CHECK(b >= 0 && !osprey_buffer_is_multi((uint16_t)b));
    CHECK(ph_rec_is(&h, "dns.query", 0, "www.a.test"));

    ph_feed(&h, 1, RESPONSE, sizeof RESPONSE);
    CHECK_EQ_U(ph_nbuf(&h, "dns.answers.rrname", 1), 2);
    CHECK(ph_buf_is(&h, "dns.answers.rrname", 1, 0, "www.a.test"));
    CHECK(ph_buf_is(&h, "dns.answer.name", 1, 1, "c.test"));
    /* every name a response carries: the question, each answer's owner and name rdata */
    CHECK_EQ_U(ph_nbuf(&h, "dns.response.rrname", 1), 4);
    CHECK(ph_buf_is(&h, "dns.response.rrname", 1, 2, "c.test"));
    CHECK(ph_field(&h, "dns.rcode", 0, &v) && v == 3);
    CHECK(ph_field(&h, "dns.qtype", 0, &v) && v == 1);
    /* records: each answer's type, TTL, name and rdata as text */
    CHECK(ph_field(&h, "dns.answers.type", 0, &v) && v == 5);
    CHECK(ph_field(&h, "dns.answers.ttl", 1, &v) && v == 60);
    CHECK(!ph_field(&h, "dns.answers.ttl", 2, &v));
    uint32_t rl;
    const uint8_t *rd = ph_get(&h, osprey_buffer_find_record("dns.answers.rdata", 1), 0, &rl);
    CHECK(rd && rl == 6 && !memcmp(rd, "c.test", 6));
    rd = ph_get(&h, osprey_buffer_find_record("dns.answers.rdata", 1), 1, &rl);
    CHECK(rd && rl == 8 && !memcmp(rd, "10.0.0.1", 8));
    /* a response's record types: its question's, then its answers' */
    CHECK(ph_field(&h, "dns.rrtype", 1, &v) && v == 5);
    CHECK(ph_field(&h, "dns.rrtype", 2, &v) && v == 1);
    CHECK_EQ_U(h.txs, 2);
    CHECK_EQ_U(h.def->tx_id(&h.pf), 1);
    CHECK_EQ_U(ph_count(&h, "dns_messages"), 2);
    CHECK_EQ_U(ph_count(&h, "dns_malformed"), 0);
    ph_free(&h);
}

static void test_tcp_framing(void)
{
    struct ph h;
    ph_init(&h, "dns", 6, 5000, 53);
    uint8_t msg[2 + sizeof QUERY] = {0, sizeof QUERY};
    memcpy(msg + 2, QUERY, sizeof QUERY);
    for (size_t i = 0; i < sizeof msg; i++) /* one byte at a time */
        ph_feed(&h, 0, msg + i, 1);
    CHECK_EQ_U(h.txs, 1);
    CHECK(ph_buf_is(&h, "dns.query", 0, 1, "b.test"));
    ph_free(&h);
}

static void test_probes(void)
{
    const struct osprey_proto_def *d = reg_proto((uint16_t)osprey_app_proto_find("dns"));
    struct mon_flow on53 = {.sport = 53, .cport = 5000}, off = {.sport = 9999, .cport = 5000};
    const struct proto_probe *udp = NULL;
    for (const struct proto_probe *p = d->probes; p->probe; p++)
        if (p->l4 == 17)
            udp = p;
    CHECK(udp && udp->probe(QUERY, sizeof QUERY, &on53) == DET_YES);
    /* off port 53 only a plain one-question query or response */
    CHECK(udp && udp->probe(QUERY, sizeof QUERY, &off) == DET_NO);
    CHECK(udp && udp->probe(RESPONSE, sizeof RESPONSE, &off) == DET_YES);
    CHECK(osprey_app_proto_l4((uint16_t)osprey_app_proto_find("dns")) == 0);
}

int main(void)
{
    test_udp();
    test_tcp_framing();
    test_probes();
    return unit_report("test_proto_dns");
}
