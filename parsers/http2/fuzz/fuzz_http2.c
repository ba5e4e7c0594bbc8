/* fuzz_http2.c — libFuzzer target: the HTTP/2 parser on any bytes of both directions.
 *
 * The first input byte picks the limits (streams memcap, body limits, decompression) and
 * whether the client's preface is given first; the rest is read as records "direction byte,
 * length byte, bytes" fed to http2_parse as segments of either side; the flow then ends
 * (http2_end). Each reported transaction has every buffer (every element of the multi ones)
 * and every field read back in full. The sanitizers do the checking: no crash, leak,
 * overflow or undefined behaviour on any input. Run it with parsers/http2/fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http2_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint32_t sink;

/* the buffers with elements (the others have element 0 only, as the registry serves them) */
static bool multi(unsigned b)
{
    return b == H2B_HEADER_LINE || b == H2B_HEADER_NAME || b == H2B_DOH_QUERIES ||
           b == H2B_DOH_ANSWERS;
}

static void read_all(struct pflow *pf)
{
    struct osprey_scratch s = {0};
    for (unsigned b = 0; b <= H2B_FRAME_PDU; b++)
        for (unsigned side = 0; side < 2; side++)
            for (uint32_t i = 0; i < (multi(b) ? 300u : 1u); i++) {
                uint32_t len = 0;
                const uint8_t *d = h2_buffer(pf, b << 1 | side, i, &s, &len);
                if (!d)
                    break;
                for (uint32_t k = 0; k < len; k++)
                    sink += d[k];
            }
    for (unsigned key = H2K_FRAMETYPE; key <= H2K_SETTINGS; key++) {
        int64_t v;
        for (uint32_t i = 0; h2_field(pf, key, i, &v); i++)
            sink += (uint32_t)v;
    }
    osprey_scratch_free(&s);
}

static void on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    (void)ctx, (void)f, (void)p;
    struct pflow *pf = arg;
    read_all(pf);
    sink += http2_tx_id(pf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    struct osprey_parsers p;
    memset(&p, 0, sizeof p);
    osprey_parsers_cfg_defaults(&p.cfg);
    if (opt & 1) { /* small limits: the shedding paths */
        p.cfg.http2_max_streams = 2;
        p.cfg.http_request_body_limit = 50;
        p.cfg.http_response_body_limit = 100;
    }
    p.cfg.http_decompress = (opt & 2) == 0;
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
    pf.proto = (uint16_t)osprey_app_proto_find("http2");
    w.tx_fn = on_tx;
    w.tx_arg = &pf;
    struct mon_flow f;
    memset(&f, 0, sizeof f);
    if (opt & 4) /* as after an h2c upgrade */
        http2_upgraded(&pf, &f);
    if (!(opt & 8)) /* the preface, so that the records are frames from the start */
        http2_parse(&pf, &f, 0, (const uint8_t *)H2_PREFACE, H2_PREFACE_LEN);
    size_t i = 1;
    while (i + 2 <= size) {
        int dir = data[i] & 1;
        size_t n = data[i + 1];
        i += 2;
        if (n > size - i)
            n = size - i;
        if (!pf.dead[dir])
            http2_parse(&pf, &f, dir, data + i, n);
        if (pf.state)
            read_all(&pf); /* mid-stream, as an event's rules would */
        i += n;
    }
    http2_end(&pf, &f);
    http2_free(pf.state);
    free(p.ev);
    pbuf_free(&pf.in[0]);
    pbuf_free(&pf.in[1]);
    return 0;
}
