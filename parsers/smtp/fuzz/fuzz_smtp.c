/* fuzz_smtp.c — libFuzzer target: the SMTP parser (and the MIME reader under it, and the TLS
 * parser a STARTTLS hands the flow to) on any bytes of both directions.
 *
 * The first byte picks the configuration (bit 0: a 64-byte attachment limit); then records
 * "direction byte, length byte, bytes" are fed as segments of either side to the flow's
 * protocol's parser (SMTP, or TLS after an accepted STARTTLS); the flow then ends. Each
 * finished transaction has every buffer element read back in full and its EVE objects
 * written. The sanitizers do the checking: no crash, leak, overflow or undefined behaviour on
 * any input. Run it with parsers/smtp/fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "osprey_json_writer.h"
#include "smtp_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint32_t sink;

static void read_all(struct pflow *pf)
{
    const struct osprey_proto_def *d = reg_proto(pf->proto);
    if (!d || !pf->state)
        return;
    struct osprey_scratch s;
    memset(&s, 0, sizeof s);
    for (size_t b = 0; b < d->nbuffers; b++)
        for (uint32_t i = 0; i < 80; i++) {
            uint32_t len = 0;
            const uint8_t *p = d->buffers[b].get(pf, d->buffers[b].key, i, &s, &len);
            if (!p)
                break;
            for (uint32_t k = 0; k < len; k++)
                sink += p[k];
            if (!d->buffers[b].multi)
                break;
        }
    osprey_scratch_free(&s);
    if (!d->eve)
        return;
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    d->eve(pf, &w);
    char *line = osprey_jw_finish(&w);
    sink += line ? (uint32_t)strlen(line) : 0;
    free(line);
}

static void on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    (void)ctx, (void)f, (void)p;
    read_all(arg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    struct osprey_parsers p;
    memset(&p, 0, sizeof p);
    osprey_parsers_cfg_defaults(&p.cfg);
    if (data[0] & 1)
        p.cfg.smtp_content_limit = 64;
    struct reg_base base[OSPREY_APP_PROTO_MAX];
    for (uint16_t id = 0; id < osprey_app_proto_count(); id++)
        base[id] = reg_base_of(id);
    p.base = base;
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
    pf.proto = (uint16_t)osprey_app_proto_find("smtp");
    w.tx_fn = on_tx;
    w.tx_arg = &pf;
    struct mon_flow f; /* no event forest: app events are not run, transactions are */
    memset(&f, 0, sizeof f);
    f.proto = 6, f.ipver = 4, f.cport = 40000, f.sport = 25;
    for (size_t i = 1; i + 2 <= size;) {
        int dir = data[i] & 1;
        size_t n = data[i + 1];
        i += 2;
        if (n > size - i)
            n = size - i;
        const struct osprey_proto_def *d = reg_proto(pf.proto);
        if (d && d->parse && !pf.dead[dir])
            d->parse(&pf, &f, dir, data + i, n);
        i += n;
    }
    read_all(&pf);
    const struct osprey_proto_def *d = reg_proto(pf.proto);
    if (d && d->end)
        d->end(&pf, &f);
    if (d && pf.state)
        d->state_free(pf.state);
    osprey_scratch_free(&w.scratch);
    free(p.ev);
    return 0;
}
