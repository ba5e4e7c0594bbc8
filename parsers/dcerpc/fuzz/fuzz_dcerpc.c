/* fuzz_dcerpc.c — libFuzzer target: the DCERPC parser on any bytes of both directions.
 *
 * The first input byte picks the transport (bit 0: UDP datagrams, else TCP streams) and, on
 * TCP, whether a well-formed bind of one context opens the client's stream first (bit 1).
 * The rest is records "direction byte, length byte, bytes", fed to dce_parse as segments (or
 * to dce_parse_dgram as datagrams) of either side (TCP: the direction byte's bit 1 a gap
 * before the record, dce_gap); the flow then ends (dce_end). After each
 * record every buffer and field of the transaction in force is read back in full, and each
 * finished transaction's EVE object is written. The sanitizers do the checking: no crash,
 * leak, overflow or undefined behaviour on any input. Run it with parsers/dcerpc/fuzz/run.sh.
 */
#include "dcerpc_int.h"
#include "fuzz_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    bool udp = opt & 1;
    struct ph h;
    fz_init(&h, "dcerpc", udp ? 17 : 6);
    if (!udp && (opt & 2)) { /* a bind first: the requests that follow have a context */
        static const uint8_t BIND[72] = {
            5, 0, 11, 3, 0x10, 0, 0, 0, 72, 0, 0, 0, 1, 0, 0, 0, 0xb8, 0x10, 0xb8, 0x10, 0, 0,
            0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0x81, 0xbb, 0x7a, 0x36, 0x44, 0x98, 0xf1, 0x35, 0xad,
            0x32, 0x98, 0xf0, 0x38, 0x00, 0x10, 0x03, 2, 0, 0, 0, 0x04, 0x5d, 0x88, 0x8a, 0xeb,
            0x1c, 0xc9, 0x11, 0x9f, 0xe8, 0x08, 0x00, 0x2b, 0x10, 0x48, 0x60, 2, 0, 0, 0};
        ph_feed(&h, 0, BIND, sizeof BIND);
    }
    fz_records(&h, data, size, 1, 1, true);
    ph_end(&h);
    ph_free(&h);
    return 0;
}
