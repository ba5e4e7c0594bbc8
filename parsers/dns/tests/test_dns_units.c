/* test_dns_units.c — DNS's detection verdicts alone (UDP, TCP with its length, the stricter
 * off-port probe); the message decoder's names and records are ../../dns_wire/tests'. */
#include <stdlib.h>
#include <string.h>

#include "dns_int.h"
#include "unit.h"

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
    test_detect();
    return unit_report("test_dns_units");
}
