/* fuzz_ike.c — libFuzzer target: the IKE parser (IKEv1 and IKEv2) on any datagrams of both
 * directions.
 *
 * Bit 0 of the first input byte picks the port (4500: the non-ESP marker first; else 500);
 * the rest is read as records "direction byte, length byte, bytes" with the length in units
 * of 4 bytes (up to 1020), each one datagram of that side; the probe looks at the first. Each
 * transaction has every IKE buffer and field read back and its EVE object written (the flow's
 * IKEv1 state with it). Run it with parsers/ike/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "ike_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct ph h;
    fz_init(&h, "ike", 17);
    h.f.cport = h.f.sport = (data[0] & 1) ? 4500 : 500;
    fz_sink += (uint32_t)ike_probe(data + 1, size - 1, &h.f);
    fz_records(&h, data, size, 1, 4, false);
    ph_free(&h);
    return 0;
}
