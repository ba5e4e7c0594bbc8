/* ber_fuzz.h — the libFuzzer driver the BER protocols' targets share (krb5/fuzz, ldap/fuzz,
 * snmp/fuzz): one protocol's descriptor on any bytes of both directions, without libmon.
 *
 * The first input byte picks the transport (bit 0: UDP datagrams through parse_dgram, else
 * TCP segments through parse); the rest is read as
 * records "direction byte, length byte, bytes"; the flow then ends. Each reported
 * transaction has every buffer element, field element and its EVE object read back. The
 * sanitizers do the checking. Header-only: each target defines LLVMFuzzerTestOneInput as
 * ber_fuzz_one(name, data, size). */
#ifndef OSPREY_BER_FUZZ_H
#define OSPREY_BER_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "osprey_json_writer.h"
#include "parsers_int.h"

static volatile uint32_t ber_fuzz_sink;

static void ber_fuzz_on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    (void)ctx, (void)f;
    struct pflow *pf = arg;
    const struct osprey_proto_def *d = reg_proto(p);
    struct osprey_scratch s;
    memset(&s, 0, sizeof s);
    for (size_t b = 0; b < d->nbuffers; b++)
        for (uint32_t i = 0; i < (d->buffers[b].multi ? 300u : 1u); i++) {
            uint32_t len = 0;
            const uint8_t *x = d->buffers[b].get(pf, d->buffers[b].key, i, &s, &len);
            if (!x)
                break;
            for (uint32_t k = 0; k < len; k++)
                ber_fuzz_sink += x[k];
        }
    for (size_t fl = 0; fl < d->nfields; fl++) {
        int64_t v;
        for (uint32_t i = 0; i < 300 && d->fields[fl].get(pf, d->fields[fl].key, i, &v); i++)
            ber_fuzz_sink += (uint32_t)v;
    }
    struct osprey_jw w;
    osprey_jw_init(&w);
    if (d->eve(pf, &w))
        ber_fuzz_sink++;
    char *line = osprey_jw_finish(&w);
    ber_fuzz_sink += line ? (uint32_t)strlen(line) : 0;
    free(line);
    osprey_scratch_free(&s);
}

static inline int ber_fuzz_one(const char *proto, const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    struct osprey_parsers p;
    memset(&p, 0, sizeof p);
    osprey_parsers_cfg_defaults(&p.cfg);
    struct reg_base base[OSPREY_APP_PROTO_MAX];
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
    pf.proto = (uint16_t)osprey_app_proto_find(proto);
    const struct osprey_proto_def *d = reg_proto(pf.proto);
    w.tx_fn = ber_fuzz_on_tx;
    w.tx_arg = &pf;
    struct mon_flow f;
    memset(&f, 0, sizeof f);
    bool udp = (opt & 1) && d->parse_dgram;
    f.proto = udp ? 17 : 6;
    f.cport = 40000;
    f.sport = 161;
    size_t i = 1;
    while (i + 2 <= size) {
        int dir = data[i] & 1;
        size_t n = data[i + 1];
        i += 2;
        if (n > size - i)
            n = size - i;
        if (udp)
            d->parse_dgram(&pf, &f, dir, data + i, n);
        else if (d->parse && !pf.dead[dir])
            d->parse(&pf, &f, dir, data + i, n);
        i += n;
    }
    if (d->end)
        d->end(&pf, &f);
    if (pf.state)
        d->state_free(pf.state);
    pbuf_free(&pf.in[0]);
    pbuf_free(&pf.in[1]);
    free(p.ev);
    return 0;
}

#endif
