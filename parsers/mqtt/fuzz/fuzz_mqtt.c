/* fuzz_mqtt.c — libFuzzer target: the MQTT parser on any bytes of both directions.
 *
 * The first input byte picks the limits (a small max-msg-length and max-tx reach the
 * truncation and shedding paths) and the protocol version the flow starts with; the rest is
 * read as records "direction byte, length byte, bytes", fed to mqtt_parse as segments of
 * either side; the flow then ends (mqtt_end). Each reported transaction has its buffers,
 * fields and EVE object read back in full. The sanitizers do the checking: no crash, leak,
 * overflow or undefined behaviour on any input. Run it with parsers/mqtt/fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mqtt_int.h"
#include "osprey_json_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint32_t sink;

/* A transaction is reported: read every buffer element, field element and its EVE object. */
static void on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    (void)ctx, (void)f;
    struct pflow *pf = arg;
    const struct osprey_proto_def *d = reg_proto(p);
    struct osprey_scratch s;
    memset(&s, 0, sizeof s);
    for (size_t b = 0; b < d->nbuffers; b++)
        for (uint32_t i = 0; i < (d->buffers[b].multi ? 200u : 1u); i++) {
            uint32_t len = 0;
            const uint8_t *x = d->buffers[b].get(pf, d->buffers[b].key, i, &s, &len);
            if (!x)
                break;
            for (uint32_t k = 0; k < len; k++)
                sink += x[k];
        }
    for (size_t fl = 0; fl < d->nfields; fl++) {
        int64_t v;
        for (uint32_t i = 0; i < 200 && d->fields[fl].get(pf, d->fields[fl].key, i, &v); i++)
            sink += (uint32_t)v;
    }
    struct osprey_jw w;
    osprey_jw_init(&w);
    d->eve(pf, &w);
    char *line = osprey_jw_finish(&w);
    sink += line ? (uint32_t)strlen(line) : 0;
    free(line);
    osprey_scratch_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    struct osprey_parsers p;
    memset(&p, 0, sizeof p);
    osprey_parsers_cfg_defaults(&p.cfg);
    if (opt & 1) { /* small limits: the truncated and shed paths */
        struct mqtt_cfg *mc = parsers_proto_cfg(&p.cfg, (uint16_t)osprey_app_proto_find("mqtt"));
        mc->max_msg_length = 16 + (opt >> 4);
        mc->max_tx = 1 + ((opt >> 1) & 3);
    }
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
    pf.proto = (uint16_t)osprey_app_proto_find("mqtt");
    w.tx_fn = on_tx;
    w.tx_arg = &pf;
    struct mon_flow f;
    memset(&f, 0, sizeof f);
    if (opt & 8) { /* the flow already speaks MQTT 5 (its CONNECT unseen) */
        static const uint8_t c5[] = {0x10, 0x0d, 0, 4, 'M', 'Q', 'T', 'T', 5, 2, 0, 60, 0, 0, 0};
        mqtt_parse(&pf, &f, 0, c5, sizeof c5);
    }
    size_t i = 1;
    while (i + 2 <= size) {
        int dir = data[i] & 1;
        size_t n = data[i + 1];
        i += 2;
        if (n > size - i)
            n = size - i;
        if (!pf.dead[dir])
            mqtt_parse(&pf, &f, dir, data + i, n);
        i += n;
    }
    mqtt_end(&pf, &f);
    if (pf.state)
        mqtt_free(pf.state);
    pbuf_free(&pf.in[0]);
    pbuf_free(&pf.in[1]);
    free(p.ev);
    return 0;
}
