/* fuzz_pgsql.c — libFuzzer target: the PostgreSQL parser on any TCP segments of both
 * directions (startup, SSL answers and the hand-off to TLS, typed messages split anywhere).
 *
 * Bit 0 of the first input byte sets max-tx to 2 (the oldest-finished path), bit 1 a
 * stream-depth of 300 bytes; the rest is read as records "direction byte, length byte,
 * bytes" (lengths times 4), each one segment of that side, everything read back after each
 * (pgsql.query, the EVE object of each transaction). Run it with parsers/pgsql/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "pgsql_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct ph h;
    fz_init(&h, "pgsql", 6);
    h.f.cport = 40000, h.f.sport = 5432;
    struct pgsql_cfg *c = ph_cfg(&h);
    if (data[0] & 1)
        c->max_tx = 2;
    if (data[0] & 2)
        c->stream_depth = 300;
    if (size > 3)
        fz_sink += (uint32_t)pgsql_probe(data + 3, size - 3, &h.f);
    fz_records(&h, data, size, 1, 4, true);
    ph_end(&h);
    ph_free(&h);
    return 0;
}
