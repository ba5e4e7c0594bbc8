/* fuzz_pgsql.c — libFuzzer target: the PostgreSQL parser on any TCP segments of both
 * directions (startup, SSL answers and the hand-off to TLS, typed messages split anywhere).
 *
 * Bit 0 of the first input byte sets max-tx to 2 (the oldest-finished path), bit 1 a
 * stream-depth of 300 bytes; the rest is read as records "direction byte, length byte,
 * bytes" (lengths times 4), each one segment of that side, everything read back after each
 * (pgsql.query, the EVE object of each transaction). Each segment goes to the flow's protocol
 * of the moment (TLS once the server accepted SSL), as the drivers send it. Run it with
 * parsers/pgsql/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "pgsql_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ph h; /* (big: not on the stack) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    fz_init(&h, "pgsql", 6);
    h.f.cport = 40000, h.f.sport = 5432;
    struct pgsql_cfg *c = ph_cfg(&h);
    if (data[0] & 1)
        c->max_tx = 2;
    if (data[0] & 2)
        c->stream_depth = 300;
    if (size > 3)
        fz_sink += (uint32_t)pgsql_probe(data + 3, size - 3, &h.f);
    for (size_t at = 1; at + 2 <= size;) {
        int dir = data[at] & 1;
        size_t n = (size_t)data[at + 1] * 4;
        at += 2;
        if (n > size - at)
            n = size - at;
        const struct osprey_proto_def *d = reg_proto(h.pf.proto);
        if (d && d->parse && !h.pf.dead[dir])
            d->parse(&h.pf, &h.f, dir, data + at, n);
        fz_read_all(&h.pf);
        at += n;
    }
    h.def = reg_proto(h.pf.proto); /* (the flow's protocol now: its end, its state_free) */
    ph_end(&h);
    ph_free(&h);
    return 0;
}
