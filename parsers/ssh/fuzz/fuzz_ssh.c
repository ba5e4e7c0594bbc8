/* fuzz_ssh.c — libFuzzer target: the SSH parser (banners, KEXINIT, HASSH) on any bytes of
 * both directions.
 *
 * The first input byte picks whether everything is read back after each record (bit 0) and
 * the scale of record lengths (bit 1: 4, for long KEXINIT packets); the rest is read as records
 * "direction byte, length byte, bytes", fed as TCP segments of either side; the flow then
 * ends. Each reported transaction has its buffers, fields and EVE object read back in full.
 * The sanitizers do the checking. Run it with parsers/ssh/fuzz/run.sh. */
#include "fuzz_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    struct ph h;
    fz_init(&h, "ssh", 6);
    fz_records(&h, data, size, 1, (opt & 2) ? 4 : 1, (opt & 1) != 0);
    ph_end(&h);
    ph_free(&h);
    return 0;
}
