/* fuzz_nfs.c — libFuzzer target: the NFS parser (ONC-RPC messages, record marking, v2/v3/v4
 * calls and replies, file transfers) on any bytes of both directions.
 *
 * The first input byte picks the transport (bit 0: UDP datagrams, else TCP segments); the
 * rest is read as records "direction byte, length byte, bytes" (UDP: the length in units of 4
 * bytes; TCP: the direction byte's bit 1 a gap before it, nfs_gap), each one datagram or
 * segment of that side, with every buffer, field and the EVE
 * objects read back after each; the flow then ends (open transactions reported). The probes
 * see the bytes after the first. The sanitizers do the checking. Run it with
 * parsers/nfs/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "nfs_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    bool udp = data[0] & 1;
    struct ph h;
    fz_init(&h, "nfs", udp ? 17 : 6);
    h.f.sport = 2049;
    fz_sink += (uint32_t)nfs_probe_udp(data + 1, size - 1, &h.f) +
               (uint32_t)nfs_probe_tcp(data + 1, size - 1, &h.f) +
               (uint32_t)nfs_probe_tcp_reply(data + 1, size - 1, &h.f);
    fz_records(&h, data, size, 1, udp ? 4 : 1, true);
    ph_end(&h);
    ph_free(&h);
    return 0;
}
