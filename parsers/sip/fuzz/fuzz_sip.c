/* fuzz_sip.c — libFuzzer target: the SIP parser (messages, SDP, TCP framing) on any bytes of
 * both directions.
 *
 * The probe looks at the bytes after the first (bit 1 of the first byte: port 5060 or not).
 * The first input byte picks the transport (bit 0: UDP datagrams, else TCP segments); the
 * rest is read as records "direction byte, length byte, bytes" (UDP: the length in units of 4
 * bytes), each one datagram or segment
 * of that side. Each finished transaction has every SIP buffer row of the registry read back
 * in full, element by element, and its EVE object written. The sanitizers do the checking: no
 * crash, leak, overflow or undefined behaviour on any input. Run it with
 * parsers/sip/fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "osprey_json_writer.h"
#include "sip_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint32_t sink;

/* A transaction is done: read each of SIP's buffers, every element, to the last byte. */
static void on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    (void)ctx, (void)f;
    struct pflow *pf = arg;
    struct reg_base base = reg_base_of(p);
    struct osprey_scratch s = {0};
    for (uint16_t b = base.buffer; b < base.buffer + sip_proto.nbuffers; b++) {
        uint16_t proto;
        const struct proto_buffer *r = reg_buffer(b, &proto);
        for (uint32_t i = 0; r && i < 1000; i++) {
            uint32_t len = 0;
            const uint8_t *d = r->get(pf, r->key, i, &s, &len);
            if (!d)
                break;
            for (uint32_t k = 0; k < len; k++)
                sink += d[k];
            if (!r->multi)
                break;
        }
    }
    osprey_scratch_free(&s);
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    sip_eve(pf, &w);
    char *line = osprey_jw_finish(&w);
    if (line)
        sink += (uint32_t)strlen(line);
    free(line);
    sink += sip_tx_id(pf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    bool udp = data[0] & 1;
    struct osprey_parsers p;
    memset(&p, 0, sizeof p);
    osprey_parsers_cfg_defaults(&p.cfg);
    struct reg_base base[OSPREY_APP_PROTO_MAX]; /* where the counters go (registry.c) */
    for (uint16_t id = 0; id < osprey_app_proto_count(); id++)
        base[id] = reg_base_of(id);
    p.base = base;
    /* the events' UDEs (never run: the flow has no forest) */
    p.ev = calloc(osprey_event_count() + 1u, sizeof *p.ev);
    if (!p.ev)
        return 0;
    struct osprey_parsers_worker w;
    memset(&w, 0, sizeof w);
    w.p = &p;
    struct pflow pf;
    memset(&pf, 0, sizeof pf);
    pf.w = &w;
    pf.anomaly = -1;
    pf.proto = (uint16_t)osprey_app_proto_find("sip");
    w.tx_fn = on_tx;
    w.tx_arg = &pf;
    struct mon_flow f; /* no event forest: app events are not run, transactions are */
    memset(&f, 0, sizeof f);
    f.proto = udp ? 17 : 6;
    f.sport = (data[0] & 2) ? 5060 : 7000; /* the probe's port hint */
    sink += (uint32_t)sip_probe(data + 1, size - 1, &f);
    for (size_t i = 1; i + 2 <= size;) {
        int dir = data[i] & 1;
        size_t n = (size_t)data[i + 1] * (udp ? 4 : 1); /* datagrams up to 1020 bytes */
        i += 2;
        if (n > size - i)
            n = size - i;
        if (udp)
            sip_parse_dgram(&pf, &f, dir, data + i, n);
        else if (!pf.dead[dir])
            sip_parse_tcp(&pf, &f, dir, data + i, n);
        i += n;
    }
    sip_free(pf.state);
    free(p.ev);
    return 0;
}
