/* test_dns_units.c — DNS's inner parts alone: names with compression and loops, detection
 * verdicts (UDP, TCP with its length, the stricter off-port probe). */
#include <stdlib.h>
#include <string.h>

#include "dns_int.h"
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
    CHECK(dns_name_read(m, n, 12, out, sizeof out, &ol, &next, NULL) == 0);
    CHECK(ol == 15 && !memcmp(out, "www.example.com", 15) && next == second);
    CHECK(dns_name_read(m, n, second, out, sizeof out, &ol, &next, NULL) == 0);
    CHECK(ol == 16 && !memcmp(out, "mail.example.com", 16) && next == n);
    /* a pointer to itself before any other: malformed; a two-step cycle of pointers: cut
     * at DNS_NAME_STEPS (too many labels, truncated); a pointer out of the message, a cut
     * label, an extended label type: malformed */
    uint8_t loop[16] = {0};
    unsigned fl = 0;
    loop[12] = 0xc0, loop[13] = 12;
    CHECK(dns_name_read(loop, 14, 12, out, sizeof out, &ol, &next, &fl) == -1 && fl == 0);
    loop[12] = 0xc0, loop[13] = 14, loop[14] = 0xc0, loop[15] = 12;
    CHECK(dns_name_read(loop, 16, 12, out, sizeof out, &ol, &next, &fl) == 0);
    CHECK(fl == (DNS_NAME_LABELS | DNS_NAME_TRUNCATED) && ol == 0 && next == 14);
    /* "ab" then a pointer to a pointer to itself: the name so far, an infinite loop */
    uint8_t self[20] = {0};
    self[12] = 2, self[13] = 'a', self[14] = 'b', self[15] = 0xc0, self[16] = 17;
    self[17] = 0xc0, self[18] = 17;
    fl = 0;
    CHECK(dns_name_read(self, 19, 12, out, sizeof out, &ol, &next, &fl) == 0);
    CHECK(fl == DNS_NAME_LOOP && ol == 2 && !memcmp(out, "ab", 2) && next == 17);
    loop[12] = 0xc0, loop[13] = 200;
    CHECK(dns_name_read(loop, 14, 12, out, sizeof out, &ol, &next, NULL) == -1);
    loop[12] = 10;
    CHECK(dns_name_read(loop, 14, 12, out, sizeof out, &ol, &next, NULL) == -1);
    loop[12] = 0x40; /* an extended label type */
    CHECK(dns_name_read(loop, 14, 12, out, sizeof out, &ol, &next, NULL) == -1);
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
    CHECK(dns_name_read(five, 12 + 5 * 64 + 1, 12, out, sizeof out, &ol, &next, &cut) == 0);
    CHECK(ol == 5 * 64 - 1 && !cut && next == 12 + 5 * 64 + 1);
    CHECK(dns_name_read(big, p, 12, out, sizeof out, &ol, &next, &cut) == 0);
    CHECK(ol == DNS_NAME_MAX && cut == DNS_NAME_TRUNCATED && next == p && out[63] == '.' &&
          out[1024] == 'a');
    /* more than DNS_NAME_STEPS labels without a pointer: malformed; exactly that many: a
     * name */
    uint8_t many[12 + 2 * 300 + 1] = {0};
    for (int i = 0; i < 300; i++)
        many[12 + 2 * i] = 1, many[13 + 2 * i] = 'x';
    CHECK(dns_name_read(many, sizeof many, 12, out, sizeof out, &ol, &next, NULL) == -1);
    many[12 + 2 * DNS_NAME_STEPS] = 0;
    fl = 0;
    CHECK(dns_name_read(many, sizeof many, 12, out, sizeof out, &ol, &next, &fl) == 0);
    CHECK(fl == 0 && ol == 2 * DNS_NAME_STEPS - 1 && next == 13 + 2 * DNS_NAME_STEPS);
    /* the root name */
    uint8_t root[13] = {0};
    CHECK(dns_name_read(root, 13, 12, out, sizeof out, &ol, &next, NULL) == 0 && ol == 0 && next == 13);
}

static void test_detect(void)
{
    static const uint8_t q[] = {0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0,
                                1, 'a', 0, 0, 1, 0, 1};
    CHECK(detect_dns(q, sizeof q, false) == DET_YES);
    CHECK(detect_dns_strict(q, sizeof q) == DET_YES);
    CHECK(detect_dns(q, 10, false) == DET_NO);
    uint8_t tcp[2 + sizeof q] = {0, sizeof q};
    memcpy(tcp + 2, q, sizeof q);
    CHECK(detect_dns(tcp, sizeof tcp, true) == DET_YES);
    CHECK(detect_dns(tcp, 8, true) == DET_NEED_MORE);
    /* a TCP message not all here: its header decides (a cut first name), as Suricata's; the
     * records' counts are bounded by the message's length (2 bytes each at least) */
    CHECK(detect_dns(tcp, 2 + 13, true) == DET_YES);
    uint8_t many[2 + sizeof q];
    memcpy(many, tcp, sizeof many);
    many[2 + 4] = 0x05, many[2 + 5] = 0xdc; /* 1,500 questions in 19 bytes */
    CHECK(detect_dns(many, sizeof many, true) == DET_NO);
    many[0] = 0x17, many[1] = 0x70;         /* … in a 6,000-byte message: DNS */
    CHECK(detect_dns(many, sizeof many, true) == DET_YES);
    CHECK(detect_dns(many + 2, sizeof q, false) == DET_NO); /* a datagram: at most 32 */
    uint8_t bad[sizeof q];
    memcpy(bad, q, sizeof q);
    bad[5] = 0; /* no question */
    CHECK(detect_dns(bad, sizeof bad, false) == DET_NO);
}

int main(void)
{
    test_dns_names();
    test_detect();
    return unit_report("test_dns_units");
}
