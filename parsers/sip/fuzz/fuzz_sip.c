/* fuzz_sip.c — libFuzzer target: the SIP parser (messages, SDP, TCP framing) on any bytes of
 * both directions.
 *
 * The probe looks at the bytes after the first (bit 1 of the first byte: port 5060 or not).
 * The first input byte picks the transport (bit 0: UDP datagrams, else TCP segments); the
 * rest is read as records "direction byte, length byte, bytes" (UDP: the length in units of 4
 * bytes), each one datagram or segment
 * of that side. Each finished transaction has every SIP buffer row of the registry read back
 * in full, element by element, and its EVE object written. The sanitizers do the checking: no
 * crash, leak, overflow or undefined behaviour on any input. Run it with
 * parsers/sip/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "sip_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    bool udp = data[0] & 1;
    struct ph h;
    fz_init(&h, "sip", udp ? 17 : 6);
    h.f.sport = (data[0] & 2) ? 5060 : 7000; /* the probe's port hint */
    fz_sink += (uint32_t)sip_probe(data + 1, size - 1, &h.f);
    /* records of up to 1020 bytes on UDP (a datagram each), 255 on TCP */
    fz_records(&h, data, size, 1, udp ? 4 : 1, false);
    ph_free(&h);
    return 0;
}
