/* fuzz_dnp3.c — libFuzzer target: the DNP3 parser on TCP segments of both directions.
 *
 * Bit 0 of the first input byte: the records "direction byte, length byte, bytes" are raw
 * segments; else each record is a link frame's control byte and user data (up to 250 bytes)
 * sent as a frame whose CRCs check (what a fuzzer would not find alone), so the transport
 * and application layers are reached. Everything is read back after each record; the
 * application decoder is also run alone on the input. Run it with parsers/dnp3/fuzz/run.sh. */
#include "dnp3_int.h"
#include "fuzz_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* a frame of control ctl (1 → 2) carrying u[0..n), n <= 250, into out */
static size_t frame(uint8_t *out, uint8_t ctl, const uint8_t *u, size_t n)
{
    out[0] = 0x05, out[1] = 0x64, out[2] = (uint8_t)(n + 5), out[3] = ctl;
    out[4] = 1, out[5] = 0, out[6] = 2, out[7] = 0;
    uint16_t c = dnp3_crc(out, 8);
    out[8] = (uint8_t)c, out[9] = (uint8_t)(c >> 8);
    size_t at = 10;
    for (size_t i = 0; i < n; i += 16) {
        size_t b = n - i < 16 ? n - i : 16;
        memcpy(out + at, u + i, b);
        c = dnp3_crc(u + i, b);
        out[at + b] = (uint8_t)c, out[at + b + 1] = (uint8_t)(c >> 8);
        at += b + 2;
    }
    return at;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct dnp3_msg m;
    bool a, b, c;
    fz_sink += dnp3_decode_app(&m, 1, data + 1, size - 1, &a, &b, &c);
    struct ph h;
    fz_init(&h, "dnp3", 6);
    h.f.cport = 40000, h.f.sport = DNP3_PORT;
    fz_sink += (uint32_t)dnp3_probe(data + 1, size - 1, &h.f);
    if (data[0] & 1) {
        fz_records(&h, data, size, 1, 1, true);
    } else {
        size_t at = 1;
        while (at + 3 <= size) {
            int dir = data[at] & 1;
            uint8_t ctl = data[at + 1];
            size_t n = data[at + 2] < 250 ? data[at + 2] : 250;
            at += 3;
            if (n > size - at)
                n = size - at;
            uint8_t f[DNP3_FRAME_MAX];
            size_t fl = frame(f, ctl, data + at, n);
            ph_feed(&h, dir, f, fl);
            fz_read_all(&h.pf);
            at += n;
        }
    }
    ph_end(&h);
    ph_free(&h);
    return 0;
}
