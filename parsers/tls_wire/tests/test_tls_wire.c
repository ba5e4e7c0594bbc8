/* test_tls_wire.c — the shared TLS handshake reader alone: a ClientHello's buffers and
 * fingerprints (TLS's and QUIC's JA4), a hello cut short, a buffer set empty before any byte
 * was copied, the MD5 helper. */
#include <stdlib.h>
#include <string.h>

#include "tls_wire.h"
#include "unit.h"

/* A buffer set empty before anything was copied reads as present and empty (fuzz-tls found
 * the buffer reader adding the offset to a null copy: an empty SNI in a hello cut short). */
static void test_empty_buffer_first(void)
{
    struct tls_wire *t = calloc(1, sizeof *t);
    CHECK(t != NULL);
    if (!t)
        return;
    tls_wire_put(t, TB_SNI, "", 0);
    uint32_t len = 99;
    const uint8_t *p = tls_wire_at(t, TB_SNI, 0, &len);
    CHECK(p != NULL && len == 0);
    CHECK(tls_wire_at(t, TB_JA4, 0, &len) == NULL); /* never set: absent */
    tls_wire_free(t);
}

/* A ClientHello (TLS 1.2, a GREASE cipher, SNI and ALPN): its buffers, JA3 and JA4's first
 * part, 'q' for QUIC's; a hello cut short is malformed and says so. */
static void test_client_hello(void)
{
    static const uint8_t h[] = {
        0x03, 0x03, /* version */
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
        17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, /* random */
        0,                                    /* session id */
        0, 4, 0x0a, 0x0a, 0x13, 0x01,         /* ciphers: GREASE, TLS_AES_128_GCM_SHA256 */
        1, 0,                                 /* compression: null */
        0, 23,                                /* extensions */
        0, 0, 0, 10, 0, 8, 0, 0, 5, 'a', '.', 'c', 'o', 'm', /* server_name a.com */
        0, 16, 0, 5, 0, 3, 2, 'h', '2',       /* ALPN h2 */
    };
    for (int quic = 0; quic < 2; quic++) {
        struct tls_wire *t = calloc(1, sizeof *t);
        CHECK(t != NULL);
        if (!t)
            return;
        t->quic = quic;
        CHECK(tls_wire_client_hello(t, h, sizeof h) == 0 && t->hello_anom == 0);
        CHECK(t->info.client_version == 0x0303);
        uint32_t len;
        const uint8_t *p = tls_wire_at(t, TB_SNI, 0, &len);
        CHECK(p && len == 5 && !memcmp(p, "a.com", 5));
        p = tls_wire_at(t, TB_CLIENT_ALPN, 0, &len);
        CHECK(p && len == 2 && !memcmp(p, "h2", 2) && !tls_wire_at(t, TB_CLIENT_ALPN, 1, &len));
        p = tls_wire_at(t, TB_JA3_STRING, 0, &len);
        CHECK(p && len == 15 && !memcmp(p, "771,4865,0-16,,", 15));
        CHECK(tls_wire_at(t, TB_JA3_HASH, 0, &len) && len == 32);
        p = tls_wire_at(t, TB_JA4, 0, &len);
        CHECK(p && len > 11 && !memcmp(p, quic ? "q12d0102h2_" : "t12d0102h2_", 11));
        CHECK(tls_wire_client_hello(t, h, 40) == -1 && (t->hello_anom & TLS_HA_INVALID_LENGTH));
        tls_wire_free(t);
    }
    char md5[33];
    CHECK(tls_wire_md5_hex("", 0, md5) == 0 && !strcmp(md5, "d41d8cd98f00b204e9800998ecf8427e"));
}

int main(void)
{
    test_client_hello();
    test_empty_buffer_first();
    return unit_report("test_tls_wire");
}
