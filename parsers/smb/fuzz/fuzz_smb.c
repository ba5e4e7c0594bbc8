/* fuzz_smb.c — libFuzzer target: the SMB parser on any bytes of both directions.
 *
 * The first input byte is unused (kept for options); the rest is records "direction byte,
 * length byte, bytes", fed to smb_parse as segments of either side (the direction byte's bit
 * 1: a gap before the record, smb_gap, fz_records). After each record the
 * buffers and the field are read back in full (the EVE object too, with the DCERPC a named pipe
 * carried), and the flow ended. The sanitizers do the checking: no crash,
 * leak, overflow or undefined behaviour on any input. Run it with parsers/smb/fuzz/run.sh.
 */
#include "fuzz_harness.h"
#include "smb_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct ph h;
    fz_init(&h, "smb", 6);
    fz_records(&h, data, size, 1, 1, true);
    ph_end(&h); /* requests never answered reported, files still open closed */
    ph_free(&h);
    return 0;
}
