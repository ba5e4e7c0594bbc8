/* fuzz_tls.c — libFuzzer target: the TLS parser (records, handshakes, certificates, JA3/JA4
 * hashes) on any bytes of both directions.
 *
 * The first input byte picks whether everything is read back after each record (bit 0) and
 * the scale of record lengths (bits 1-2: 1, 2, 4 or 8, so one record can carry a whole
 * certificate chain); the rest is read as records "direction byte, length byte, bytes", fed
 * as TCP segments of either side; the flow then ends. Each reported transaction has its
 * buffers, fields and EVE object read back in full. The sanitizers do the checking. Run it
 * with parsers/tls/fuzz/run.sh. */
#include "fuzz_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    struct ph h;
    fz_init(&h, "tls", 6);
    fz_records(&h, data, size, 1, (size_t)1 << ((opt >> 1) & 3), (opt & 1) != 0);
    ph_end(&h);
    ph_free(&h);
    return 0;
}
