/* test_dns_wire.c — the shared DNS message decoder alone: names with compression and loops, a
 * message's records as text, the name lists, the record types' names. */
#include <stdlib.h>
#include <string.h>

#include "dns_wire.h"
#include "unit.h"

static void test_dns_names(void)
{
    /* header (12 bytes) + "www.example.com" + a pointer name "mail" + ptr to offset 16 */
    uint8_t m[64] = {0};
    size_t at = 12;
    const char *labels[] = {"www", "example", "com"};
    for (int i = 0; i < 3; i++) {
        m[at++] = (uint8_t)strlen(labels[i]);
        memcpy(m + at, labels[i], strlen(labels[i]));
        at += strlen(labels[i]);
    }
    m[at++] = 0;
    size_t second = at;
    m[at++] = 4;
    memcpy(m + at, "mail", 4);
    at += 4;
    m[at++] = 0xc0;
    m[at++] = 16; /* -> "example.com" */
    size_t n = at;
    uint8_t out[DNS_NAME_MAX];
    uint32_t ol;
    size_t next;
    CHECK(dns_wire_name(m, n, 12, out, sizeof out, &ol, &next, NULL) == 0);
    CHECK(ol == 15 && !memcmp(out, "www.example.com", 15) && next == second);
    CHECK(dns_wire_name(m, n, second, out, sizeof out, &ol, &next, NULL) == 0);
    CHECK(ol == 16 && !memcmp(out, "mail.example.com", 16) && next == n);
    /* a pointer to itself before any other: malformed; a two-step cycle of pointers: cut
     * at DNS_NAME_STEPS (too many labels, truncated); a pointer out of the message, a cut
     * label, an extended label type: malformed */
    uint8_t loop[16] = {0};
    unsigned fl = 0;
    loop[12] = 0xc0, loop[13] = 12;
    CHECK(dns_wire_name(loop, 14, 12, out, sizeof out, &ol, &next, &fl) == -1 && fl == 0);
    loop[12] = 0xc0, loop[13] = 14, loop[14] = 0xc0, loop[15] = 12;
    CHECK(dns_wire_name(loop, 16, 12, out, sizeof out, &ol, &next, &fl) == 0);
    CHECK(fl == (DNS_NAME_LABELS | DNS_NAME_TRUNCATED) && ol == 0 && next == 14);
    /* "ab" then a pointer to a pointer to itself: the name so far, an infinite loop */
    uint8_t self[20] = {0};
    self[12] = 2, self[13] = 'a', self[14] = 'b', self[15] = 0xc0, self[16] = 17;
    self[17] = 0xc0, self[18] = 17;
    fl = 0;
    CHECK(dns_wire_name(self, 19, 12, out, sizeof out, &ol, &next, &fl) == 0);
    CHECK(fl == DNS_NAME_LOOP && ol == 2 && !memcmp(out, "ab", 2) && next == 17);
    loop[12] = 0xc0, loop[13] = 200;
    CHECK(dns_wire_name(loop, 14, 12, out, sizeof out, &ol, &next, NULL) == -1);
    loop[12] = 10;
    CHECK(dns_wire_name(loop, 14, 12, out, sizeof out, &ol, &next, NULL) == -1);
    loop[12] = 0x40; /* an extended label type */
    CHECK(dns_wire_name(loop, 14, 12, out, sizeof out, &ol, &next, NULL) == -1);
    /* a name longer than 255 octets on the wire reads whole, as Suricata reads it; one longer
     * than DNS_NAME_MAX dotted is cut there and flagged, and ends where it ends */
    uint8_t big[1600] = {0};
    size_t p = 12;
    for (int i = 0; i < 20; i++) {
        big[p++] = 63;
        memset(big + p, 'a', 63);
        p += 63;
        if (i == 4)
            big[p] = 0; /* (for the 5-label read below) */
    }
    big[p++] = 0;
    unsigned cut = 0;
    uint8_t five[400];
    memcpy(five, big, 12 + 5 * 64);
    five[12 + 5 * 64] = 0;
    CHECK(dns_wire_name(five, 12 + 5 * 64 + 1, 12, out, sizeof out, &ol, &next, &cut) == 0);
    CHECK(ol == 5 * 64 - 1 && !cut && next == 12 + 5 * 64 + 1);
    CHECK(dns_wire_name(big, p, 12, out, sizeof out, &ol, &next, &cut) == 0);
    CHECK(ol == DNS_NAME_MAX && cut == DNS_NAME_TRUNCATED && next == p && out[63] == '.' &&
          out[1024] == 'a');
    /* more than DNS_NAME_STEPS labels without a pointer: malformed; exactly that many: a
     * name */
    uint8_t many[12 + 2 * 300 + 1] = {0};
    for (int i = 0; i < 300; i++)
        many[12 + 2 * i] = 1, many[13 + 2 * i] = 'x';
    CHECK(dns_wire_name(many, sizeof many, 12, out, sizeof out, &ol, &next, NULL) == -1);
    many[12 + 2 * DNS_NAME_STEPS] = 0;
    fl = 0;
    CHECK(dns_wire_name(many, sizeof many, 12, out, sizeof out, &ol, &next, &fl) == 0);
    CHECK(fl == 0 && ol == 2 * DNS_NAME_STEPS - 1 && next == 13 + 2 * DNS_NAME_STEPS);
    /* the root name */
    uint8_t root[13] = {0};
    CHECK(dns_wire_name(root, 13, 12, out, sizeof out, &ol, &next, NULL) == 0 && ol == 0 && next == 13);
}

/* A response decoded without a flow: header, question, answers as text, the name lists. */
static void test_decode(void)
{
    static const uint8_t m[] = {
        0x12, 0x34, 0x81, 0x80, 0, 1, 0, 2, 0, 0, 0, 0,           /* response, 1 q, 2 an */
        1, 'a', 3, 'c', 'o', 'm', 0, 0, 1, 0, 1,                  /* a.com A IN */
        0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 10, 0, 0, 1,     /* a.com A 10.0.0.1 */
        0xc0, 12, 0, 5, 0, 1, 0, 0, 0, 60, 0, 4, 1, 'b', 0xc0, 14, /* a.com CNAME b.com */
    };
    struct dns_wire *s = calloc(1, sizeof *s);
    CHECK(s && dns_wire_decode(s, m, sizeof m) == DNS_WIRE_OK);
    CHECK(s->has_query && s->qlen == 5 && !memcmp(s->query, "a.com", 5));
    struct dns_wire_info di;
    CHECK(dns_wire_records(s, &di) && di.response && di.id == 0x1234 && di.nanswers == 2);
    CHECK(di.answers[0].rdata_len == 8 && !memcmp(di.answers[0].rdata, "10.0.0.1", 8));
    CHECK(di.answers[1].rdata_len == 5 && !memcmp(di.answers[1].rdata, "b.com", 5));
    uint32_t len;
    const uint8_t *e = dns_wire_list_at(s, DNS_L_QUERIES, 0, &len);
    CHECK(e && len == 5 && !memcmp(e, "a.com", 5) && !dns_wire_list_at(s, DNS_L_QUERIES, 1, &len));
    /* dns.response.rrname: the question, each answer's name and a CNAME's target */
    e = dns_wire_list_at(s, DNS_L_RESPONSE, 2, &len);
    CHECK(e && len == 5 && !memcmp(e, "a.com", 5));
    e = dns_wire_list_at(s, DNS_L_RESPONSE, 3, &len);
    CHECK(e && len == 5 && !memcmp(e, "b.com", 5) && !dns_wire_list_at(s, DNS_L_RESPONSE, 4, &len));
    CHECK(!strcmp(dns_wire_rrtype_name(5), "CNAME") && !dns_wire_rrtype_name(64));
    CHECK(dns_wire_decode(s, m, 11) == DNS_WIRE_MALFORMED);
    CHECK(dns_wire_decode(s, m, sizeof m - 1) == DNS_WIRE_MALFORMED); /* an answer cut */
    dns_wire_free(s);
}

int main(void)
{
    test_dns_names();
    test_decode();
    return unit_report("test_dns_wire");
}
