/* fuzz_quic.c — libFuzzer target: the QUIC parser on any bytes of both directions.
 *
 * The first input byte picks the mode. Bit 0 clear: the rest is records "direction byte,
 * length byte, bytes" (the length in units of 8 bytes), each one UDP datagram of that side
 * (headers, gQUIC frames, the Initial keys and decryption — random bytes seldom
 * authenticate). Bit 0 set: each record is the cleartext payload of an Initial (bit 1: a gQUIC
 * one), handed to the frame readers as if decrypted — CRYPTO reassembly and the TLS hello
 * reader are reached. Every transaction reported has every QUIC buffer row read back and its
 * EVE object written; the sanitizers do the checking. Run it with parsers/quic/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "quic_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct ph h;
    fz_init(&h, "quic", 17);
    h.f.sport = 443;
    fz_sink += (uint32_t)quic_probe(data + 1, size - 1, &h.f);
    if (!(data[0] & 1)) {
        fz_records(&h, data, size, 1, 8, false);
    } else {
        struct quic_state *st = calloc(1, sizeof *st);
        h.pf.state = st;
        bool gq = data[0] & 2;
        for (size_t at = 1; st && at + 2 <= size;) {
            int dir = data[at] & 1;
            size_t n = (size_t)data[at + 1] * 8;
            at += 2;
            if (n > size - at)
                n = size - at;
            st->tx.id = ++st->ntx; /* a transaction per payload, as packet.c makes them */
            st->tx.dir = dir;
            st->tx.h.is_long = true;
            st->tx.h.version = gq ? 0x51303436u : 1;
            fz_sink += gq ? quic_gquic_frames(&h.pf, st, data + at, n)
                          : quic_frames(&h.pf, st, dir, data + at, n);
            fz_read_all(&h.pf);
            at += n;
        }
    }
    ph_free(&h);
    return 0;
}
