/* fuzz_tls_wire.c — libFuzzer target: the shared TLS hello reader alone on any bytes.
 *
 * The first input byte picks the hello (bit 0: ServerHello, else ClientHello), QUIC's reading
 * (bit 1: 'q' JA4, extension types asked for) and a second hello over the first's buffers
 * (bit 2: the rest split in two); the rest is the hello's body. Every buffer element is read
 * back. The sanitizers do the checking. Run it with parsers/tls_wire/fuzz/run.sh. */
#include <stdlib.h>

#include "tls_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void hello(struct tls_wire *t, bool server, const uint8_t *d, size_t n)
{
    t->next_types = 0;
    sink += (uint64_t)(server ? tls_wire_server_hello(t, d, n) : tls_wire_client_hello(t, d, n));
    for (int b = 0; b < TB__COUNT; b++) {
        uint32_t len;
        const uint8_t *p;
        for (uint32_t i = 0; (p = tls_wire_at(t, (enum tls_buf)b, i, &len)); i++) {
            sink += len ? p[len - 1] : 0;
            if (!tls_buf_is_multi((enum tls_buf)b))
                break;
        }
    }
    for (uint32_t i = 0; i < t->next_types; i++)
        sink += t->ext_types[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    struct tls_wire *t = calloc(1, sizeof *t);
    if (!t)
        return 0;
    uint16_t types[64];
    if (opt & 2) {
        t->quic = true;
        t->ext_types = types;
        t->ext_max = 64;
    }
    data++, size--;
    if (opt & 4) {
        hello(t, opt & 1, data, size / 2);
        hello(t, !(opt & 1), data + size / 2, size - size / 2);
    } else {
        hello(t, opt & 1, data, size);
    }
    tls_wire_free(t);
    return 0;
}
