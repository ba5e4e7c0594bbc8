/* test_tls_units.c — TLS's detection verdicts alone (a TLS record's ClientHello, an
 * SSLv2-framed one); the hello reader and the buffers are ../../tls_wire/tests'. */
#include <stdlib.h>
#include <string.h>

#include "tls_int.h"
#include "unit.h"

static void test_detect(void)
{
    CHECK(detect_tls_client_hello((const uint8_t *)"\x16\x03\x01\x00\x10\x01", 6) == DET_YES);
    CHECK(detect_tls_client_hello((const uint8_t *)"\x16\x03", 2) == DET_NEED_MORE);
    CHECK(detect_tls_client_hello((const uint8_t *)"\x16\x03\x01\x00\x10\x02", 6) == DET_NO);
    CHECK(detect_tls_client_hello((const uint8_t *)"\x17\x03\x01", 3) == DET_NO);
    /* SSLv2-framed ClientHello: offering TLS 1.0, SSLv2 itself; a server hello is not one */
    CHECK(detect_tls_client_hello((const uint8_t *)"\x80\x55\x01\x03\x01", 5) == DET_YES);
    CHECK(detect_tls_client_hello((const uint8_t *)"\x80\x2e\x01\x00\x02", 5) == DET_YES);
    CHECK(detect_tls_client_hello((const uint8_t *)"\x80\x55\x01", 3) == DET_NEED_MORE);
    CHECK(detect_tls_client_hello((const uint8_t *)"\x80\x55\x04\x00\x02", 5) == DET_NO);
    CHECK(detect_tls_client_hello((const uint8_t *)"\x80\x55\x01\x03\x07", 5) == DET_NO);
}

int main(void)
{
    test_detect();
    return unit_report("test_tls_units");
}
