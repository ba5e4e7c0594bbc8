/* fuzz_mdns.c — libFuzzer target: the mDNS parser (parsers/dns's decoder under mDNS's rows)
 * on any datagrams of both directions.
 *
 * The first input byte is skipped; the rest is read as records "direction byte, length byte,
 * bytes" (lengths times 2), each one datagram of that side; the probe looks at the first.
 * Each transaction has every mdns.* buffer read back and its EVE object written. Run it with
 * parsers/mdns/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "mdns_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct ph h;
    fz_init(&h, "mdns", 17);
    h.f.cport = 5353, h.f.sport = 5353;
    if (size > 3)
        fz_sink += (uint32_t)mdns_probe(data + 3, size - 3, &h.f);
    fz_records(&h, data, size, 1, 2, true);
    ph_free(&h);
    return 0;
}
