/* fuzz_tftp.c — libFuzzer target: TFTP requests and the tftp-data transfer (DATA blocks,
 * OACK options, ERROR) on any datagrams of both directions.
 *
 * The first input byte picks the flow (bit 0: a transfer, tftp-data, with a fresh state as an
 * expectation hands it; else the request flow on port 69); the rest is read as records
 * "direction byte, length byte, bytes" (the length in units of 4 bytes), each one datagram,
 * with everything read back after each; the flow then ends. Run it with
 * parsers/tftp/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "tftp_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    bool transfer = data[0] & 1;
    struct ph h;
    fz_init(&h, transfer ? "tftp-data" : "tftp", 17);
    h.f.sport = 69;
    fz_sink += (uint32_t)tftp_probe(data + 1, size - 1, &h.f);
    if (transfer) {
        struct tftp_data_state *ds = calloc(1, sizeof *ds);
        if (!ds) {
            ph_free(&h);
            return 0;
        }
        ds->blksize = TFTP_BLOCK;
        pbuf_add(&ds->name, "f.bin", 5, TFTP_NAME_MAX);
        h.pf.state = ds;
    }
    fz_records(&h, data, size, 1, 4, true);
    ph_end(&h);
    pexpect_free(&h.w.expect);
    ph_free(&h);
    return 0;
}
