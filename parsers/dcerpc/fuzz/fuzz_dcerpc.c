/* fuzz_dcerpc.c — libFuzzer target: the DCERPC parser on any bytes of both directions.
 *
 * The first input byte picks the transport (bit 0: UDP datagrams, else TCP streams) and, on
 * TCP, whether a well-formed bind of one context opens the client's stream first (bit 1).
 * The rest is records "direction byte, length byte, bytes", fed to dce_parse as segments (or
 * to dce_parse_dgram as datagrams) of either side; the flow then ends (dce_end). After each
 * record every buffer and field of the transaction in force is read back in full, and each
 * finished transaction's EVE object is written. The sanitizers do the checking: no crash,
 * leak, overflow or undefined behaviour on any input. Run it with parsers/dcerpc/fuzz/run.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dcerpc_int.h"
#include "osprey_json_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint32_t sink;

static void read_all(struct pflow *pf)
{
    const struct osprey_proto_def *d = &dcerpc_proto;
    struct osprey_scratch s;
    memset(&s, 0, sizeof s);
    for (size_t b = 0; b < d->nbuffers; b++) {
        uint32_t len = 0;
        const uint8_t *p = d->buffers[b].get(pf, d->buffers[b].key, 0, &s, &len);
        for (uint32_t i = 0; p && i < len; i++)
            sink += p[i];
    }
    for (size_t k = 0; k < d->nfields; k++) {
        int64_t v;
        if (d->fields[k].get(pf, d->fields[k].key, 0, &v))
            sink += (uint32_t)v;
    }
}

static void on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    (void)ctx, (void)f, (void)p;
    struct pflow *pf = arg;
    read_all(pf);
    struct osprey_jw w;
    osprey_jw_init(&w);
    dce_eve(pf, &w);
    char *out = osprey_jw_finish(&w);
    if (out)
        sink += (uint32_t)strlen(out);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    struct osprey_parsers p;
    memset(&p, 0, sizeof p);
    osprey_parsers_cfg_defaults(&p.cfg);
    struct reg_base base[OSPREY_APP_PROTO_MAX]; /* where the counters go (registry.c) */
    for (uint16_t id = 0; id < osprey_app_proto_count(); id++)
        base[id] = reg_base_of(id);
    p.base = base;
    p.ev = calloc(osprey_event_count() + 1u, sizeof *p.ev); /* never run: no forest */
    if (!p.ev)
        return 0;
    struct osprey_parsers_worker w;
    memset(&w, 0, sizeof w);
    w.p = &p;
    struct pflow pf;
    memset(&pf, 0, sizeof pf);
    pf.w = &w;
    pf.anomaly = -1;
    pf.proto = (uint16_t)osprey_app_proto_find("dcerpc");
    w.tx_fn = on_tx;
    w.tx_arg = &pf;
    struct mon_flow f;
    memset(&f, 0, sizeof f);
    bool udp = opt & 1;
    f.proto = udp ? 17 : 6;
    if (!udp && (opt & 2)) {
        static const uint8_t BIND[72] = {
            5, 0, 11, 3, 0x10, 0, 0, 0, 72, 0, 0, 0, 1, 0, 0, 0, 0xb8, 0x10, 0xb8, 0x10, 0, 0,
            0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0x81, 0xbb, 0x7a, 0x36, 0x44, 0x98, 0xf1, 0x35, 0xad,
            0x32, 0x98, 0xf0, 0x38, 0x00, 0x10, 0x03, 2, 0, 0, 0, 0x04, 0x5d, 0x88, 0x8a, 0xeb,
            0x1c, 0xc9, 0x11, 0x9f, 0xe8, 0x08, 0x00, 0x2b, 0x10, 0x48, 0x60, 2, 0, 0, 0};
        dce_parse(&pf, &f, 0, BIND, sizeof BIND);
    }
    size_t i = 1;
    while (i + 2 <= size) {
        int dir = data[i] & 1;
        size_t n = data[i + 1];
        i += 2;
        if (n > size - i)
            n = size - i;
        if (udp)
            dce_parse_dgram(&pf, &f, dir, data + i, n);
        else if (!pf.dead[dir])
            dce_parse(&pf, &f, dir, data + i, n);
        read_all(&pf);
        i += n;
    }
    dce_end(&pf, &f);
    dce_free(pf.state);
    pbuf_free(&pf.in[0]);
    pbuf_free(&pf.in[1]);
    free(p.ev);
    return 0;
}
