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
    /* a pointer to itself, a two-step cycle, a pointer out of the message, a cut label */
    uint8_t loop[16] = {0};
    loop[12] = 0xc0, loop[13] = 12;
    CHECK(dns_name_read(loop, 14, 12, out, sizeof out, &ol, &next, NULL) == -1);
    loop[12] = 0xc0, loop[13] = 14, loop[14] = 0xc0, loop[15] = 12;
    CHECK(dns_name_read(loop, 16, 12, out, sizeof out, &ol, &next, NULL) == -1);
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
    bool cut = false;
    uint8_t five[400];
    memcpy(five, big, 12 + 5 * 64);
    five[12 + 5 * 64] = 0;
    CHECK(dns_name_read(five, 12 + 5 * 64 + 1, 12, out, sizeof out, &ol, &next, &cut) == 0);
    CHECK(ol == 5 * 64 - 1 && !cut && next == 12 + 5 * 64 + 1);
    CHECK(dns_name_read(big, p, 12, out, sizeof out, &ol, &next, &cut) == 0);
    CHECK(ol == DNS_NAME_MAX && cut && next == p && out[63] == '.' && out[1024] == 'a');
    /* more than DNS_NAME_STEPS labels: a loop */
    uint8_t many[12 + 2 * 300 + 1] = {0};
    for (int i = 0; i < 300; i++)
        many[12 + 2 * i] = 1, many[13 + 2 * i] = 'x';
    CHECK(dns_name_read(many, sizeof many, 12, out, sizeof out, &ol, &next, NULL) == -1);
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
