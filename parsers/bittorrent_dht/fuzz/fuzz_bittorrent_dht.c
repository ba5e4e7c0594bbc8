/* fuzz_bittorrent_dht.c — libFuzzer target: the BitTorrent DHT parser (its bencode reader and
 * KRPC messages) on any datagrams of both directions.
 *
 * The first input byte is skipped; the rest is read as records "direction byte, length byte,
 * bytes" (lengths times 2), each one datagram of that side; the probe looks at the first.
 * Each transaction has its EVE object written. Run it with
 * parsers/bittorrent_dht/fuzz/run.sh. */
#include "bt_int.h"
#include "fuzz_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct ph h;
    fz_init(&h, "bittorrent-dht", 17);
    h.f.cport = 6881, h.f.sport = 51413;
    if (size > 3)
        fz_sink += (uint32_t)bt_probe(data + 3, size - 3, &h.f);
    fz_records(&h, data, size, 1, 2, true);
    ph_free(&h);
    return 0;
}
