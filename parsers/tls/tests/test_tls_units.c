/* test_tls_units.c — TLS detection verdicts on prefixes (TLS and SSLv2-framed ClientHellos);
 * a buffer set empty before any byte was copied. */
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

/* A buffer set empty before anything was copied reads as present and empty (fuzz-tls found
 * tls_buffer_at adding the offset to a null copy: an empty SNI in a hello cut short). */
static void test_empty_buffer_first(void)
{
    struct tls_state *t = calloc(1, sizeof *t);
    CHECK(t != NULL);
    if (!t)
        return;
    tls_put(t, TB_SNI, "", 0);
    struct pflow pf;
    memset(&pf, 0, sizeof pf);
    pf.state = t;
    uint32_t len = 99;
    const uint8_t *p = tls_buffer_at(&pf, TB_SNI, 0, &len);
    CHECK(p != NULL && len == 0);
    CHECK(tls_buffer_at(&pf, TB_JA4, 0, &len) == NULL); /* never set: absent */
    tls_free(t);
}

int main(void)
{
    test_detect();
    test_empty_buffer_first();
    return unit_report("test_tls_units");
}
