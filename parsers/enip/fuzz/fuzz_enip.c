/* fuzz_enip.c — libFuzzer target: the EtherNet/IP parser on TCP segments or UDP datagrams of
 * both directions.
 *
 * Bit 0 of the first input byte: UDP (else TCP); the rest is read as records "direction
 * byte, length byte, bytes" (length x 4 on TCP, so messages with long CIP bodies fit), each
 * one segment or datagram of that side, everything read back after each. The probe looks
 * at the first. Run it with parsers/enip/fuzz/run.sh. */
#include "enip_int.h"
#include "fuzz_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    bool udp = data[0] & 1;
    struct ph h;
    fz_init(&h, "enip", udp ? 17 : 6);
    h.f.cport = 40000, h.f.sport = ENIP_PORT;
    fz_sink += (uint32_t)enip_probe(data + 1, size - 1, &h.f);
    fz_records(&h, data, size, 1, udp ? 1 : 4, true);
    ph_end(&h);
    ph_free(&h);
    return 0;
}
