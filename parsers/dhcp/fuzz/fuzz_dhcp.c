/* fuzz_dhcp.c — libFuzzer target: the DHCP parser on any datagrams of both directions.
 *
 * The first input byte is skipped (kept for the format the UDP targets share); the rest is
 * read as records "direction byte, length byte, bytes" with the length in units of 4 bytes
 * (up to 1020), each one datagram of that side; the probe looks at the first. Each
 * transaction has every DHCP buffer and field read back and its EVE object written: the
 * sanitizers do the checking. Run it with parsers/dhcp/fuzz/run.sh. */
#include "dhcp_int.h"
#include "fuzz_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct ph h;
    fz_init(&h, "dhcp", 17);
    h.f.cport = 68, h.f.sport = 67;
    fz_sink += (uint32_t)dhcp_probe(data + 1, size - 1, &h.f);
    fz_records(&h, data, size, 1, 4, false);
    ph_free(&h);
    return 0;
}
