/* fuzz_ntp.c — libFuzzer target: the NTP parser on any datagrams of both directions.
 *
 * The first input byte is skipped; the rest is read as records "direction byte, length byte,
 * bytes", each one datagram of that side; the probe looks at the first. Each transaction has
 * every NTP buffer and field read back and its EVE object written. Run it with
 * parsers/ntp/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "ntp_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct ph h;
    fz_init(&h, "ntp", 17);
    h.f.cport = 40000, h.f.sport = 123;
    fz_sink += (uint32_t)ntp_probe(data + 1, size - 1, &h.f);
    fz_records(&h, data, size, 1, 1, false);
    ph_free(&h);
    return 0;
}
