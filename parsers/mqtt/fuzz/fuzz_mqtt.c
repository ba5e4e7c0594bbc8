/* fuzz_mqtt.c — libFuzzer target: the MQTT parser on any bytes of both directions.
 *
 * The first input byte picks the limits (a small max-msg-length and max-tx reach the
 * truncation and shedding paths) and the protocol version the flow starts with; the rest is
 * read as records "direction byte, length byte, bytes", fed to mqtt_parse as segments of
 * either side; the flow then ends (mqtt_end). Each reported transaction has its buffers,
 * fields and EVE object read back in full. The sanitizers do the checking: no crash, leak,
 * overflow or undefined behaviour on any input. Run it with parsers/mqtt/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "mqtt_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    struct ph h;
    fz_init(&h, "mqtt", 6);
    if (opt & 1) { /* small limits: the truncated and shed paths */
        struct mqtt_cfg *mc = ph_cfg(&h);
        mc->max_msg_length = 16 + (opt >> 4);
        mc->max_tx = 1 + ((opt >> 1) & 3);
    }
    if (opt & 8) { /* the flow already speaks MQTT 5 (its CONNECT unseen) */
        static const uint8_t c5[] = {0x10, 0x0d, 0, 4, 'M', 'Q', 'T', 'T', 5, 2, 0, 60, 0, 0, 0};
        ph_feed(&h, 0, c5, sizeof c5);
    }
    fz_records(&h, data, size, 1, 1, false); /* read back as each transaction is reported */
    ph_end(&h);
    ph_free(&h);
    return 0;
}
