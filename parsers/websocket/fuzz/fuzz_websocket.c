/* fuzz_websocket.c — libFuzzer target: the WebSocket frame parser (masking, fragments, control frames between them, permessage-deflate) on any bytes of both directions.
 *
 * The first input byte picks options (see below); the rest is read as records "direction
 * byte, length byte, bytes", fed to the parser as segments of either side; the flow then
 * ends. Each reported transaction, and the state after every record, has every buffer,
 * field and the EVE object read back. The sanitizers do the checking: no crash, leak,
 * overflow or undefined behaviour on any input. Run it with parsers/websocket/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "websocket_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct ph h;
    fz_init(&h, "websocket", 6);
    if (data[0] & 1) { /* a small max-payload-size: the shed and reassembly-limit paths */
        struct websocket_cfg *c = ph_cfg(&h);
        c->max_payload = 1 + (data[0] >> 1);
    }
    fz_records(&h, data, size, 1, 1, true);
    ph_end(&h);
    fz_read_all(&h.pf);
    ph_free(&h);
    return 0;
}
