/* fuzz_rpc.c — libFuzzer target: the ONC-RPC reader (rpc.h: messages, AUTH_UNIX credentials,
 * record marking) through the sunrpc protocol, on any bytes of both directions.
 *
 * The first input byte picks the transport (bit 0: UDP datagrams, else TCP segments); the
 * rest is read as records "direction byte, length byte, bytes" (UDP: the length in units of 4
 * bytes; TCP: the direction byte's bit 1 a gap before it, rpc_rec_gap through sunrpc's gap).
 * Each record is also decoded alone (rpc_decode). Run it with parsers/rpc/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "rpc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    bool udp = data[0] & 1;
    struct rpc_msg m;
    if (rpc_decode(&m, data + 1, size - 1))
        fz_sink += m.xid + (uint32_t)m.body_len + m.machine_len;
    struct ph h;
    fz_init(&h, "sunrpc", udp ? 17 : 6);
    h.f.sport = 111;
    fz_records(&h, data, size, 1, udp ? 4 : 1, true);
    ph_end(&h);
    ph_free(&h);
    return 0;
}
