/* fuzz_pop3.c — libFuzzer target: the POP3 parser (and the MIME reader under it, and the TLS
 * parser a STLS hands the flow to) on any bytes of both directions.
 *
 * The first byte picks the configuration (bit 0: a 64-byte attachment limit; bit 1: every
 * hash and magic asked of the file layer); then records "direction byte (bit 1: a gap before
 * them), length byte, bytes" are fed as segments of either side to the flow's protocol's parser — POP3's, or TLS's after
 * an accepted upgrade (so not ph_feed, which keeps the first descriptor); the flow then ends.
 * Each finished transaction, and the flow at the end, has everything read back
 * (fuzz_harness.h). The sanitizers do the checking: no crash, leak, overflow or undefined
 * behaviour on any input. Run it with parsers/pop3/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "pop3_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ph h; /* (big: not on the stack) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    fz_init(&h, "pop3", 6);
    h.f.cport = 40000, h.f.sport = 110;
    if (data[0] & 1)
        ((struct pop3_cfg *)parsers_proto_cfg(&h.p.cfg, h.pf.proto))->attachment_limit = 64;
    if (data[0] & 2)
        h.p.files = OSPREY_FILES_MD5 | OSPREY_FILES_SHA1 | OSPREY_FILES_SHA256;
    for (size_t at = 1; at + 2 <= size;) {
        int dir = data[at] & 1;
        size_t n = data[at + 1];
        at += 2;
        if (n > size - at)
            n = size - at;
        const struct osprey_proto_def *d = reg_proto(h.pf.proto);
        if ((data[at - 2] & 2) && d && d->gap && !h.pf.dead[dir]) /* bytes lost before these */
            d->gap(&h.pf, &h.f, dir);
        if (d && d->parse && !h.pf.dead[dir])
            d->parse(&h.pf, &h.f, dir, data + at, n);
        at += n;
    }
    fz_read_all(&h.pf);
    h.def = reg_proto(h.pf.proto); /* (the flow's protocol now: its end, its state_free) */
    ph_end(&h);
    ph_free(&h);
    return 0;
}
