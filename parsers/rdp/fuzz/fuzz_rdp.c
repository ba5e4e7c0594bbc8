/* fuzz_rdp.c — libFuzzer target: the RDP parser (TPKTs, X.224 request and confirm, MCS Connect Initial client data) on any bytes of both directions.
 *
 * The first input byte picks options (see below); the rest is read as records "direction
 * byte, length byte, bytes", fed to the parser as segments of either side; the flow then
 * ends. Each reported transaction, and the state after every record, has every buffer,
 * field and the EVE object read back. The sanitizers do the checking: no crash, leak,
 * overflow or undefined behaviour on any input. Run it with parsers/rdp/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "rdp_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct ph h;
    fz_init(&h, "rdp", 6);
    (void)data[0]; /* no options yet: the byte is skipped */
    fz_records(&h, data, size, 1, 1, true);
    ph_end(&h);
    fz_read_all(&h.pf);
    ph_free(&h);
    return 0;
}
