/* fuzz_ssh.c — libFuzzer target: the SSH parser (banners, then binary packets up to each
 * side's KEXINIT and its HASSH) on any TCP segments of both directions.
 *
 * Bit 0 of the first input byte turns HASSH on (app-layer.protocols.ssh.hassh; else only the
 * banners are read); the rest is read as records "direction byte, length byte, bytes", each
 * one segment of that side, everything read back after each (the HASSH rows as they come).
 * Run it with parsers/ssh/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "ssh_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct ph h;
    fz_init(&h, "ssh", 6);
    ((struct ssh_cfg *)ph_cfg(&h))->hassh = data[0] & 1;
    fz_records(&h, data, size, 1, 1, true);
    ph_end(&h);
    ph_free(&h);
    return 0;
}
