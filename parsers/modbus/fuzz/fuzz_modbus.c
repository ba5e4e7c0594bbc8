/* fuzz_modbus.c — libFuzzer target: the Modbus/TCP parser on any TCP segments of both
 * directions.
 *
 * Bit 0 of the first input byte sets a request-flood of 2 (else Suricata's 500); the rest is
 * read as records "direction byte, length byte, bytes", each one segment of that side,
 * everything read back after each; the flow's end reports the requests never answered. The
 * probe looks at the first record. Run it with parsers/modbus/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "modbus_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct ph h;
    fz_init(&h, "modbus", 6);
    h.f.cport = 40000, h.f.sport = 502;
    if (data[0] & 1)
        ((struct modbus_cfg *)ph_cfg(&h))->request_flood = 2;
    fz_sink += (uint32_t)modbus_probe(data + 1, size - 1, &h.f);
    fz_records(&h, data, size, 1, 1, true);
    ph_end(&h);
    ph_free(&h);
    return 0;
}
