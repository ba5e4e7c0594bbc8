/* fuzz_dns.c — libFuzzer target: the DNS parser on any bytes of both directions.
 *
 * The first input byte picks the transport (bit 0: UDP datagrams, else TCP segments with
 * their length prefixes) and whether everything is read back after each record (bit 1); the
 * rest is read as records "direction byte, length byte, bytes" (length scaled by 2 with bit
 * 2, for long messages), fed as datagrams or segments of either side; the flow then ends.
 * Each reported transaction has its buffers, fields and EVE object read back in full. The
 * sanitizers do the checking. Run it with parsers/dns/fuzz/run.sh. */
#include "fuzz_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    struct ph h;
    fz_init(&h, "dns", (opt & 1) ? 17 : 6);
    fz_records(&h, data, size, 1, (opt & 4) ? 2 : 1, (opt & 2) != 0);
    ph_end(&h);
    ph_free(&h);
    return 0;
}
